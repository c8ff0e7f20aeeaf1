/* promcheck FILE [METRIC...]: checks FILE against the rules in
 * promcheck.h; prints "ok N samples", then "METRIC SUM" for each METRIC
 * (the sum over its series). Exit 0, or 1 with the first broken rule. */
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include "promcheck.h"

int main(int argc, char **argv)
{
	char err[512], *text = NULL;
	size_t cap = 0, n = 0, got;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: promcheck FILE [METRIC...]\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	do {
		if (n + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			text = realloc(text, cap);
			if (!text)
				return 1;
		}
		got = fread(text + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	text[n] = '\0';
	if (promcheck(text, &n, err, sizeof(err))) {
		printf("%s: %s\n", argv[1], err);
		return 1;
	}
	printf("ok %zu samples\n", n);
	for (int i = 2; i < argc; i++)
		printf("%s %" PRIu64 "\n", argv[i], promcheck_sum(text, argv[i]));
	free(text);
	return 0;
}
