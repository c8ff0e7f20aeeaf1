/* tpformat: the symbol tables of tracepoint format files, parsed and
 * their C constant expressions evaluated by libtraceevent. The values of
 * the real tables are checked against the kernels' in test_gfpclass. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tpformat.h"

/* A format file as tracefs writes one, with PRINT as its print fmt
 * arguments after "%s". */
static char *format_file(const char *print)
{
	static const char head[] =
		"name: test_event\n"
		"ID: 1\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:unsigned long gfp_flags;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:int zone;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"flags=%s\", ";
	size_t len = strlen(head) + strlen(print) + 2;
	char *s = malloc(len);

	assert_non_null(s);
	snprintf(s, len, "%s%s\n", head, print);
	return s;
}

/* The value of the one-entry flag table {EXPR, "X"}. */
static uint64_t ev(const char *expr)
{
	char print[2048];
	struct tpfmt_sym s[2];
	char *text;

	snprintf(print, sizeof(print), "__print_flags(REC->gfp_flags, \"|\", {%s, \"X\"})", expr);
	text = format_file(print);
	assert_int_equal(tpfmt_table(text, "__print_flags", "gfp_flags", s, 2), 1);
	assert_string_equal(s[0].name, "X");
	free(text);
	return s[0].value;
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
}

/* libtraceevent's grammar has no "^" and no unary operator right after a
 * cast ("( unsigned long)~x"); no kernel's flag table uses either (the
 * fixtures' tables, test_gfpclass, are the kernels' own). */
static void casts(void **state)
{
	/* bit 63 set: libtraceevent's text for it is a negative decimal */
	assert_true(ev("~0x1ul") == 0xfffffffffffffffeULL);
	assert_int_equal(ev("(__force gfp_t)0x800u"), 0x800);
	assert_int_equal(ev("(( gfp_t)(0x400u|0x800u))"), 0xc00);
	/* how the kernel prints "all but these bits" of a composite */
	assert_int_equal(ev("( unsigned long)((( gfp_t)0xcc0u) & ~(( gfp_t)(0x400u|0x800u)))"),
			 0xc0);
}

/* a real entry of the after kernel's table (GFP_TRANSHUGE_LIGHT) */
static void transhuge_light(void **state)
{
	const char *e = "( unsigned long)((((((( gfp_t)(0x400u|0x800u)) | (( gfp_t)0x40u) | "
			"(( gfp_t)0x80u) | (( gfp_t)0x100000u)) | (( gfp_t)0x02u)) | (( gfp_t)0x08u) | "
			"(( gfp_t)0) | (( gfp_t)0)) | (( gfp_t)0x40000u) | (( gfp_t)0x80000u) | "
			"(( gfp_t)0x2000u)) & ~(( gfp_t)(0x400u|0x800u)))";
	/* HIGHUSER_MOVABLE (0x1000ca | 0xc00) | COMP | NOMEMALLOC | NOWARN, minus RECLAIM */
	assert_int_equal(ev(e), 0x1c20ca);
}

/* Tables inside operators, found by field, entries in order; symbolic
 * tables of other fields are not confused with the one asked for. */
static void tables(void **state)
{
	char *text = format_file(
		"(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", {0x1u, \"A\"}, "
		"{(0x2u|0x4u), \"B\"}) : \"none\", "
		"__print_symbolic(REC->zone, {0, \"DMA32\"}, {1, \"Normal\"}, {2, \"Movable\"})");
	struct tpfmt_sym s[4];
	uint64_t v;

	assert_int_equal(tpfmt_table(text, "__print_flags", "gfp_flags", s, 4), 2);
	assert_string_equal(s[0].name, "A");
	assert_int_equal(s[0].value, 1);
	assert_string_equal(s[1].name, "B");
	assert_int_equal(s[1].value, 6);
	assert_int_equal(tpfmt_lookup(s, 2, "B", &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(tpfmt_lookup(s, 2, "C", &v), -1);

	assert_int_equal(tpfmt_table(text, "__print_symbolic", "zone", s, 4), 3);
	assert_string_equal(s[2].name, "Movable");
	assert_int_equal(s[2].value, 2);
	/* max caps what is filled */
	assert_int_equal(tpfmt_table(text, "__print_symbolic", "zone", s, 2), 2);
	/* the wrong kind or field: no table */
	assert_int_equal(tpfmt_table(text, "__print_symbolic", "gfp_flags", s, 4), -1);
	assert_int_equal(tpfmt_table(text, "__print_flags", "order", s, 4), -1);
	assert_int_equal(tpfmt_table(text, "__print_hex", "gfp_flags", s, 4), -1);
	free(text);
}

static void errors(void **state)
{
	struct tpfmt_sym s[4];
	char *text;

	assert_int_equal(tpfmt_table("no table here", "__print_flags", "gfp_flags", s, 4), -1);
	assert_int_equal(tpfmt_table("", "__print_flags", "gfp_flags", s, 4), -1);
	/* a value that is no number */
	text = format_file("__print_flags(REC->gfp_flags, \"|\", {FOO, \"A\"})");
	assert_int_equal(tpfmt_table(text, "__print_flags", "gfp_flags", s, 4), -1);
	free(text);
	/* an entry without its comma */
	text = format_file("__print_flags(REC->gfp_flags, \"|\", {0x1u \"A\"})");
	assert_int_equal(tpfmt_table(text, "__print_flags", "gfp_flags", s, 4), -1);
	free(text);
	/* an unclosed parenthesis */
	text = format_file("__print_flags(REC->gfp_flags, \"|\", {(0x1 | 0x2, \"A\"})");
	assert_int_equal(tpfmt_table(text, "__print_flags", "gfp_flags", s, 4), -1);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(literals),
		cmocka_unit_test(operators_and_precedence),
		cmocka_unit_test(casts),
		cmocka_unit_test(transhuge_light),
		cmocka_unit_test(tables),
		cmocka_unit_test(errors),
	};
	return cmocka_run_group_tests_name("tpformat", tests, NULL, NULL);
}
