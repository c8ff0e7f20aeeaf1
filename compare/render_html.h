/* HTML blocks of the report (doc.h): one self-contained page, `...`
 * spans of text as <code>. */
#ifndef GFPCOMPARE_RENDER_HTML_H
#define GFPCOMPARE_RENDER_HTML_H
#include <stdio.h>

void html_begin(FILE *f, const char *title);
void html_end(FILE *f);
void html_heading(FILE *f, int level, const char *text);
void html_para(FILE *f, const char *text);
void html_bullets_start(FILE *f);
void html_bullet(FILE *f, const char *text);
void html_bullets_end(FILE *f);
void html_table_head(FILE *f, int n, const char *const *cols);
void html_table_row(FILE *f, int n, const char *const *cells, int strong);
void html_table_end(FILE *f);
void html_image(FILE *f, const char *file, const char *alt);

#endif
