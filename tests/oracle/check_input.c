/*
 * The oracle checker's input: OUTDIR's files, the events of a tracefs
 * dump, gfptop's JSON lines summed, the expect files and the module's
 * records.txt (each row matched to its tier event). Every input is
 * machine-written: a malformed one is an error (die()), not a FAIL.
 */
#include <json-c/json.h>

#include "check.h"

/* ---- files */

/* OUTDIR/file, or NULL if it cannot be opened */
FILE *open_out(const struct run *r, const char *file)
{
	char *path = xasprintf("%s/%s", r->out, file);
	FILE *f = fopen(path, "r");

	free(path);
	return f;
}

/* a whole (small) file as a string, or NULL if it cannot be opened */
char *read_text(const struct run *r, const char *file)
{
	FILE *f = open_out(r, file);
	char *s = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	/* a text file has no NUL: up to the first one is all of it */
	if (getdelim(&s, &cap, '\0', f) < 0) {
		free(s);
		s = xasprintf("%s", "");
	}
	fclose(f);
	return s;
}

/* ---- the trace */

/* the third character of the flags ("d.h1."): h/H hardirq, s softirq */
static int ctx_of_flags(const char *flags)
{
	char c = strlen(flags) > 2 ? flags[2] : '.';

	if (c == 'h' || c == 'H')
		return CTX_HARDIRQ;
	return c == 's' ? CTX_SOFTIRQ : CTX_TASK;
}

/*
 * Append the events of one tracepoint (of one pid unless ANY_PID) in a
 * tracefs dump to evs; a missing file has none. A line is
 * "comm-pid [cpu] flags timestamp: name: key=value ...", and the comm
 * may hold dashes: the pid follows the first dash the rest fits after.
 */
void read_events(struct events *evs, const struct run *r, const char *file,
		 const char *name, long long pid)
{
	FILE *f = open_out(r, file);
	char *line = NULL, flags[32], ev[64];
	const char *d;
	size_t cap = 0;
	long long p = 0;
	int rest = 0;
	struct event e = { .name = name };

	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#')
			continue;
		for (d = strchr(line, '-'); d; d = strchr(d + 1, '-')) {
			rest = 0;
			if (isdigit((unsigned char)d[1]) &&
			    sscanf(d + 1, "%lld [%*d] %31s %*[0-9.]: %63[A-Za-z0-9_]: %n",
				   &p, flags, ev, &rest) == 3 && rest)
				break;
		}
		if (!d || strcmp(ev, name) || (pid != ANY_PID && p != pid))
			continue;
		e.kv = split_kv(xasprintf("%s", d + 1 + rest));
		e.ctx = ctx_of_flags(flags);
		PUSH(evs->v, evs->n, evs->cap, e);
	}
	free(line);
	fclose(f);
}

void free_events(struct events *evs)
{
	size_t i;

	for (i = 0; i < evs->n; i++)
		free(evs->v[i].kv.s);
	free(evs->v);
}

/* e[key]: a missing field is an error */
const char *field(const struct event *e, const char *key)
{
	const char *v = kv_get(e->kv, key);

	if (!v)
		die("%s event without %s=", e->name, key);
	return v;
}

long long field_int(const struct event *e, const char *key, int base)
{
	return to_int(field(e, key), base, key);
}

struct tally events_tally(const struct events *evs)
{
	struct tally t = { 0 };
	size_t i;
	int k;

	for (i = 0; i < evs->n; i++) {
		k = tier_index(field(&evs->v[i], "tier"));
		if (k < 0)
			t.extra = true;
		else
			t.n[k]++;
	}
	return t;
}

/* ---- gfptop's JSON lines */

/* o[key]: o must be an object that has key */
static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		die("gfptop JSON: no \"%s\" where one was expected", key);
	return v;
}

/* o["count"]: gfptop writes integers, anything else is refused */
static long long count_of(struct json_object *o)
{
	struct json_object *c = member(o, "count");

	if (!json_object_is_type(c, json_type_int))
		die("gfptop JSON: \"count\" is not an integer");
	return json_object_get_int64(c);
}

/* one JSON value and nothing after it: a truncated line is an error */
static struct json_object *parse_json(const char *line, const char *file, size_t lineno)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *j;
	enum json_tokener_error err;
	size_t n = strlen(line), end;

	if (!tok)
		die("out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	j = json_tokener_parse_ex(tok, line, n);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (err != json_tokener_success || end != n)
		die("%s line %zu: %s", file, lineno, err != json_tokener_success ?
		    json_tokener_error_desc(err) : "extra data after the JSON value");
	return j;
}

static void add_interval(struct gfptop *g, struct json_object *j)
{
	struct json_object *tc;
	size_t t, c;

	for (t = 0; t < NTIERS; t++)
		g->tiers.n[t] += count_of(member(member(j, "tiers"), tiers[t]));
	g->fails += count_of(member(j, "reserve_fail"));
	if (json_object_object_get_ex(j, "pcp_highatomic", &tc)) {
		g->pcp_ha += count_of(tc);
		g->pcp_ha_lines++;
	}
	tc = member(j, "tier_context");
	for (t = 0; t < NTIERS; t++)
		for (c = 0; c < NCTX; c++)
			g->ctx[c] += count_of(member(member(tc, tiers[t]), ctx_names[c]));
}

/* gfptop -j prints one JSON object a line, one a second: sum them */
struct gfptop gfptop_counts(const struct run *r, const char *file)
{
	struct gfptop g = { 0 };
	FILE *f = open_out(r, file);
	char *line = NULL, *s;
	size_t cap = 0, lineno = 0;
	struct json_object *j;

	if (!f)
		return g;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		s = strip(line);
		if (!*s)
			continue;
		j = parse_json(s, file, lineno);
		g.lines++;
		add_interval(&g, j);
		json_object_put(j);
	}
	free(line);
	fclose(f);
	return g;
}

/* ---- the expectation table */

struct expect *find_expect(const struct run *r, const char *case_name,
			   const char *level)
{
	size_t i;

	for (i = 0; i < r->nexpect; i++)
		if (!strcmp(r->expect[i].case_name, case_name) &&
		    !strcmp(r->expect[i].level, level))
			return &r->expect[i];
	return NULL;
}

/* the event fields an expectation may name (the trace's own keys) */
static const char *const field_keys[] = {
	"source", "highatomic_block", "watermark_tier", "free_blocks",
};

/*
 * One "CASE LEVEL TIER[?] [KEY=VALUE...]" line, its comment cut off; the
 * expectation's strings point into a copy of it. A repeated (CASE,
 * LEVEL) keeps its place and takes the later tier and fields, and stays
 * optional once it was.
 */
static void add_expect(struct run *r, const char *line, const char *path)
{
	struct expect x = { 0 }, *old;
	char *w[3], *kw, *eq, *save = NULL, *copy = xasprintf("%s", line);
	size_t n, k;

	for (n = 0; n < 3 && (w[n] = strtok_r(n ? NULL : copy, WS, &save)); n++)
		;
	if (!n)
		return;
	if (n < 3)
		die("%s: not CASE LEVEL TIER: %s", path, line);
	x.case_name = w[0];
	x.level = w[1];
	x.tier = w[2];
	n = strlen(w[2]);
	if (w[2][n - 1] == '?') {
		w[2][n - 1] = '\0';
		x.optional = true;
	}
	while ((kw = strtok_r(NULL, WS, &save))) {
		eq = strchr(kw, '=');
		if (!eq || eq == kw || !eq[1])
			die("%s: not KEY=VALUE: %s", path, kw);
		*eq = '\0';
		for (k = 0; k < ARRAY_SIZE(field_keys) && strcmp(kw, field_keys[k]); k++)
			;
		if (k == ARRAY_SIZE(field_keys))
			die("%s: unknown event field %s", path, kw);
		PUSH(x.fields, x.nfields, x.cap_fields, ((struct field_want){ kw, eq + 1 }));
	}
	old = find_expect(r, x.case_name, x.level);
	if (old) {
		old->tier = x.tier;
		old->optional |= x.optional;
		old->fields = x.fields;
		old->nfields = x.nfields;
	} else {
		PUSH(r->expect, r->nexpect, r->cap_expect, x);
	}
}

void parse_expect(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		die("cannot read %s", path);
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		/* a comment runs from the first # to the end of the line */
		line[strcspn(line, "#")] = '\0';
		add_expect(r, line, path);
	}
	free(line);
	fclose(f);
}

/* ---- the module's records */

/*
 * atomic_o4 rows behave by the reserve's state: a free highatomic block
 * (ha; ha_counted if no normal list had a block of the order, so that
 * only the highatomic one counted), no reserve yet (fresh), or a
 * reserve without a usable block (hidden)
 */
static const char *key_of(const struct rec *rec)
{
	if (strcmp(rec->case_name, "atomic_o4"))
		return rec->case_name;
	if (rec->ha_avail)
		return xasprintf("%s/%s", rec->case_name, rec->normal_avail ? "ha" : "ha_counted");
	if (rec->reserved == 0)
		return xasprintf("%s/fresh", rec->case_name);
	return xasprintf("%s/hidden", rec->case_name);
}

/*
 * seq case level rep ctx order gfp reached lo hi free_before free_after
 * reserved_ha ha_avail pfn wmin normal_free boost boost_after
 * normal_avail: all but gfp are read (rep and free_after are not
 * checked, but a garbled row is an error)
 */
static struct rec parse_rec(const char *line)
{
	struct rec rec = { 0 };

	if (sscanf(line, "%lld %ms %ms %lld %ms %lld %*s %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
		   &rec.seq, &rec.case_name, &rec.level, &rec.rep, &rec.ctx, &rec.order,
		   &rec.reached, &rec.lo, &rec.hi, &rec.free_before, &rec.free_after,
		   &rec.reserved, &rec.ha_avail, &rec.pfn, &rec.wmin, &rec.normal_free,
		   &rec.boost, &rec.boost_after, &rec.normal_avail) != 19)
		die("records.txt: not a row of 20 fields: %s", line);
	rec.key = key_of(&rec);
	return rec;
}

/* the first line is the header; then one record a line, lines starting
 * with # and blank ones skipped */
void parse_records(struct run *r, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	struct rec rec;

	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!r->hdr.s)
			r->hdr = split_kv(xasprintf("%s", line));
		if (line[0] == '#' || !line[strspn(line, WS)])
			continue;
		rec = parse_rec(line);
		PUSH(r->recs, r->nrecs, r->cap_recs, rec);
	}
	free(line);
	if (!r->hdr.s)
		die("records.txt is empty");
}

/* the header's value for key, or "None" */
const char *hdr_get(const struct run *r, const char *key)
{
	const char *v = kv_get(r->hdr, key);

	return v ? v : "None";
}

/* the distinct min watermarks the rows saw, sorted as strings */
char *campaign_wmins(const struct run *r)
{
	const char **v = xrealloc(NULL, r->nrecs * sizeof(*v));
	size_t i;

	for (i = 0; i < r->nrecs; i++)
		v[i] = xasprintf("%lld", r->recs[i].wmin);
	return join_sorted_unique(v, r->nrecs, "/");
}

/*
 * Match each successful oracle allocation to the next tier event with
 * its pfn and order, in order: the campaign thread's events come in the
 * order of its allocations, and a pfn is reused once freed.
 */
void match_records(struct run *r)
{
	const struct events *evs = &r->tier_evs;
	struct rec *rec;
	size_t pos = 0, i;

	for_each_rec(r, rec) {
		rec->observed = rec->pfn < 0 ? "fail" : "no-event";
		if (rec->pfn < 0)
			continue;
		for (i = pos; i < evs->n; i++) {
			if (field_int(&evs->v[i], "pfn", 16) == rec->pfn &&
			    field_int(&evs->v[i], "order", 10) == rec->order) {
				rec->ev = &evs->v[i];
				rec->observed = field(rec->ev, "tier");
				pos = i + 1;
				break;
			}
		}
	}
}
