/* See doc.h: each block goes to both writers. */
#include "doc.h"

#include <stdarg.h>

#include "render_html.h"
#include "render_md.h"

void doc_begin(struct doc *d, const char *title)
{
	html_begin(d->html, title);
}

void doc_end(struct doc *d)
{
	html_end(d->html);
}

void doc_heading(struct doc *d, int level, const char *text)
{
	md_heading(d->md, level, text);
	html_heading(d->html, level, text);
}

void doc_para(struct doc *d, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	md_para(d->md, buf);
	html_para(d->html, buf);
}

void doc_bullets_start(struct doc *d)
{
	html_bullets_start(d->html);
}

void doc_bullet(struct doc *d, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	md_bullet(d->md, buf);
	html_bullet(d->html, buf);
}

void doc_bullets_end(struct doc *d)
{
	md_bullets_end(d->md);
	html_bullets_end(d->html);
}

void doc_table_head(struct doc *d, int n, const char *const *cols)
{
	md_table_head(d->md, n, cols);
	html_table_head(d->html, n, cols);
}

void doc_table_row(struct doc *d, int n, const char *const *cells, int strong)
{
	md_table_row(d->md, n, cells, strong);
	html_table_row(d->html, n, cells, strong);
}

void doc_table_end(struct doc *d)
{
	md_table_end(d->md);
	html_table_end(d->html);
}

void doc_image(struct doc *d, const char *file, const char *alt)
{
	md_image(d->md, file, alt);
	html_image(d->html, file, alt);
}
