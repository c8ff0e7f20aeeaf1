/* cexpr: the C constant expressions of tracefs flag tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cexpr.h"

static uint64_t ev(const char *s)
{
	uint64_t v = 0xdeadbeef;
	const char *end;

	assert_int_equal(cexpr_eval(s, &v, &end), 0);
	assert_true(*end == 0 || *end == ',' || *end == '}' || *end == ')');
	return v;
}

static void literals(void **state)
{
	assert_int_equal(ev("0x20u"), 0x20);
	assert_int_equal(ev("42"), 42);
	assert_int_equal(ev("0"), 0);
	assert_int_equal(ev("0X1fUL"), 0x1f);
	assert_int_equal(ev("010"), 8); /* octal, as C */
}

static void operators_and_precedence(void **state)
{
	assert_int_equal(ev("0x1 | 0x2 & 0x3"), 0x3);	/* & binds tighter */
	assert_int_equal(ev("(0x1 | 0x2) & 0x2"), 0x2);
	assert_int_equal(ev("0xf0 & ~0x30"), 0xc0);
	assert_int_equal(ev("1 << 4 | 1"), 0x11);
	assert_int_equal(ev("0x6 ^ 0x3"), 0x5);
}

static void casts_and_widths(void **state)
{
	/* ~ of a 32-bit gfp_t flips 32 bits, then widens without sign */
	assert_int_equal(ev("( unsigned long)~(( gfp_t)0x1u)"), 0xfffffffeULL);
	assert_true(ev("( unsigned long)~0x1ul") == 0xfffffffffffffffeULL);
	assert_int_equal(ev("(__force gfp_t)0x800u"), 0x800);
	assert_int_equal(ev("(( gfp_t)(0x400u|0x800u))"), 0xc00);
}

/* a real entry of the after kernel's table (GFP_TRANSHUGE_LIGHT) */
static void transhuge_light(void **state)
{
	const char *e = "( unsigned long)((((((( gfp_t)(0x400u|0x800u)) | (( gfp_t)0x40u) | "
			"(( gfp_t)0x80u) | (( gfp_t)0x100000u)) | (( gfp_t)0x02u)) | (( gfp_t)0x08u) | "
			"(( gfp_t)0) | (( gfp_t)0)) | (( gfp_t)0x40000u) | (( gfp_t)0x80000u) | "
			"(( gfp_t)0x2000u)) & ~(( gfp_t)(0x400u|0x800u))), \"GFP_TRANSHUGE_LIGHT\"";
	/* HIGHUSER_MOVABLE (0x1000ca | 0xc00) | COMP | NOMEMALLOC | NOWARN, minus RECLAIM */
	assert_int_equal(ev(e), 0x1c20ca);
}

static void errors(void **state)
{
	uint64_t v;
	const char *end;

	assert_int_equal(cexpr_eval("(0x1 | 0x2", &v, &end), -1);
	assert_int_equal(cexpr_eval("0x1 |", &v, &end), -1);
	assert_int_equal(cexpr_eval("0xg", &v, &end), -1);
	assert_int_equal(cexpr_eval("FOO", &v, &end), -1);
	assert_int_equal(cexpr_eval("", &v, &end), -1);
	assert_int_equal(cexpr_eval("09", &v, &end), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(literals),
		cmocka_unit_test(operators_and_precedence),
		cmocka_unit_test(casts_and_widths),
		cmocka_unit_test(transhuge_light),
		cmocka_unit_test(errors),
	};
	return cmocka_run_group_tests_name("cexpr", tests, NULL, NULL);
}
