/* A strict checker of the Prometheus text exposition gfptop --prom
 * writes (node_exporter's textfile-collector conventions). Used by the
 * unit test (tests/unit/test_prom.c) and, as build/promcheck, by
 * tests/gfptop/host.sh on a file written in a guest. Rules:
 *   - every line is "# HELP name text", "# TYPE name counter|gauge" or a
 *     sample; no other comments, no blank lines, text ends with '\n';
 *   - metric names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names
 *     [a-zA-Z_][a-zA-Z0-9_]* not starting with "__";
 *   - each family has one HELP and one TYPE, both before its first
 *     sample; its samples are contiguous; counters end in _total,
 *     gauges do not;
 *   - label values are quoted with only \\ \" \n escapes; no label
 *     twice in a sample; no series (name and label set) twice;
 *   - values are non-negative decimal integers (no timestamps). */
#ifndef GFPTOP_PROMCHECK_H
#define GFPTOP_PROMCHECK_H
#include <stddef.h>
#include <stdint.h>

/* 0 if text follows the rules; else -1 with "line N: why" in err.
 * *nsamples (if non-NULL) is the number of samples. */
int promcheck(const char *text, size_t *nsamples, char *err, size_t errlen);

/* Sum of the values of every sample named name (0 if none); call on a
 * text promcheck accepted. */
uint64_t promcheck_sum(const char *text, const char *name);

/* The value of the one sample "name{labels}" (labels exactly as written,
 * e.g. "tier=\"oom\",order=\"3\"", "" for none), or -1 if absent. */
int64_t promcheck_value(const char *text, const char *name, const char *labels);

#endif
