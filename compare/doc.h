/* The report as one stream of blocks (headings, paragraphs, bullet
 * lists, tables, images), each written to report.md (render_md.c) and
 * report.html (render_html.c) at once, so the two cannot differ in
 * content. Text is plain; `...` spans are code. */
#ifndef GFPCOMPARE_DOC_H
#define GFPCOMPARE_DOC_H
#include <stdio.h>

struct doc {
	FILE *md, *html;
};

/* the HTML page's head and tail (Markdown has none) */
void doc_begin(struct doc *d, const char *title);
void doc_end(struct doc *d);

void doc_heading(struct doc *d, int level, const char *text);
void doc_para(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doc_bullets_start(struct doc *d);
void doc_bullet(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doc_bullets_end(struct doc *d);
void doc_table_head(struct doc *d, int n, const char *const *cols);
/* strong: a marked row (bold) */
void doc_table_row(struct doc *d, int n, const char *const *cells, int strong);
void doc_table_end(struct doc *d);
void doc_image(struct doc *d, const char *file, const char *alt);

#endif
