/* See zoneinfo.h. */
#include "zoneinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the fields a zone must have, as bits */
enum {
	F_FREE = 1, F_BOOST = 2, F_MIN = 4, F_LOW = 8, F_HIGH = 16, F_MANAGED = 32,
	F_ALL = 63,
};

/* the watermark block's "key value" lines (6.12 adds "promo", ignored) */
static const struct {
	const char *key;
	int bit;
	size_t off;
} fields[] = {
	{ "boost", F_BOOST, offsetof(struct zone_row, boost) },
	{ "min", F_MIN, offsetof(struct zone_row, min) },
	{ "low", F_LOW, offsetof(struct zone_row, low) },
	{ "high", F_HIGH, offsetof(struct zone_row, high) },
	{ "managed", F_MANAGED, offsetof(struct zone_row, managed) },
};

/* "  pages free     123" and the lines after it up to "protection:"
 * hold the fields; elsewhere "high:" (pagesets) and the counters'
 * names never equal a key. */
static int parse_line(const char *line, struct zone_row *z, int *have, bool *in_block)
{
	char key[32], key2[32];
	unsigned long long v;

	if (sscanf(line, " %31s %31s %llu", key, key2, &v) == 3 && !strcmp(key, "pages") &&
	    !strcmp(key2, "free")) {
		z->free = v;
		*have |= F_FREE;
		*in_block = true;
		return 0;
	}
	if (!*in_block)
		return 0;
	if (sscanf(line, " %31s", key) == 1 && !strcmp(key, "protection:")) {
		*in_block = false;
		return 0;
	}
	if (sscanf(line, " %31s %llu", key, &v) != 2)
		return 0;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(key, fields[i].key))
			continue;
		*(uint64_t *)((char *)z + fields[i].off) = v;
		*have |= fields[i].bit;
	}
	return 0;
}

/* zoneinfo's min/low/high are min_wmark_pages() etc.: _watermark[] +
 * watermark_boost (mmzone.h, 6.1 and 6.12); the boost is read again for
 * each, so a boost changing meanwhile can leave one below it: 0 then */
static void unboost(struct zone_row *z)
{
	z->min = z->min > z->boost ? z->min - z->boost : 0;
	z->low = z->low > z->boost ? z->low - z->boost : 0;
	z->high = z->high > z->boost ? z->high - z->boost : 0;
}

int zoneinfo_parse(const char *text, struct zone_row *rows, size_t max)
{
	struct zone_row *z = NULL;
	int n = 0, have = 0, node_zones = 0, last_node = -1;
	bool in_block = false;
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[256], name[ZONEINFO_NAME_LEN];
		int node;

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = 0;
		p = nl ? nl + 1 : NULL;

		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2) {
			if (z && have != F_ALL)
				return -1;
			/* zones are listed in node_zones[] order, from 0 */
			node_zones = node == last_node ? node_zones + 1 : 0;
			last_node = node;
			have = 0;
			in_block = false;
			if ((size_t)n >= max) {
				z = NULL;
				continue;
			}
			z = &rows[n++];
			memset(z, 0, sizeof(*z));
			z->node = node;
			z->idx = node_zones;
			snprintf(z->name, sizeof(z->name), "%s", name);
			continue;
		}
		if (z)
			parse_line(line, z, &have, &in_block);
	}
	if (z && have != F_ALL)
		return -1;
	for (int i = 0; i < n; i++)
		unboost(&rows[i]);
	return n;
}

int zoneinfo_read(const char *path, struct zone_row *rows, size_t max)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int n;

	if (!f)
		return -1;
	/* one read pass: the file is generated as it is read */
	for (;;) {
		size_t got;

		if (cap - len < 4096) {
			char *t = realloc(text, cap + 65536);

			if (!t) {
				free(text);
				fclose(f);
				return -1;
			}
			text = t;
			cap += 65536;
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	fclose(f);
	text[len] = 0;
	n = zoneinfo_parse(text, rows, max);
	free(text);
	return n;
}

size_t zoneinfo_populated(struct zone_row *rows, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].managed)
			rows[k++] = rows[i];
	return k;
}

void zoneinfo_attach_ha(struct zone_row *rows, size_t n, const struct gt_zone_ha ha[GT_NR_ZONES],
			const uint64_t prev_jiffies[GT_NR_ZONES])
{
	for (size_t i = 0; i < n; i++) {
		struct zone_row *z = &rows[i];
		const struct gt_zone_ha *h;
		bool alone = true;

		z->have_ha_reserved = z->have_ha_free = z->ha_in_interval = false;
		z->ha_reserved = z->ha_free = 0;
		if (z->idx < 0 || z->idx >= GT_NR_ZONES)
			continue;
		for (size_t j = 0; j < n; j++)
			if (j != i && rows[j].idx == z->idx)
				alone = false;
		h = &ha[z->idx];
		if (!alone || !h->have)
			continue;
		z->have_ha_reserved = h->have & GT_ZHA_RESERVED;
		z->have_ha_free = h->have & GT_ZHA_FREE;
		z->ha_reserved = z->have_ha_reserved ? h->nr_reserved : 0;
		z->ha_free = z->have_ha_free ? h->nr_free : 0;
		z->ha_in_interval = h->jiffies != prev_jiffies[z->idx];
	}
}

double zone_pct_of_min(uint64_t v, uint64_t min)
{
	return min ? 100.0 * (double)v / (double)min : -1;
}
