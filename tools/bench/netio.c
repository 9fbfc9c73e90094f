/* SPDX-License-Identifier: MIT */
/*
 * netio (seed 002): send/recv of 40 MiB over loopback TCP with the user
 * buffer at the seed's offsets, beside the same stream through an
 * in-process channel whose two copies are ua_copy_from_user (send) and
 * ua_copy_to_user (recv), like the kernel's, and through one built on
 * memcpy.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "bench.h"

#define TOTAL ((size_t)40 << 20)
#define RING ((size_t)256 << 10)

struct stream {
	size_t off, bufsize;
	char *sbuf, *rbuf;
	int fd;          /* TCP: the sending socket */
	int copies;      /* channel: 1 uaccess, 0 memcpy */
	const char *err; /* the sender's failure, if any */
	/* the channel: a ring, one producer, one consumer */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *ring;
	size_t head, tail; /* bytes produced / consumed, ever */
};

/* ------------------------------------------------------------------ */
/* TCP over 127.0.0.1 */

static void *
tcp_sender(void *arg)
{
	struct stream *st = arg;
	size_t left = TOTAL;

	while (left) {
		size_t n = left < st->bufsize ? left : st->bufsize, done = 0;

		while (done < n) {
			ssize_t k = send(st->fd, st->sbuf + st->off + done,
					 n - done, MSG_NOSIGNAL);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				st->err = "send failed";
				return NULL;
			}
			done += (size_t)k;
		}
		left -= n;
	}
	return NULL;
}

static int
tcp_pair(int *ret_tx, int *ret_rx)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);
	struct timeval tv = {.tv_sec = 10};
	int l, tx = -1, rx = -1, one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return -errno;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		goto fail;
	tx = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (tx < 0 || connect(tx, (struct sockaddr *)&a, sizeof(a)))
		goto fail;
	rx = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (rx < 0)
		goto fail;
	/* bounded: a stuck peer turns into an error, not a hang */
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(tx, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(tx, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	close(l);
	*ret_tx = tx;
	*ret_rx = rx;
	return 0;
fail:
	l = -errno;
	close(tx);
	close(rx);
	return l ? l : -EIO;
}

/* ns to move TOTAL bytes, or a negative errno */
static double
tcp_run(struct stream *st)
{
	pthread_t th;
	size_t got = 0;
	uint64_t t0;
	int rx = -1, r;

	r = tcp_pair(&st->fd, &rx);
	if (r < 0)
		return r;
	st->err = NULL;
	t0 = now_ns();
	if (pthread_create(&th, NULL, tcp_sender, st)) {
		close(st->fd);
		close(rx);
		return -EAGAIN;
	}
	while (got < TOTAL) {
		size_t want =
		    TOTAL - got < st->bufsize ? TOTAL - got : st->bufsize;
		ssize_t k = recv(rx, st->rbuf + st->off, want, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	t0 = now_ns() - t0;
	close(rx); /* unblocks a sender that is still going */
	pthread_join(th, NULL);
	close(st->fd);
	return got == TOTAL && !st->err ? (double)t0 : -EIO;
}

/* ------------------------------------------------------------------ */
/* The in-process channel */

static void *
chan_sender(void *arg)
{
	struct stream *st = arg;
	size_t sent = 0, pos = 0;

	while (sent < TOTAL) {
		size_t room, at, n;

		pthread_mutex_lock(&st->lock);
		while (st->head - st->tail == RING)
			pthread_cond_wait(&st->cond, &st->lock);
		room = RING - (st->head - st->tail);
		pthread_mutex_unlock(&st->lock);

		at = st->head % RING;
		n = RING - at < room ? RING - at : room;
		if (n > TOTAL - sent)
			n = TOTAL - sent;
		if (n > st->bufsize - pos)
			n = st->bufsize - pos;
		if (st->copies) {
			if (ua_copy_from_user(st->ring + at,
					      st->sbuf + st->off + pos, n))
				st->err = "copy_from_user fell short";
		} else {
			memcpy(st->ring + at, st->sbuf + st->off + pos, n);
		}
		pos = (pos + n) % st->bufsize;
		sent += n;

		pthread_mutex_lock(&st->lock);
		st->head += n;
		pthread_cond_signal(&st->cond);
		pthread_mutex_unlock(&st->lock);
	}
	return NULL;
}

static double
chan_run(struct stream *st)
{
	size_t got = 0, pos = 0;
	pthread_t th;
	uint64_t t0;

	st->head = st->tail = 0;
	st->err = NULL;
	t0 = now_ns();
	if (pthread_create(&th, NULL, chan_sender, st))
		return -EAGAIN;
	while (got < TOTAL) {
		size_t avail, at, n;

		pthread_mutex_lock(&st->lock);
		while (st->head == st->tail)
			pthread_cond_wait(&st->cond, &st->lock);
		avail = st->head - st->tail;
		pthread_mutex_unlock(&st->lock);

		at = st->tail % RING;
		n = RING - at < avail ? RING - at : avail;
		if (n > st->bufsize - pos)
			n = st->bufsize - pos;
		if (st->copies) {
			if (ua_copy_to_user(st->rbuf + st->off + pos,
					    st->ring + at, n))
				st->err = "copy_to_user fell short";
		} else {
			memcpy(st->rbuf + st->off + pos, st->ring + at, n);
		}
		pos = (pos + n) % st->bufsize;
		got += n;

		pthread_mutex_lock(&st->lock);
		st->tail += n;
		pthread_cond_signal(&st->cond);
		pthread_mutex_unlock(&st->lock);
	}
	t0 = now_ns() - t0;
	pthread_join(th, NULL);
	return st->err ? -EIO : (double)t0;
}

/* ------------------------------------------------------------------ */

static const struct {
	size_t off, bufsize;
} rows[] = {
    {100, 8 << 20}, {104, 8 << 20}, {108, 8 << 20}, {112, 8 << 20},
    {116, 8 << 20}, {120, 8 << 20}, {0, 1 << 20},   {1, 1 << 20},
    {2, 1 << 20},   {3, 1 << 20},   {4, 1 << 20},
};
#define NROWS (int)(sizeof(rows) / sizeof(rows[0]))

int
cmd_netio(void)
{
	struct stream st = {.lock = PTHREAD_MUTEX_INITIALIZER,
			    .cond = PTHREAD_COND_INITIALIZER};
	int trials = bench_trials(3, 7), i, k, c;
	double v[3][64], ns[NROWS][3];
	size_t bufmax = (size_t)8 << 20;
	struct table *t;

	st.sbuf = buffer_alloc(bufmax + 4096);
	st.rbuf = buffer_alloc(bufmax + 4096);
	st.ring = buffer_alloc(RING);
	for (i = 0; i < NROWS; i++) {
		st.off = rows[i].off;
		st.bufsize = rows[i].bufsize;
		progress("netio: offset %zu, buffer %zu MiB", st.off,
			 st.bufsize >> 20);
		for (k = 0; k < trials; k++)
			for (c = 0; c < 3; c++) {
				int w = (c + k) % 3;
				double r;

				if (w == 0) {
					r = tcp_run(&st);
				} else {
					st.copies = w == 1;
					r = chan_run(&st);
				}
				if (r < 0) {
					buffer_free(st.sbuf, bufmax + 4096);
					buffer_free(st.rbuf, bufmax + 4096);
					buffer_free(st.ring, RING);
					unavailable("netio",
						    "loopback TCP stream",
						    strerror((int)-r));
					return -1;
				}
				v[w][k] = r;
			}
		for (c = 0; c < 3; c++)
			ns[i][c] = median(v[c], trials);
	}
	buffer_free(st.sbuf, bufmax + 4096);
	buffer_free(st.rbuf, bufmax + 4096);
	buffer_free(st.ring, RING);

	t = table_new("netio", "stream",
		      "send/recv of 40 MiB at a user buffer offset (seed 002)");
	table_key(t, "off");
	table_key(t, "size");
	table_col(t, "TCP", "s", 3);
	table_col(t, "TCP", "MiB/s", 1);
	table_role(t, ROLE_BASE);
	table_col(t, "ua channel", "MiB/s", 1);
	table_role(t, ROLE_LIB);
	table_col(t, "memcpy channel", "MiB/s", 1);
	table_role(t, ROLE_BASE);
	table_plot(t, "netio", PLOT_BARS, 0, 0, "MiB/s",
		   "uaccess-bench netio: 40 MiB at buffer offset/size (seed "
		   "002)");
	table_col(t, "ua/TCP", "x", 2);
	table_col(t, "ua/memcpy", "x", 2);
	for (i = 0; i < NROWS; i++) {
		double mib = (double)(TOTAL >> 20) * 1e9;

		table_row(t);
		table_str(t, "%zu", rows[i].off);
		table_str(t, "%#zx", rows[i].bufsize);
		table_num(t, ns[i][0] / 1e9);
		table_num(t, mib / ns[i][0]);
		table_num(t, mib / ns[i][1]);
		table_num(t, mib / ns[i][2]);
		table_num(t, ns[i][0] / ns[i][1]);
		table_num(t, ns[i][2] / ns[i][1]);
	}
	table_note(t, "TCP: 127.0.0.1, sender thread and receiver on the "
		      "same pinned CPU, like the seed's netio2.  Channels: a "
		      "256 KiB ring between two threads; the ua channel "
		      "sends with ua_copy_from_user and receives with "
		      "ua_copy_to_user.");
	table_note(t, "The seed, 2002: 343-358 MB/s (K7 copy) against 439-447 "
		      "(686 copy) at offsets 100..120.");
	table_end(t);
	return 0;
}
