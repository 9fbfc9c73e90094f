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
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"

#define MAX_COLS 24

struct cell {
	int is_str;
	int has_spread;
	double v, spread;
	char s[48];
};

struct col {
	char name[40];
	char unit[12];
	int prec;
	int key;
};

struct table {
	char sub[16], name[48], title[200];
	struct col cols[MAX_COLS];
	int ncols;
	struct cell *cells; /* rows * MAX_COLS */
	int rows, cap, cur;
	char **notes;
	int nnotes;
	char plot_file[48], plot_unit[12], plot_title[160];
	int plot_x, plot_logx, plot;
};

struct bar_rec {
	char sub[16], name[120], detail[160];
	double value, target;
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
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	t->notes = xrealloc(t->notes, (size_t)(t->nnotes + 1) * sizeof(char *));
	t->notes[t->nnotes++] = s;
}

void
table_plot(struct table *t, const char *file, int x_col, int logx,
	   const char *unit, const char *title)
{
	snprintf(t->plot_file, sizeof(t->plot_file), "%s", file);
	snprintf(t->plot_unit, sizeof(t->plot_unit), "%s", unit);
	snprintf(t->plot_title, sizeof(t->plot_title), "%s", title);
	t->plot_x = x_col;
	t->plot_logx = logx;
	t->plot = 1;
}

static const struct cell *
cell_at(const struct table *t, int row, int col)
{
	return &t->cells[(size_t)row * MAX_COLS + col];
}

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

static void
row_key(const struct table *t, int r, char *buf, size_t n)
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
		row_key(t, r, key, sizeof(key));
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

static void
print_json(const struct table *t)
{
	int r, c, i;

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
		putchar('}');
	}
	printf("],\n     \"rows\": [");
	for (r = 0; r < t->rows; r++) {
		printf("%s\n       [", r ? "," : "");
		for (c = 0; c < t->ncols; c++) {
			const struct cell *x = cell_at(t, r, c);

			if (c)
				printf(", ");
			if (x->is_str)
				json_str(x->s);
			else
				json_num(x->v);
		}
		putchar(']');
	}
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
		gnuplot_term = "pngcairo size 1100,650 noenhanced";
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

static void
write_plot(const struct table *t)
{
	char dat[4096], gp[4096], out[4096], cmd[8400];
	int ys[MAX_COLS], ny = 0, r, c, i;
	FILE *f;

	for (c = 0; c < t->ncols; c++)
		if (c != t->plot_x && !strcmp(t->cols[c].unit, t->plot_unit))
			ys[ny++] = c;
	if (!ny || !t->rows)
		return;
	if (mkdir(opt.plot_dir, 0777) && errno != EEXIST)
		die("--plot: cannot create %s: %s", opt.plot_dir,
		    strerror(errno));
	snprintf(dat, sizeof(dat), "%s/%s.dat", opt.plot_dir, t->plot_file);
	snprintf(gp, sizeof(gp), "%s/%s.gp", opt.plot_dir, t->plot_file);
	have_gnuplot();
	snprintf(out, sizeof(out), "%s/%s.%s", opt.plot_dir, t->plot_file,
		 gnuplot_ext);
	f = fopen(dat, "w");
	if (!f)
		die("--plot: cannot write %s: %s", dat, strerror(errno));
	fprintf(f, "# %s: %s\n# x", t->sub, t->title);
	for (i = 0; i < ny; i++)
		fprintf(f, "\t%s", t->cols[ys[i]].name);
	fputc('\n', f);
	for (r = 0; r < t->rows; r++) {
		fprintf(f, "%.10g", x_value(cell_at(t, r, t->plot_x)));
		for (i = 0; i < ny; i++) {
			const struct cell *x = cell_at(t, r, ys[i]);

			if (x->is_str || isnan(x->v))
				fputs("\t?", f);
			else
				fprintf(f, "\t%.6g", x->v);
		}
		fputc('\n', f);
	}
	fclose(f);

	f = fopen(gp, "w");
	if (!f)
		die("--plot: cannot write %s: %s", gp, strerror(errno));
	fprintf(f, "# SPDX-License-Identifier: MIT\n# uaccess-bench %s\n",
		t->sub);
	fprintf(f, "set terminal %s\nset output ", gnuplot_term);
	gp_quote(f, out);
	fprintf(f, "\nset title ");
	gp_quote(f, t->plot_title);
	fprintf(f, "\nset xlabel ");
	gp_quote(f, t->cols[t->plot_x].name);
	fprintf(f, "\nset ylabel ");
	gp_quote(f, t->plot_unit);
	fprintf(f, "\nset datafile missing '?'\nset grid\nset key outside "
		   "right top\nset yrange [0:*]\n");
	if (t->plot_logx)
		fprintf(f, "set logscale x 2\nset format x '%%.0b%%B'\n");
	else
		fprintf(f, "set xtics 4\nset format x '0x%%x'\n");
	fprintf(f, "plot ");
	for (i = 0; i < ny; i++) {
		fprintf(f, "%s", i ? ", \\\n     " : "");
		gp_quote(f, dat);
		fprintf(f, " using 1:%d with linespoints title ", i + 2);
		gp_quote(f, t->cols[ys[i]].name);
	}
	fputc('\n', f);
	fclose(f);

	if (!have_gnuplot()) {
		if (!plot_said++)
			say("--plot: gnuplot is not installed (e.g. apt-get "
			    "install gnuplot-nox): wrote the data and scripts "
			    "to %s; run gnuplot on the .gp files",
			    opt.plot_dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "gnuplot '%s'", gp);
	if (strchr(gp, '\'') || system(cmd) != 0)
		say("--plot: gnuplot failed on %s", gp);
	else
		say("--plot: wrote %s", out);
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
	if (opt.plot_dir && t->plot)
		write_plot(t);
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
bar(const char *sub, const char *name, double value, double target, int flags,
    const char *detail)
{
	struct bar_rec *b;

	bars = xrealloc(bars, (size_t)(nbars + 1) * sizeof(*bars));
	b = &bars[nbars++];
	snprintf(b->sub, sizeof(b->sub), "%s", sub);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->detail, sizeof(b->detail), "%s", detail ? detail : "");
	b->value = value;
	b->target = target;
	b->flags = flags;
}

static const char *
bar_result(const struct bar_rec *b)
{
	if (isnan(b->value))
		return "N/A";
	if (b->flags & BAR_LOWER ? b->value <= b->target
				 : b->value >= b->target)
		return "PASS";
	return "MISS";
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
		table_str(t, "%s %.2f%s",
			  b->flags & BAR_LOWER ? "<=" : ">=", b->target,
			  b->flags & BAR_COUNT ? "" : "x");
		table_str(t, "%s", bar_result(b));
		table_str(t, "%s", b->detail);
	}
	table_end(t);
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
		printf(", \"pinned_cpu\": %d, \"quick\": %s,\n  \"tables\": [",
		       machine.cpu, opt.quick ? "true" : "false");
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
