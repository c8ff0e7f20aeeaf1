/*
 * OOM victim for tests/oracle/host.sh: waits for a byte on stdin (so
 * gfptop can attach to its pid first), then touches anonymous memory
 * until the global OOM killer kills it (oom_score_adj 1000 makes it the
 * chosen one). Its last allocations are made as an OOM victim, with
 * ALLOC_OOM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

int main(void)
{
	const size_t chunk = 1 << 20;
	char c;

	if (read(0, &c, 1) != 1)
		return 2;
	for (;;) {
		char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 3;
		memset(p, 0x5a, chunk);
	}
}
