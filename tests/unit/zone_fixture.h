/* Two zone header rows for the tests of its outputs (test_zoneinfo.c:
 * text and JSON, test_prom.c: the gauges): DMA32 as on 6.1 (no
 * nr_free_highatomic), Normal boosted, with both highatomic counters. */
#ifndef GFPTOP_TEST_ZONE_FIXTURE_H
#define GFPTOP_TEST_ZONE_FIXTURE_H
#include "report.h"

static inline void fill_zone_rows(struct report *r)
{
	r->nzones = 2;
	r->zones[0] = (struct zone_row){ .node = 0, .idx = 1, .name = "DMA32", .free = 12345,
					 .min = 4096, .low = 5120, .high = 6144, .managed = 100000,
					 .have_ha_reserved = true, .ha_reserved = 1024 };
	r->zones[1] = (struct zone_row){ .node = 0, .idx = 2, .name = "Normal", .free = 16000000,
					 .min = 65536, .low = 81920, .high = 98304, .boost = 196608,
					 .managed = 16500000, .have_ha_reserved = true,
					 .ha_reserved = 165000, .have_ha_free = true, .ha_free = 99999 };
}
#endif
