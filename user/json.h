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

#endif
