/* See json_get.h. */
#include "json_get.h"

#include <stdio.h>

double jnum(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_double(v);
}

json_object *jobj(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

void jstr(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v = jobj(o, key);

	snprintf(buf, len, "%s", v ? json_object_get_string(v) : "?");
}

json_object *asobj(json_object *o)
{
	static json_object *empty;

	if (json_object_is_type(o, json_type_object))
		return o;
	if (!empty)
		empty = json_object_new_object();
	return empty;
}
