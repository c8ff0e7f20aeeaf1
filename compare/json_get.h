/* Values out of json-c objects for ingest: a missing key or section is
 * not an error (older gfptop JSON lacks sections, meta.json fields), so
 * each getter has a default. */
#ifndef GFPCOMPARE_JSON_GET_H
#define GFPCOMPARE_JSON_GET_H
#include <json-c/json.h>
#include <stddef.h>

/* o[key] as a number; 0 if o or the key is missing */
double jnum(json_object *o, const char *key);
/* o[key]; NULL if o or the key is missing */
json_object *jobj(json_object *o, const char *key);
/* o[key] as a string into buf; "?" if missing */
void jstr(json_object *o, const char *key, char *buf, size_t len);
/* o if it is an object, else an empty one: json-c's foreach dereferences
 * what it is given, and older or damaged JSON may lack a section */
json_object *asobj(json_object *o);

#endif
