/* JSON lines output (json-c): one object per interval; the schema is
 * docs/json-schema.md and JSON_SCHEMA_ID names its version. */
#ifndef GFPTOP_JSON_H
#define GFPTOP_JSON_H
#include <stdio.h>
#include <json-c/json.h>
#include "report.h"

#define JSON_SCHEMA_ID "gfptop-interval/2"

/* The object for one interval; the caller json_object_put()s it. */
struct json_object *json_report(const struct report *r);

/* Write it as one line; returns 0 or -1 on a write error. */
int json_write_report(FILE *f, const struct report *r);

/* json-c's one-time set-up, done at start-up rather than in the first
 * interval: json-c seeds its string hash at the first key it hashes,
 * from /dev/urandom when getrandom() would block, and on a kernel whose
 * CRNG is not ready yet (this project's guest kernels have no
 * RANDOM_TRUST_CPU) that read first makes 6.1's urandom generate
 * entropy from timer jitter: ~0.4 s of CPU here, which cost the first
 * interval ~7% of a stressor's throughput (docs/compare.md). */
void json_prepare(void);

#endif
