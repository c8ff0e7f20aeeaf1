/* Numbers as the report's cells and sentences show them. */
#ifndef GFPCOMPARE_CELLS_H
#define GFPCOMPARE_CELLS_H
#include <stddef.h>
#include "metrics.h"

/* 0, 1234, 12.3, 1.23, 0.012; "-" for NAN */
const char *num(char *buf, size_t n, double x);
/* (after - before) / before as "+12.3%"; "new" from 0, "-" if unknown */
const char *diffpct(char *buf, size_t n, const struct row *r);
/* the Welch p value: "0.123", "<0.001", "n/a" */
const char *pval(char *buf, size_t n, const struct row *r);
/* "**" p < alpha/5, "*" p < alpha, else "" */
const char *mark(const struct row *r);
/* "`label`: before -> after (diff, p ...)" */
const char *fmt_row(char *buf, size_t n, const struct row *r);

#endif
