/* The rows of common/rule_sets.c, one a line: "ID SERIES", for
 * tests/rules/host.sh. */
#include <stdio.h>
#include "rule_sets.h"

int main(void)
{
	for (int i = 0; i < RS_NR; i++)
		printf("%s %s\n", rule_sets[i].id, rule_sets[i].series);
	return 0;
}
