/* SPDX-License-Identifier: MIT */
/*
 * --compare BASE.json: this run (or --with NEW.json) beside a saved one,
 * from another commit or machine.  For every figure the two share, the
 * new/old ratio, marked when the change is larger than the trial spreads
 * (the runs' middle halves do not meet), as benchstat does.  First what
 * makes the runs comparable: CPU, glibc, commit, the policy in force.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "json.h"
#include "table.h"

struct run {
	const char *label; /* file name, or "this run" */
	struct jval doc;   /* a saved run; t == J_NULL for this run */
	struct table *tables, **tail;
};

static struct run base = {.tail = &base.tables};
static struct run now = {.label = "this run", .tail = &now.tables};

/* ------------------------------------------------------------------ */
/* Reading a saved run */

static void __attribute__((noreturn, format(printf, 2, 3)))
bad_file(const char *path, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	usage_error("--compare: %s: %s", path, why);
}

static char *
read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 1 << 16;
	char *buf;

	if (!f)
		bad_file(path, "%s", strerror(errno));
	buf = malloc(cap);
	while (buf) {
		size_t k = fread(buf + len, 1, cap - len - 1, f);

		len += k;
		if (k == 0)
			break;
		if (len + 1 == cap) {
			char *b = realloc(buf, cap *= 2);

			if (!b)
				free(buf);
			buf = b;
		}
	}
	if (!buf)
		die("out of memory");
	if (ferror(f))
		bad_file(path, "%s", strerror(errno));
	fclose(f);
	buf[len] = 0;
	return buf;
}

/* A table of the document, as this run would have made it */
static struct table *
table_from_json(const char *path, const struct jval *jt)
{
	const struct jval *cols = json_get(jt, "columns"),
			  *rows = json_get(jt, "rows"),
			  *spreads = json_get(jt, "spreads");
	int c, r, any_key = 0, first_num;
	struct table *t;

	if (!cols || cols->t != J_ARR || !rows || rows->t != J_ARR ||
	    cols->n > MAX_COLS)
		bad_file(path, "a table without columns and rows");
	t = table_new(json_string(json_get(jt, "subcommand"), "?"),
		      json_string(json_get(jt, "table"), "?"),
		      json_string(json_get(jt, "title"), ""));
	for (c = 0; c < cols->n; c++)
		any_key |= json_get(&cols->items[c], "key") != NULL;
	/* Runs saved before "key" was written: the leading string columns
	 * without a unit are the keys */
	first_num = cols->n;
	if (!any_key && rows->n && rows->items[0].t == J_ARR)
		for (c = 0; c < cols->n && c < rows->items[0].n; c++)
			if (rows->items[0].items[c].t != J_STR ||
			    *json_string(json_get(&cols->items[c], "unit"),
					 "")) {
				first_num = c;
				break;
			}
	for (c = 0; c < cols->n; c++) {
		const char *name =
		    json_string(json_get(&cols->items[c], "name"), "?");

		if (any_key ? json_get(&cols->items[c], "key") != NULL
			    : c < first_num)
			table_key(t, name);
		else
			table_col(
			    t, name,
			    json_string(json_get(&cols->items[c], "unit"), ""),
			    2);
	}
	for (r = 0; r < rows->n; r++) {
		const struct jval *row = &rows->items[r], *sp = NULL;

		if (row->t != J_ARR || row->n != cols->n)
			bad_file(path,
				 "table %s: a row of %d cells for %d "
				 "columns",
				 t->name, row->n, cols->n);
		if (spreads && spreads->t == J_ARR && r < spreads->n &&
		    spreads->items[r].t == J_ARR &&
		    spreads->items[r].n == cols->n)
			sp = &spreads->items[r];
		table_row(t);
		for (c = 0; c < cols->n; c++) {
			const struct jval *v = &row->items[c];

			if (v->t == J_STR)
				table_str(t, "%s", v->str);
			else
				table_num_s(t, v->t == J_NUM ? v->num : NAN,
					    sp && sp->items[c].t == J_NUM
						? sp->items[c].num
						: NAN);
		}
	}
	return t;
}

static void
load(struct run *run, const char *path)
{
	const struct jval *tables;
	char *text = read_all(path), err[160];
	int i;

	if (json_parse(text, &run->doc, err, sizeof(err)))
		bad_file(path, "not JSON: %s", err);
	free(text);
	if (strcmp(json_string(json_get(&run->doc, "tool"), ""),
		   "uaccess-bench"))
		bad_file(path, "not a uaccess-bench --json run");
	tables = json_get(&run->doc, "tables");
	if (!tables || tables->t != J_ARR)
		bad_file(path, "no tables");
	for (i = 0; i < tables->n; i++) {
		struct table *t = table_from_json(path, &tables->items[i]);

		*run->tail = t;
		run->tail = &t->next;
	}
	run->label = path;
}

int
compare_load(void)
{
	load(&base, opt.compare);
	if (opt.with)
		load(&now, opt.with);
	return 0;
}

void
compare_keep(struct table *t)
{
	t->next = NULL;
	*now.tail = t;
	now.tail = &t->next;
}

int
compare_base_ran(const char *sub)
{
	const struct table *t;

	for (t = base.tables; t; t = t->next)
		if (!strcmp(t->sub, sub))
			return 1;
	return 0;
}

int
compare_base_quick(void)
{
	const struct jval *q = json_get(&base.doc, "quick");

	return q && q->t == J_BOOL && q->num;
}

/* ------------------------------------------------------------------ */
/* What the runs were made on */

struct facts {
	char cpu[200], features[200], glibc[32], version[32], commit[64];
	char run[16];
	char strategies[16][2][24]; /* size, strategy */
	int nstrategies;
	char tunables[UA_NTUNABLES][2][48]; /* name, value (from) */
	int ntunables;
};

static void
facts_saved(const struct run *run, struct facts *f)
{
	const struct jval *d = &run->doc, *m = json_get(d, "machine"),
			  *p = json_get(d, "policy"), *v;
	size_t len = 0;
	int i;

	memset(f, 0, sizeof(*f));
	snprintf(f->cpu, sizeof(f->cpu), "%s",
		 json_string(json_get(d, "cpu"), "?"));
	if (m) {
		const struct jval *fam = json_get(m, "family"),
				  *mod = json_get(m, "model");

		if (fam && mod && fam->t == J_NUM && mod->t == J_NUM)
			snprintf(f->cpu + strlen(f->cpu),
				 sizeof(f->cpu) - strlen(f->cpu),
				 " (%s family %.0f model %.0f)",
				 json_string(json_get(m, "vendor"), "?"),
				 fam->num, mod->num);
		v = json_get(m, "features");
		for (i = 0; v && v->t == J_ARR && i < v->n &&
			    len < sizeof(f->features);
		     i++)
			len += (size_t)snprintf(f->features + len,
						sizeof(f->features) - len,
						"%s%s", i ? " " : "",
						json_string(&v->items[i], "?"));
	}
	if (!len)
		snprintf(f->features, sizeof(f->features), "(not recorded)");
	snprintf(f->glibc, sizeof(f->glibc), "%s",
		 json_string(json_get(d, "glibc"), "?"));
	snprintf(f->version, sizeof(f->version), "%s",
		 json_string(json_get(d, "version"), "?"));
	snprintf(f->commit, sizeof(f->commit), "%s",
		 json_string(json_get(d, "commit"), "(not recorded)"));
	v = json_get(d, "quick");
	snprintf(f->run, sizeof(f->run), "%s",
		 v && v->t == J_BOOL && v->num ? "quick" : "full");
	v = json_get(p, "ua_copy_strategy");
	for (i = 0; v && v->t == J_OBJ && i < v->n && i < 16; i++) {
		snprintf(f->strategies[i][0], 24, "%s", v->keys[i]);
		snprintf(f->strategies[i][1], 24, "%s",
			 json_string(&v->items[i], "?"));
	}
	f->nstrategies = i;
	v = json_get(p, "tunables");
	for (i = 0; v && v->t == J_ARR && i < v->n && i < UA_NTUNABLES; i++) {
		snprintf(f->tunables[i][0], 48, "%s",
			 json_string(json_get(&v->items[i], "name"), "?"));
		snprintf(f->tunables[i][1], 48, "%s (%s)",
			 json_string(json_get(&v->items[i], "value"), "?"),
			 json_string(json_get(&v->items[i], "from"), "?"));
	}
	f->ntunables = i;
}

static void
facts_live(struct facts *f)
{
	static const size_t sizes[] = {16,      256,      4096,     65536,
				       1 << 20, 16 << 20, 256 << 20};
	const struct ua_cpu *cpu = ua_cpu();
	struct policy_item it;
	size_t i;
	char a[24];
	int k;

	memset(f, 0, sizeof(*f));
	snprintf(f->cpu, sizeof(f->cpu), "%s (%s family %u model %u)",
		 machine.cpu_model, cpu->vendor, cpu->family, cpu->model);
	ua_cpu_features(f->features, sizeof(f->features), cpu);
	snprintf(f->glibc, sizeof(f->glibc), "%s", machine.glibc);
	snprintf(f->version, sizeof(f->version), "%s", UA_VERSION);
	snprintf(f->commit, sizeof(f->commit), "%s", UA_BENCH_COMMIT);
	snprintf(f->run, sizeof(f->run), "%s", opt.quick ? "quick" : "full");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(f->strategies[i][0], 24, "%s", fmt_size(sizes[i], a));
		snprintf(f->strategies[i][1], 24, "%s",
			 ua_copy_strategy(sizes[i]));
	}
	f->nstrategies = (int)i;
	for (k = 0; policy_next(&k, &it);) {
		snprintf(f->tunables[f->ntunables][0], 48, "%s", it.name);
		snprintf(f->tunables[f->ntunables][1], 48, "%s (%s)", it.value,
			 it.from);
		f->ntunables++;
	}
}

static void
fact_row(struct table *t, const char *item, const char *old, const char *new)
{
	table_row(t);
	table_str(t, "%s", item);
	table_str(t, "%.47s", old);
	table_str(t, "%.47s", new);
	table_str(t, "%s", strcmp(old, new) ? "differs" : "");
}

static void
facts_table(void)
{
	struct facts *o = calloc(2, sizeof(*o)), *n = o + 1;
	struct table *t;
	int i, j;

	if (!o)
		die("out of memory");
	facts_saved(&base, o);
	if (now.doc.t == J_NULL)
		facts_live(n);
	else
		facts_saved(&now, n);
	t = table_new("compare", "runs", "the two runs: what they ran on");
	table_key(t, "item");
	table_col(t, "base", "", 0);
	table_col(t, "new", "", 0);
	table_col(t, "same?", "", 0);
	fact_row(t, "file", base.label, now.label);
	fact_row(t, "CPU", o->cpu, n->cpu);
	fact_row(t, "features", o->features, n->features);
	fact_row(t, "glibc", o->glibc, n->glibc);
	fact_row(t, "uaccess version", o->version, n->version);
	fact_row(t, "commit", o->commit, n->commit);
	fact_row(t, "run", o->run, n->run);
	for (i = 0; i < n->nstrategies; i++) {
		const char *old = "(not recorded)";
		char item[48];

		for (j = 0; j < o->nstrategies; j++)
			if (!strcmp(o->strategies[j][0], n->strategies[i][0]))
				old = o->strategies[j][1];
		snprintf(item, sizeof(item), "ua_copy_strategy(%s)",
			 n->strategies[i][0]);
		fact_row(t, item, old, n->strategies[i][1]);
	}
	/* The tunables that differ, or that one run does not have */
	if (!o->ntunables && n->ntunables)
		fact_row(t, "tunables", "(not recorded)", "(recorded)");
	for (i = 0; o->ntunables && i < n->ntunables; i++) {
		const char *old = "(not recorded)";

		for (j = 0; j < o->ntunables; j++)
			if (!strcmp(o->tunables[j][0], n->tunables[i][0]))
				old = o->tunables[j][1];
		if (strcmp(old, n->tunables[i][1]))
			fact_row(t, n->tunables[i][0], old, n->tunables[i][1]);
	}
	table_note(t, "ua_copy_strategy: the routine for a copy of that "
		      "size; the tunables listed are those whose value or "
		      "source differs.");
	table_end(t);
	free(o);
}

/* ------------------------------------------------------------------ */
/* The figures */

static const struct table *
find_table(const struct run *run, const char *sub, const char *name)
{
	const struct table *t;

	for (t = run->tables; t; t = t->next)
		if (!strcmp(t->sub, sub) && !strcmp(t->name, name))
			return t;
	return NULL;
}

static int
find_col(const struct table *t, const char *name, const char *unit)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (!t->cols[c].key && !strcmp(t->cols[c].name, name) &&
		    !strcmp(t->cols[c].unit, unit))
			return c;
	return -1;
}

/* The row of t whose key is row r's of from, or -1 */
static int
find_row(const struct table *t, const struct table *from, int r)
{
	char key[256], k[256];
	int i;

	table_row_key(from, r, key, sizeof(key));
	for (i = 0; i < t->rows; i++) {
		table_row_key(t, i, k, sizeof(k));
		if (!strcmp(k, key))
			return i;
	}
	return -1;
}

static int
lower_is_better(const char *unit)
{
	static const char *const times[] = {"ns", "us", "ms", "s", "s/GiB"};
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (!strcmp(unit, times[i]))
			return 1;
	return 0;
}

struct tally {
	int shared, better, worse, within, unknown, strings_changed;
};

static void
compare_table(const struct table *nt, const struct table *ot, struct tally *n)
{
	int map[MAX_COLS], shown[MAX_COLS], nshown = 0, c, r, any = 0;
	char title[260];
	struct table *t;

	/* The columns both have; string columns only where they differ */
	for (c = 0; c < nt->ncols; c++) {
		map[c] = nt->cols[c].key
			     ? -1
			     : find_col(ot, nt->cols[c].name, nt->cols[c].unit);
		if (map[c] < 0)
			continue;
		for (r = 0; r < nt->rows; r++) {
			int orow = find_row(ot, nt, r);

			if (orow < 0)
				continue;
			if (!table_cell(nt, r, c)->is_str ||
			    strcmp(table_cell(nt, r, c)->s,
				   table_cell(ot, orow, map[c])->s)) {
				shown[nshown++] = c;
				break;
			}
		}
	}
	if (!nshown)
		return;
	snprintf(title, sizeof(title),
		 "%s/%s, new/old per figure (* beyond the trial spreads)",
		 nt->sub, nt->name);
	t = table_new("compare", nt->name, title);
	for (c = 0; c < nt->ncols; c++)
		if (nt->cols[c].key)
			table_key(t, nt->cols[c].name);
	for (c = 0; c < nshown; c++) {
		const struct col *k = &nt->cols[shown[c]];
		char name[sizeof(k->name) + sizeof(k->unit)]; /* name unit */

		snprintf(name, sizeof(name), "%s%s%s", k->name,
			 k->unit[0] && strcmp(k->unit, "x") ? " " : "",
			 strcmp(k->unit, "x") ? k->unit : "");
		table_col(t, name, "", 0);
	}
	for (r = 0; r < nt->rows; r++) {
		int orow = find_row(ot, nt, r);

		if (orow < 0)
			continue;
		any = 1;
		table_row(t);
		for (c = 0; c < nt->ncols; c++)
			if (nt->cols[c].key)
				table_str(t, "%s", table_cell(nt, r, c)->s);
		for (c = 0; c < nshown; c++) {
			const struct cell *a = table_cell(nt, r, shown[c]),
					  *b = table_cell(ot, orow,
							  map[shown[c]]);
			double sa, sb, q;
			int d;

			if (a->is_str || b->is_str) {
				if (!a->is_str || !b->is_str) {
					table_str(t, "n/a");
				} else if (strcmp(a->s, b->s)) {
					table_str(t, "%.20s>%.20s", b->s, a->s);
					n->strings_changed++;
				} else {
					table_str(t, "=");
				}
				continue;
			}
			if (isnan(a->v) || isnan(b->v) || b->v == 0) {
				table_str(t, "n/a");
				continue;
			}
			q = a->v / b->v;
			n->shared++;
			/* one side's spread stands for both when the other
			 * run kept none */
			sa = a->has_spread ? a->spread : NAN;
			sb = b->has_spread ? b->spread : NAN;
			if (isnan(sa))
				sa = sb;
			if (isnan(sb))
				sb = sa;
			d = beyond_spread(a->v, sa, b->v, sb);
			if (d < 0)
				n->unknown++;
			else if (!d)
				n->within++;
			else if ((q > 1) !=
				 lower_is_better(nt->cols[shown[c]].unit))
				n->better++;
			else
				n->worse++;
			table_str(t, "%.3fx%s", q, d == 1 ? "*" : "");
		}
	}
	if (!any) {
		table_free(t);
		return;
	}
	table_end(t);
}

void
compare_print(void)
{
	struct tally n = {0};
	const struct table *nt, *ot;
	int only_new = 0, only_base = 0, i;
	struct table *t;
	const struct {
		const char *what;
		const int *count;
	} rows[] = {
	    {"shared (numbers)", &n.shared},
	    {"beyond the trial spreads, better", &n.better},
	    {"beyond the trial spreads, worse", &n.worse},
	    {"within the trial spreads", &n.within},
	    {"no spread recorded", &n.unknown},
	    {"strings that changed", &n.strings_changed},
	};

	facts_table();
	for (nt = now.tables; nt; nt = nt->next) {
		ot = find_table(&base, nt->sub, nt->name);
		if (!ot) {
			only_new++;
			continue;
		}
		compare_table(nt, ot, &n);
	}
	for (ot = base.tables; ot; ot = ot->next)
		only_base += !find_table(&now, ot->sub, ot->name);
	t = table_new("compare", "summary", "every figure the two runs share");
	table_key(t, "figures");
	table_col(t, "count", "", 0);
	for (i = 0; i < (int)(sizeof(rows) / sizeof(rows[0])); i++) {
		table_row(t);
		table_str(t, "%s", rows[i].what);
		table_num(t, *rows[i].count);
	}
	table_note(t, "new/old: this run's figure over the base's.  Better: "
		      "higher, except times (ns, us, s, s/GiB), where lower "
		      "is better; ratios (x) compare contenders of one run.");
	table_note(t, "* the change is larger than the trial spreads: each "
		      "run's middle half of trials (median -+ spread/2) does "
		      "not meet the other's.  Unmarked with no spread "
		      "recorded: counts, and runs saved before spreads were "
		      "kept.");
	if (only_new || only_base)
		table_note(t,
			   "Tables in one run only: %d new, %d in the base "
			   "(other subcommands, or a quick run against a "
			   "full one).",
			   only_new, only_base);
	table_end(t);
}
