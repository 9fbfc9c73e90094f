/* SPDX-License-Identifier: MIT */
/*
 * Tables, speed bars and charts.  Text for people; CSV (one header line,
 * one row per measurement) and JSON for programs; gnuplot for the eye.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#include "table.h"

struct bar_rec {
	char sub[16], name[120], detail[160];
	double value, spread, target;
	int flags;
};

static struct bar_rec *bars;
static int nbars, json_tables;

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

struct table *
table_new(const char *sub, const char *name, const char *title)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		die("out of memory");
	snprintf(t->sub, sizeof(t->sub), "%s", sub);
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->title, sizeof(t->title), "%s", title);
	t->cur = MAX_COLS;
	return t;
}

static void
add_col(struct table *t, const char *name, const char *unit, int prec, int key)
{
	struct col *c;

	if (t->ncols >= MAX_COLS)
		die("table %s: too many columns", t->name);
	c = &t->cols[t->ncols++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	c->prec = prec;
	c->key = key;
}

void
table_key(struct table *t, const char *name)
{
	add_col(t, name, "", 0, 1);
}

void
table_col(struct table *t, const char *name, const char *unit, int prec)
{
	add_col(t, name, unit, prec, 0);
}

void
table_row(struct table *t)
{
	if (t->rows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = xrealloc(t->cells, (size_t)t->cap * MAX_COLS *
						  sizeof(*t->cells));
	}
	memset(&t->cells[(size_t)t->rows * MAX_COLS], 0,
	       MAX_COLS * sizeof(*t->cells));
	t->rows++;
	t->cur = 0;
}

static struct cell *
next_cell(struct table *t)
{
	if (!t->rows || t->cur >= t->ncols)
		die("table %s: more cells than columns", t->name);
	return &t->cells[(size_t)(t->rows - 1) * MAX_COLS + t->cur++];
}

void
table_str(struct table *t, const char *fmt, ...)
{
	struct cell *c = next_cell(t);
	va_list ap;

	c->is_str = 1;
	va_start(ap, fmt);
	vsnprintf(c->s, sizeof(c->s), fmt, ap);
	va_end(ap);
}

void
table_num(struct table *t, double v)
{
	struct cell *c = next_cell(t);

	c->v = v;
}

void
table_num_s(struct table *t, double v, double rel_spread)
{
	struct cell *c = next_cell(t);

	c->v = v;
	c->spread = rel_spread;
	c->has_spread = !isnan(rel_spread);
}

void
table_note(struct table *t, const char *fmt, ...)
{
	va_list ap;

	t->notes = xrealloc(t->notes, (size_t)(t->nnotes + 1) * sizeof(char *));
	va_start(ap, fmt);
	t->notes[t->nnotes++] = xvasprintf(fmt, ap);
	va_end(ap);
}

void
table_plot(struct table *t, const char *file, enum plot_kind kind, int x_col,
	   int flags, const char *unit, const char *title)
{
	struct plot_spec *p;

	if (t->nplots >= MAX_PLOTS)
		die("table %s: too many charts", t->name);
	p = &t->plots[t->nplots++];
	snprintf(p->file, sizeof(p->file), "%s", file);
	snprintf(p->unit, sizeof(p->unit), "%s", unit);
	snprintf(p->title, sizeof(p->title), "%s", title);
	p->x = x_col;
	p->kind = kind;
	p->flags = flags;
}

void
table_role(struct table *t, enum plot_role role)
{
	if (t->ncols)
		t->cols[t->ncols - 1].role = role;
}

#define cell_at table_cell

static void
fmt_cell(const struct table *t, int col, const struct cell *c, char *buf,
	 size_t n)
{
	const struct col *k = &t->cols[col];

	if (c->is_str)
		snprintf(buf, n, "%s", c->s);
	else if (isnan(c->v))
		snprintf(buf, n, "n/a");
	else if (!strcmp(k->unit, "x"))
		snprintf(buf, n, "%.*fx", k->prec, c->v);
	else
		snprintf(buf, n, "%.*f", k->prec, c->v);
}

static void
fmt_header(const struct col *k, char *buf, size_t n)
{
	if (k->unit[0] && strcmp(k->unit, "x"))
		snprintf(buf, n, "%s %s", k->name, k->unit);
	else
		snprintf(buf, n, "%s", k->name);
}

static void
print_text(const struct table *t)
{
	int w[MAX_COLS], r, c, i;
	char buf[96];

	printf("\n== %s: %s\n", t->sub, t->title);
	for (c = 0; c < t->ncols; c++) {
		fmt_header(&t->cols[c], buf, sizeof(buf));
		w[c] = (int)strlen(buf);
		for (r = 0; r < t->rows; r++) {
			char cb[64];

			fmt_cell(t, c, cell_at(t, r, c), cb, sizeof(cb));
			if ((int)strlen(cb) > w[c])
				w[c] = (int)strlen(cb);
		}
	}
	for (c = 0; c < t->ncols; c++) {
		fmt_header(&t->cols[c], buf, sizeof(buf));
		printf(c ? "  %*s" : "%-*s", w[c], buf);
	}
	putchar('\n');
	for (r = 0; r < t->rows; r++) {
		for (c = 0; c < t->ncols; c++) {
			fmt_cell(t, c, cell_at(t, r, c), buf, sizeof(buf));
			if (t->cols[c].key)
				printf(c ? "  %-*s" : "%-*s", w[c], buf);
			else
				printf("  %*s", w[c], buf);
		}
		putchar('\n');
	}
	for (i = 0; i < t->nnotes; i++)
		printf("  %s\n", t->notes[i]);
}

static void
csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

void
table_row_key(const struct table *t, int r, char *buf, size_t n)
{
	int c;

	buf[0] = 0;
	for (c = 0; c < t->ncols; c++) {
		size_t len = strlen(buf);

		if (!t->cols[c].key)
			continue;
		snprintf(buf + len, n - len, "%s%s", len ? "/" : "",
			 cell_at(t, r, c)->s);
	}
}

static void
print_csv(const struct table *t)
{
	char key[128], v[64];
	int r, c;

	for (r = 0; r < t->rows; r++) {
		table_row_key(t, r, key, sizeof(key));
		for (c = 0; c < t->ncols; c++) {
			const struct cell *x = cell_at(t, r, c);

			if (t->cols[c].key || (!x->is_str && isnan(x->v)))
				continue;
			if (x->is_str)
				snprintf(v, sizeof(v), "%s", x->s);
			else
				snprintf(v, sizeof(v), "%.6g", x->v);
			csv_field(t->sub);
			putchar(',');
			csv_field(t->name);
			putchar(',');
			csv_field(key);
			putchar(',');
			csv_field(t->cols[c].name);
			putchar(',');
			csv_field(v);
			putchar(',');
			csv_field(t->cols[c].unit);
			putchar('\n');
		}
	}
}

static void
json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void
json_num(double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", stdout);
	else
		printf("%.6g", v);
}

/* Every row as an array: its cells, or (spreads) their trial spreads */
static void
json_rows(const struct table *t, int spreads)
{
	int r, c;

	for (r = 0; r < t->rows; r++) {
		printf("%s\n       [", r ? "," : "");
		for (c = 0; c < t->ncols; c++) {
			const struct cell *x = cell_at(t, r, c);

			if (c)
				printf(", ");
			if (spreads)
				json_num(x->has_spread ? x->spread : NAN);
			else if (x->is_str)
				json_str(x->s);
			else
				json_num(x->v);
		}
		putchar(']');
	}
}

static void
print_json(const struct table *t)
{
	int c, i;

	printf("%s\n    {\"subcommand\": ", json_tables++ ? "," : "");
	json_str(t->sub);
	printf(", \"table\": ");
	json_str(t->name);
	printf(", \"title\": ");
	json_str(t->title);
	printf(",\n     \"columns\": [");
	for (c = 0; c < t->ncols; c++) {
		printf("%s{\"name\": ", c ? ", " : "");
		json_str(t->cols[c].name);
		printf(", \"unit\": ");
		json_str(t->cols[c].unit);
		if (t->cols[c].key)
			printf(", \"key\": true");
		putchar('}');
	}
	printf("],\n     \"rows\": [");
	json_rows(t, 0);
	/* The trial spread of each figure (spread()), null where none */
	printf("],\n     \"spreads\": [");
	json_rows(t, 1);
	printf("],\n     \"notes\": [");
	for (i = 0; i < t->nnotes; i++) {
		if (i)
			printf(", ");
		json_str(t->notes[i]);
	}
	printf("]}");
}

/* ------------------------------------------------------------------ */
/* Charts */

static int gnuplot_state; /* 0 unknown, 1 found, -1 missing */
static const char *gnuplot_term = "svg", *gnuplot_ext = "svg";
static int plot_said;

static int
have_gnuplot(void)
{
	if (gnuplot_state)
		return gnuplot_state > 0;
	gnuplot_state = -1;
	if (system("command -v gnuplot >/dev/null 2>&1") != 0)
		return 0;
	gnuplot_state = 1;
	if (system("gnuplot -e 'set terminal pngcairo' </dev/null "
		   ">/dev/null 2>&1") == 0) {
		gnuplot_term = "pngcairo size 1200,700 noenhanced font "
			       "'Sans,10'";
		gnuplot_ext = "png";
	} else if (system("gnuplot -e 'set terminal png' </dev/null "
			  ">/dev/null 2>&1") == 0) {
		gnuplot_term = "png size 1100,650 noenhanced";
		gnuplot_ext = "png";
	} else {
		gnuplot_term = "svg size 1100,650 noenhanced";
	}
	return 1;
}

static void
gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static double
x_value(const struct cell *c)
{
	size_t v;

	if (!c->is_str)
		return c->v;
	if (!parse_size(c->s, &v))
		return (double)v;
	return strtod(c->s, NULL);
}

/*
 * How a column is drawn.  The library's own results and the baselines
 * bold, in colours far apart (blues for the library, red, orange and black
 * for glibc and the kernel); the forced strategies thin and pale, under
 * them.
 */
static void
line_style(FILE *f, enum plot_role role, int nth, int bars)
{
	static const char *const lib[] = {"#1f4fd8", "#7a1fa2", "#0097a7"};
	static const char *const base[] = {"#d7301f", "#f28e00", "#303030",
					   "#8c510a"};
	static const char *const muted[] = {"#9ecae1", "#c7c7c7", "#bcbddc",
					    "#a1d99b", "#fdd0a2", "#d9d9d9",
					    "#fcbba1", "#c6dbef"};
	static const char *const plain[] = {"#1b9e77", "#d95f02", "#7570b3",
					    "#e7298a", "#66a61e", "#e6ab02"};

	switch (role) {
	case ROLE_LIB:
		fprintf(f, " lc rgb '%s'%s", lib[nth % 3],
			bars ? "" : " lw 3.5 pt 7 ps 0.8");
		break;
	case ROLE_BASE:
		fprintf(f, " lc rgb '%s'%s%s", base[nth % 4],
			bars ? "" : " lw 3 pt 5 ps 0.7",
			bars || nth % 2 == 0 ? "" : " dt 2");
		break;
	case ROLE_MUTED:
		fprintf(f, " lc rgb '%s'%s", muted[nth % 8],
			bars ? "" : " lw 1.2 pt 1 ps 0.5");
		break;
	default:
		fprintf(f, " lc rgb '%s'%s", plain[nth % 6],
			bars ? "" : " lw 2 pt 7 ps 0.6");
		break;
	}
}

static FILE *
plot_open(const char *file, const char *ext, char *path, size_t n)
{
	FILE *f;

	snprintf(path, n, "%s/%s.%s", opt.plot_dir, file, ext);
	f = fopen(path, "w");
	if (!f)
		die("--plot: cannot write %s: %s", path, strerror(errno));
	return f;
}

static void
plot_header(FILE *f, const char *sub, const char *file, const char *title,
	    char *out, size_t n)
{
	have_gnuplot();
	snprintf(out, n, "%s/%s.%s", opt.plot_dir, file, gnuplot_ext);
	fprintf(f, "# SPDX-License-Identifier: MIT\n# uaccess-bench %s\n", sub);
	fprintf(f, "set terminal %s\nset output ", gnuplot_term);
	gp_quote(f, out);
	fprintf(f, "\nset title ");
	gp_quote(f, title);
	fprintf(f, " font ',13'\n");
}

static void
plot_run(const char *gp, const char *out)
{
	char cmd[4200];

	if (!have_gnuplot()) {
		if (!plot_said++)
			say("--plot: gnuplot is not installed (e.g. apt-get "
			    "install gnuplot-nox): wrote the data and scripts "
			    "to %s; run gnuplot on the .gp files",
			    opt.plot_dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>&1", gp);
	if (strchr(gp, '\'') || system(cmd) != 0)
		say("--plot: gnuplot failed on %s", gp);
	else
		say("--plot: wrote %s", out);
}

/* Size tics at powers of 4 between lo and hi, labelled 1, 4, 16, 64, 256,
 * 1K, ... */
static void
size_tics(FILE *f, double lo, double hi)
{
	double v;
	char a[24];
	int n = 0;

	fprintf(f, "set xtics (");
	for (v = 1; v <= hi * 1.01; v *= 4)
		if (v >= lo / 1.01)
			fprintf(f, "%s'%s' %.0f", n++ ? ", " : "",
				fmt_size((size_t)v, a), v);
	fprintf(f, ")\n");
}

/* The cache sizes as dotted lines across a chart whose x is bytes, those
 * within the data's range */
static void
cache_marks(FILE *f, double lo, double hi)
{
	const struct {
		const char *name;
		size_t size;
	} c[] = {
	    {"L1d", machine.l1d}, {"L2", machine.l2}, {"LLC", machine.llc}};
	char a[24];
	int i;

	for (i = 0; i < 3; i++) {
		if (!c[i].size || (double)c[i].size < lo ||
		    (double)c[i].size > hi)
			continue;
		fprintf(f,
			"set arrow from %zu, graph 0 to %zu, graph 1 nohead "
			"dt 3 lw 1.5 lc rgb '#606060' back\n",
			c[i].size, c[i].size);
		fprintf(f,
			"set label '%s %s' at %zu, graph 0.97 right offset "
			"-0.5,0 tc rgb '#404040'\n",
			c[i].name, fmt_size(c[i].size, a), c[i].size);
	}
}

static void
write_plot(const struct table *t, const struct plot_spec *ps)
{
	static const enum plot_role order[] = {ROLE_MUTED, ROLE_PLAIN,
					       ROLE_BASE, ROLE_LIB};
	char dat[4096], gp[4096], out[4096];
	int ys[MAX_COLS], ny = 0, r, c, i, k, nth[4] = {0};
	int bars = ps->kind == PLOT_BARS;
	double xlo = INFINITY, xhi = 0;
	FILE *f;

	for (c = 0; c < t->ncols; c++)
		if (c != ps->x && !strcmp(t->cols[c].unit, ps->unit) &&
		    t->cols[c].role != ROLE_HIDDEN)
			ys[ny++] = c;
	if (!ny || !t->rows)
		return;
	f = plot_open(ps->file, "dat", dat, sizeof(dat));
	fprintf(f, "# %s: %s\n# x", t->sub, t->title);
	for (i = 0; i < ny; i++)
		fprintf(f, "\t%s", t->cols[ys[i]].name);
	fputc('\n', f);
	for (r = 0; r < t->rows; r++) {
		const struct cell *x = cell_at(t, r, ps->x);

		if (bars) {
			char key[256];

			table_row_key(t, r, key, sizeof(key));
			fputc('"', f);
			for (const char *q = key; *q; q++)
				fputc(*q == '"' ? '\'' : *q, f);
			fputc('"', f);
		} else {
			double xv = x_value(x);

			fprintf(f, "%.10g", xv);
			xlo = fmin(xlo, xv);
			xhi = fmax(xhi, xv);
		}
		for (i = 0; i < ny; i++) {
			const struct cell *y = cell_at(t, r, ys[i]);

			if (y->is_str || isnan(y->v))
				fputs("\t?", f);
			else
				fprintf(f, "\t%.6g", y->v);
		}
		fputc('\n', f);
	}
	fclose(f);

	f = plot_open(ps->file, "gp", gp, sizeof(gp));
	plot_header(f, t->sub, ps->file, ps->title, out, sizeof(out));
	fprintf(f, "set xlabel ");
	gp_quote(f, bars ? "" : t->cols[ps->x].name);
	fprintf(f, "\nset ylabel ");
	gp_quote(f, !strcmp(ps->unit, "x") ? "ratio (x)" : ps->unit);
	fprintf(f, "\nset datafile missing '?'\nset grid ytics lc rgb "
		   "'#e0e0e0'\nset key outside right top spacing 1.2\n"
		   "set border 3\nset xtics nomirror\nset ytics nomirror\n");
	if (ps->flags & PLOT_LOGY)
		fprintf(f, "set logscale y\nset yrange [1:*]\n");
	else if (bars || !(ps->flags & PLOT_UNITY))
		fprintf(f, "set yrange [0:*]\n");
	if (ps->flags & PLOT_UNITY)
		fprintf(f, "set arrow from graph 0, first 1 to graph 1, first "
			   "1 nohead lw 2 lc rgb '#000000' front\n");
	if (bars) {
		fprintf(f, "set style data histograms\nset style histogram "
			   "clustered gap 1\nset style fill solid 0.85 border "
			   "rgb '#606060'\nset boxwidth 0.9\nset xtics "
			   "rotate by -20 left\nset bmargin 6\n");
	} else if (ps->flags & PLOT_LOGX) {
		fprintf(f, "set logscale x 2\n");
		size_tics(f, xlo, xhi);
	} else if (ps->flags & PLOT_HEX) {
		fprintf(f, "set xtics 4\nset format x '0x%%x'\n");
	}
	if (ps->flags & PLOT_CACHES)
		cache_marks(f, xlo, xhi);
	fprintf(f, "plot ");
	/* Muted first, the library last: it is drawn on top */
	for (k = 0, i = 0; k < 4; k++)
		for (c = 0; c < ny; c++) {
			enum plot_role role = t->cols[ys[c]].role;

			if (role != order[k])
				continue;
			fprintf(f, "%s", i++ ? ", \\\n     " : "");
			gp_quote(f, dat);
			if (bars)
				fprintf(f, " using %d:xtic(1) title ", c + 2);
			else
				fprintf(f,
					" using 1:%d with linespoints title ",
					c + 2);
			gp_quote(f, t->cols[ys[c]].name);
			line_style(f, role, nth[role]++, bars);
		}
	fputc('\n', f);
	fclose(f);
	plot_run(gp, out);
}

void
plot_heatmaps(const char *sub, const char *file, const char *title, int n,
	      const char *const *names, const double *const *grids, int side,
	      const char *xlabel, const char *ylabel, const char *cblabel)
{
	char dat[4096], gp[4096], out[4096];
	int i, x, y;
	FILE *f;

	if (!opt.plot_dir || n <= 0)
		return;
	f = plot_open(file, "dat", dat, sizeof(dat));
	for (i = 0; i < n; i++) {
		fprintf(f, "# %s: %s%s\n", sub, names[i], i + 1 < n ? "" : "");
		for (y = 0; y < side; y++) {
			for (x = 0; x < side; x++)
				fprintf(f, "%s%.4g", x ? " " : "",
					grids[i][y * side + x]);
			fputc('\n', f);
		}
		fprintf(f, "\n\n");
	}
	fclose(f);
	f = plot_open(file, "gp", gp, sizeof(gp));
	plot_header(f, sub, file, title, out, sizeof(out));
	if (strstr(gnuplot_term, "size 1200,700")) {
		/* wide and low: the maps side by side */
		char term[128];
		size_t k =
		    (size_t)(strstr(gnuplot_term, "1200,700") - gnuplot_term);

		snprintf(term, sizeof(term), "%.*s%d,560%s", (int)k,
			 gnuplot_term, 120 + 460 * n, gnuplot_term + k + 8);
		fprintf(f, "set terminal %s\n", term);
	}
	fprintf(f, "set multiplot layout 1,%d title ", n);
	gp_quote(f, title);
	fprintf(f,
		" font ',13'\nunset title\nset size ratio -1\n"
		"set xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5]\n"
		"set xtics 8\nset ytics 8\nset cbrange [0:1.05]\n"
		"set palette defined (0 '#67001f', 0.5 '#f4a582', "
		"0.8 '#f7f7f7', 1 '#4393c3', 1.05 '#053061')\n",
		side - 1, side - 1);
	fprintf(f, "set xlabel ");
	gp_quote(f, xlabel);
	fprintf(f, "\nset ylabel ");
	gp_quote(f, ylabel);
	fprintf(f, "\nset cblabel ");
	gp_quote(f, cblabel);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "set title ");
		gp_quote(f, names[i]);
		fprintf(f, "\nplot ");
		gp_quote(f, dat);
		fprintf(f, " index %d matrix with image notitle\n", i);
	}
	fprintf(f, "unset multiplot\n");
	fclose(f);
	plot_run(gp, out);
}

/* ------------------------------------------------------------------ */

void
table_end(struct table *t)
{
	int i;

	progress_done();
	switch (opt.format) {
	case FMT_TEXT:
		print_text(t);
		break;
	case FMT_CSV:
		print_csv(t);
		break;
	case FMT_JSON:
		print_json(t);
		break;
	}
	fflush(stdout);
	if (opt.plot_dir)
		for (i = 0; i < t->nplots; i++)
			write_plot(t, &t->plots[i]);
	if (opt.compare && strcmp(t->sub, "compare"))
		compare_keep(t);
	else
		table_free(t);
}

void
table_free(struct table *t)
{
	int i;

	for (i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	free(t->cells);
	free(t);
}

void
say(const char *fmt, ...)
{
	va_list ap;
	FILE *f = opt.format == FMT_TEXT ? stdout : stderr;

	progress_done();
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}

void
unavailable(const char *sub, const char *what, const char *why)
{
	struct table *t = table_new(sub, "unavailable", what);

	table_key(t, "measurement");
	table_col(t, "status", "", 0);
	table_row(t);
	table_str(t, "%s", what);
	table_str(t, "unavailable");
	table_note(t, "unavailable: %s", why);
	table_end(t);
}

void
bar(const char *sub, const char *name, double value, double spread,
    double target, int flags, const char *detail)
{
	struct bar_rec *b;

	bars = xrealloc(bars, (size_t)(nbars + 1) * sizeof(*bars));
	b = &bars[nbars++];
	snprintf(b->sub, sizeof(b->sub), "%s", sub);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->detail, sizeof(b->detail), "%s", detail ? detail : "");
	b->value = value;
	b->spread = spread;
	b->target = target;
	b->flags = flags;
}

static const char *
bar_result(const struct bar_rec *b)
{
	return verdict(b->value, b->spread, b->target, b->flags & BAR_LOWER);
}

void
bars_print(const char *sub)
{
	struct table *t;
	char title[64];
	int i, any = 0;

	if (opt.format == FMT_JSON) /* they are in the "bars" array */
		return;
	for (i = 0; i < nbars; i++)
		any |= !sub || !strcmp(bars[i].sub, sub);
	if (!any)
		return;
	snprintf(title, sizeof(title), "%s",
		 sub ? "speed bars (ratios, this run)"
		     : "every speed bar of this run");
	t = table_new(sub ? sub : "summary", "bars", title);
	if (!sub)
		table_key(t, "from");
	table_key(t, "bar");
	table_col(t, "measured", "", 0);
	table_col(t, "spread", "", 0);
	table_col(t, "target", "", 0);
	table_col(t, "result", "", 0);
	table_col(t, "detail", "", 0);
	for (i = 0; i < nbars; i++) {
		const struct bar_rec *b = &bars[i];

		if (sub && strcmp(b->sub, sub))
			continue;
		table_row(t);
		if (!sub)
			table_str(t, "%s", b->sub);
		table_str(t, "%s", b->name);
		if (isnan(b->value))
			table_str(t, "n/a");
		else /* a third decimal when two would hide the verdict */
			table_str(t, "%.*f%s",
				  fabs(b->value - b->target) < 0.005 ? 3 : 2,
				  b->value, b->flags & BAR_COUNT ? "" : "x");
		if (isnan(b->spread) || isnan(b->value))
			table_str(t, "%s", "");
		else /* the middle half of the trials, value -+ this */
			table_str(t, "+-%.1f%%", b->spread / 2 * 100);
		table_str(t, "%s %.2f%s",
			  b->flags & BAR_LOWER ? "<=" : ">=", b->target,
			  b->flags & BAR_COUNT ? "" : "x");
		table_str(t, "%s", bar_result(b));
		table_str(t, "%s", b->detail);
	}
	table_end(t);
}

/* What makes two runs comparable: the machine, the build, the policy */
static void
json_run_info(void)
{
	static const size_t sizes[] = {16,      256,      4096,     65536,
				       1 << 20, 16 << 20, 256 << 20};
	const struct ua_cpu *cpu = ua_cpu();
	struct policy_item it;
	const char *env;
	unsigned bit;
	int i, c, n = 0;
	char a[24];

	printf(",\n  \"machine\": {\"cpu\": ");
	json_str(machine.cpu_model);
	printf(", \"vendor\": ");
	json_str(cpu->vendor);
	printf(", \"family\": %u, \"model\": %u, \"stepping\": %u, "
	       "\"features\": [",
	       cpu->family, cpu->model, cpu->stepping);
	for (bit = 0; bit < 64; bit++)
		if (ua_arch_feature_name(bit) && (cpu->features >> bit & 1)) {
			printf("%s", n++ ? ", " : "");
			json_str(ua_arch_feature_name(bit));
		}
	printf("],\n    \"l1d\": %zu, \"l2\": %zu, \"llc\": %zu, "
	       "\"llc_reported\": %zu},\n",
	       machine.l1d, machine.l2, machine.llc, machine.llc_reported);
	printf("  \"commit\": ");
	json_str(UA_BENCH_COMMIT);
	printf(",\n  \"policy\": {\"profile\": ");
	json_str(ua_profile_in_use() ? ua_profile_in_use() : "");
	printf(", \"UACCESS_TUNABLES\": ");
	env = getenv("UACCESS_TUNABLES");
	json_str(env ? env : "");
	printf(", \"UACCESS_DISABLE\": ");
	env = getenv("UACCESS_DISABLE");
	json_str(env ? env : "");
	printf(",\n    \"tunables\": [");
	for (c = n = 0; policy_next(&c, &it);) {
		printf("%s{\"name\": ", n++ ? ", " : "");
		json_str(it.name);
		printf(", \"value\": ");
		json_str(it.value);
		printf(", \"from\": ");
		json_str(it.from);
		putchar('}');
	}
	printf("],\n    \"ua_copy_strategy\": {");
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		printf("%s", i ? ", " : "");
		json_str(fmt_size(sizes[i], a));
		printf(": ");
		json_str(ua_copy_strategy(sizes[i]));
	}
	printf("}}");
}

void
report_begin(void)
{
	if (opt.format == FMT_CSV)
		printf("subcommand,table,row,column,value,unit\n");
	else if (opt.format == FMT_JSON) {
		printf("{\"tool\": \"uaccess-bench\", \"version\": ");
		json_str(UA_VERSION);
		printf(", \"cpu\": ");
		json_str(machine.cpu_model);
		printf(", \"glibc\": ");
		json_str(machine.glibc);
		printf(", \"pinned_cpu\": %d, \"quick\": %s", machine.cpu,
		       opt.quick ? "true" : "false");
		json_run_info();
		printf(",\n  \"tables\": [");
	}
}

void
report_finish(void)
{
	int i;

	if (opt.format != FMT_JSON)
		return;
	printf("],\n  \"bars\": [");
	for (i = 0; i < nbars; i++) {
		printf("%s\n    {\"subcommand\": ", i ? "," : "");
		json_str(bars[i].sub);
		printf(", \"bar\": ");
		json_str(bars[i].name);
		printf(", \"measured\": ");
		json_num(bars[i].value);
		printf(", \"spread\": ");
		json_num(bars[i].spread);
		printf(", \"target\": ");
		json_num(bars[i].target);
		printf(", \"lower_is_better\": %s, \"result\": ",
		       bars[i].flags & BAR_LOWER ? "true" : "false");
		json_str(bar_result(&bars[i]));
		printf(", \"detail\": ");
		json_str(bars[i].detail);
		putchar('}');
	}
	printf("]\n}\n");
	fflush(stdout);
}
