/* See cexpr.h. Recursive descent with C's precedence:
 *   or  := xor ('|' xor)*      xor := and ('^' and)*
 *   and := shift ('&' shift)*  shift := unary (('<<'|'>>') unary)*
 *   unary := '~' unary | '(' type ')' unary | primary
 *   primary := number | '(' or ')'
 * Each value carries its C width (32 or 64 bits) so that "~" on a
 * gfp_t / "0x400u" operand flips 32 bits, as the compiler would. */
#include "cexpr.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

struct val {
	uint64_t v;
	int bits;
};

struct parser {
	const char *p;
	bool err;
};

static uint64_t mask_of(int bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static struct val parse_or(struct parser *ps);

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

/* If ps->p is at "(type words)", consume it and return the type's width;
 * return 0 (consuming nothing) if it is not a cast. */
static int try_cast(struct parser *ps)
{
	const char *q = ps->p;
	int bits = 0;
	bool any = false, is_long = false, is_short = false, is_char = false;

	if (*q != '(')
		return 0;
	q++;
	for (;;) {
		const char *w;
		size_t n;

		while (isspace((unsigned char)*q))
			q++;
		if (*q == ')')
			break;
		if (!is_ident_start(*q))
			return 0;
		w = q;
		while (is_ident_start(*q) || isdigit((unsigned char)*q))
			q++;
		n = q - w;
		any = true;
		if (n == 4 && !strncmp(w, "long", 4))
			is_long = true;
		else if (n == 5 && !strncmp(w, "short", 5))
			is_short = true;
		else if (n == 4 && !strncmp(w, "char", 4))
			is_char = true;
		else if ((n == 5 && !strncmp(w, "gfp_t", 5)) || (n == 3 && !strncmp(w, "u32", 3)) ||
			 (n == 3 && !strncmp(w, "int", 3)) || (n == 8 && !strncmp(w, "unsigned", 8)) ||
			 (n == 6 && !strncmp(w, "signed", 6)) || (n == 7 && !strncmp(w, "__force", 7)) ||
			 (n == 5 && !strncmp(w, "__u32", 5)))
			; /* int-sized or a qualifier */
		else if ((n == 3 && !strncmp(w, "u64", 3)) || (n == 5 && !strncmp(w, "__u64", 5)) ||
			 (n == 6 && !strncmp(w, "size_t", 6)))
			is_long = true;
		else
			is_long = true; /* unknown typedef: assume unsigned long */
	}
	if (!any)
		return 0;
	bits = is_long ? 64 : is_short ? 16 : is_char ? 8 : 32;
	ps->p = q + 1;
	return bits;
}

static struct val parse_number(struct parser *ps)
{
	struct val r = { 0, 32 };
	const char *q = ps->p;
	int base = 10;
	bool any = false, is_long = false;

	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	} else if (q[0] == '0') {
		base = 8;
	}
	for (;; q++) {
		int d;

		if (isdigit((unsigned char)*q))
			d = *q - '0';
		else if (base == 16 && isxdigit((unsigned char)*q))
			d = tolower((unsigned char)*q) - 'a' + 10;
		else
			break;
		if (d >= base) {
			ps->err = true;
			ps->p = q;
			return r;
		}
		r.v = r.v * base + d;
		any = true;
	}
	if (!any && base != 8) {
		ps->err = true;
		ps->p = q;
		return r;
	}
	while (*q == 'u' || *q == 'U' || *q == 'l' || *q == 'L') {
		if (*q == 'l' || *q == 'L')
			is_long = true;
		q++;
	}
	if (is_ident_start(*q) || isdigit((unsigned char)*q)) {
		ps->err = true;
		ps->p = q;
		return r;
	}
	/* as C: a literal too big for 32 bits is 64-bit */
	r.bits = (is_long || r.v > 0xffffffffULL) ? 64 : 32;
	ps->p = q;
	return r;
}

static struct val parse_unary(struct parser *ps)
{
	struct val r = { 0, 32 };
	int bits;

	skip_ws(ps);
	if (ps->err)
		return r;
	if (*ps->p == '~') {
		ps->p++;
		r = parse_unary(ps);
		r.v = ~r.v & mask_of(r.bits);
		return r;
	}
	if (*ps->p == '(') {
		bits = try_cast(ps);
		if (bits) {
			r = parse_unary(ps);
			/* unsigned conversion: truncate, or zero-extend */
			r.v &= mask_of(bits);
			r.bits = bits;
			return r;
		}
		ps->p++;
		r = parse_or(ps);
		skip_ws(ps);
		if (ps->err)
			return r;
		if (*ps->p != ')') {
			ps->err = true;
			return r;
		}
		ps->p++;
		return r;
	}
	if (isdigit((unsigned char)*ps->p))
		return parse_number(ps);
	ps->err = true;
	return r;
}

static struct val binop(struct val a, struct val b, char op)
{
	struct val r;

	r.bits = a.bits > b.bits ? a.bits : b.bits;
	switch (op) {
	case '|': r.v = a.v | b.v; break;
	case '&': r.v = a.v & b.v; break;
	case '^': r.v = a.v ^ b.v; break;
	case '<': r.bits = a.bits; r.v = b.v >= 64 ? 0 : a.v << b.v; break;
	default:  r.bits = a.bits; r.v = b.v >= 64 ? 0 : a.v >> b.v; break;
	}
	r.v &= mask_of(r.bits);
	return r;
}

static struct val parse_shift(struct parser *ps)
{
	struct val r = parse_unary(ps);

	for (;;) {
		skip_ws(ps);
		if (ps->err || !((ps->p[0] == '<' && ps->p[1] == '<') || (ps->p[0] == '>' && ps->p[1] == '>')))
			return r;
		char op = ps->p[0];
		ps->p += 2;
		r = binop(r, parse_unary(ps), op);
	}
}

static struct val parse_and(struct parser *ps)
{
	struct val r = parse_shift(ps);

	for (;;) {
		skip_ws(ps);
		if (ps->err || ps->p[0] != '&' || ps->p[1] == '&')
			return r;
		ps->p++;
		r = binop(r, parse_shift(ps), '&');
	}
}

static struct val parse_xor(struct parser *ps)
{
	struct val r = parse_and(ps);

	for (;;) {
		skip_ws(ps);
		if (ps->err || ps->p[0] != '^')
			return r;
		ps->p++;
		r = binop(r, parse_and(ps), '^');
	}
}

static struct val parse_or(struct parser *ps)
{
	struct val r = parse_xor(ps);

	for (;;) {
		skip_ws(ps);
		if (ps->err || ps->p[0] != '|' || ps->p[1] == '|')
			return r;
		ps->p++;
		r = binop(r, parse_xor(ps), '|');
	}
}

int cexpr_eval(const char *s, uint64_t *val, const char **end)
{
	struct parser ps = { s, false };
	struct val r = parse_or(&ps);

	skip_ws(&ps);
	if (!ps.err && *ps.p && *ps.p != ',' && *ps.p != '}' && *ps.p != ')')
		ps.err = true;
	if (end)
		*end = ps.p;
	if (ps.err)
		return -1;
	*val = r.v;
	return 0;
}
