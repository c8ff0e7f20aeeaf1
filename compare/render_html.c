/* See render_html.h. */
#include "render_html.h"

static void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* plain text, `...` spans as <code> */
static void html_text(FILE *f, const char *text)
{
	int code = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '`') {
			fputs(code ? "</code>" : "<code>", f);
			code = !code;
		} else {
			char c[2] = { *p, 0 };

			html_esc(f, c);
		}
	}
}

void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", f);
	html_esc(f, title);
	fputs("</title>\n<style>body{font-family:sans-serif;max-width:75em;margin:auto;padding:1em}"
	      "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
	      "td.n{text-align:right;font-family:monospace}tr.sig td{background:#fff3c4;font-weight:bold}"
	      "th{background:#eee}code{background:#f4f4f4}</style></head><body>\n", f);
}

void html_end(FILE *f)
{
	fputs("</body></html>\n", f);
}

void html_heading(FILE *f, int level, const char *text)
{
	fprintf(f, "<h%d>", level);
	html_esc(f, text);
	fprintf(f, "</h%d>\n", level);
}

void html_para(FILE *f, const char *text)
{
	fputs("<p>", f);
	html_text(f, text);
	fputs("</p>\n", f);
}

void html_bullets_start(FILE *f)
{
	fputs("<ul>\n", f);
}

void html_bullet(FILE *f, const char *text)
{
	fputs("<li>", f);
	html_text(f, text);
	fputs("</li>\n", f);
}

void html_bullets_end(FILE *f)
{
	fputs("</ul>\n", f);
}

void html_table_head(FILE *f, int n, const char *const *cols)
{
	int i;

	fputs("<table>\n<tr>", f);
	for (i = 0; i < n; i++) {
		fputs("<th>", f);
		html_esc(f, cols[i]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
}

void html_table_row(FILE *f, int n, const char *const *cells, int strong)
{
	int i;

	fputs(strong ? "<tr class=\"sig\">" : "<tr>", f);
	/* the first column is the label, the others numbers */
	for (i = 0; i < n; i++) {
		fputs(i ? "<td class=\"n\">" : "<td>", f);
		html_esc(f, cells[i]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

void html_table_end(FILE *f)
{
	fputs("</table>\n", f);
}

void html_image(FILE *f, const char *file, const char *alt)
{
	fprintf(f, "<p><img src=\"%s\" alt=\"", file);
	html_esc(f, alt);
	fputs("\"></p>\n", f);
}
