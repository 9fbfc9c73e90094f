/* SPDX-License-Identifier: MIT */
/*
 * A table's insides, shared by report.c (which prints them) and
 * compare.c (which reads a saved run into tables and sets two runs side
 * by side).
 */
#ifndef UA_BENCH_TABLE_H
#define UA_BENCH_TABLE_H

#define MAX_COLS 24
#define MAX_PLOTS 3

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
	enum plot_role role;
};

struct plot_spec {
	char file[48], unit[12], title[160], ylabel[48];
	int x, kind, flags;
};

struct table {
	char sub[16], name[48], title[200];
	struct col cols[MAX_COLS];
	int ncols;
	struct cell *cells; /* rows * MAX_COLS */
	int rows, cap, cur;
	char **notes;
	int nnotes;
	struct plot_spec plots[MAX_PLOTS];
	int nplots;
	struct table *next; /* kept for --compare */
};

static inline const struct cell *
table_cell(const struct table *t, int row, int col)
{
	return &t->cells[(size_t)row * MAX_COLS + col];
}

/* Row r's key: its key columns' strings joined with '/' */
void table_row_key(const struct table *t, int r, char *buf, size_t n);
void table_free(struct table *t);

#endif /* UA_BENCH_TABLE_H */
