/* The parts load_results() (ingest.c) is made of, each in its own file:
 * the workloads (workloads.c), one run directory (run_dir.c), one
 * interval of gfptop's JSON (interval.c) and the tiers and depth buckets
 * it names (tiers.c). Nothing outside these files includes this. */
#ifndef GFPCOMPARE_INGEST_H
#define GFPCOMPARE_INGEST_H
#include <json-c/json.h>
#include "runs.h"

/* workloads.c: the workload of that name; with create, added (empty) if
 * new, else NULL */
struct workload *find_wl(struct results *res, const char *name, int create);
/* the workload list's name, mem, set, description, command lines
 * (workloads_table, guest/lib.sh): names, guest sizes, descriptions and
 * the order of the report; dies if unreadable */
void read_workloads(struct results *res, const char *path);

/* run_dir.c: DIR (rep-<N>/ of kernel k) into r; -1 if the run failed
 * (no meta.json, or no interval in gfptop.json) */
int load_run(struct results *res, const char *dir, int k, struct run *r);

/* interval.c: one gfptop -j line of kernel k added to r; the tiers and
 * buckets it names added to res */
void add_interval(struct results *res, struct run *r, int k, json_object *o);

/* tiers.c: the index of a tier or depth bucket the JSON names, added if
 * new; -1 (and a warning once) when the table is full */
int tier_index(struct results *res, const char *name);
int bucket_index_of(struct results *res, const char *name);
/* once every run is in: the tiers and buckets into the report's order
 * (runs.h), every run's per-tier data permuted to match */
void order_tiers(struct results *res);

#endif
