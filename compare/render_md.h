/* Markdown blocks of the report (doc.h); text is plain, `...` spans pass
 * through as Markdown code spans. */
#ifndef GFPCOMPARE_RENDER_MD_H
#define GFPCOMPARE_RENDER_MD_H
#include <stdio.h>

void md_heading(FILE *f, int level, const char *text);
void md_para(FILE *f, const char *text);
void md_bullet(FILE *f, const char *text);
void md_bullets_end(FILE *f);
void md_table_head(FILE *f, int n, const char *const *cols);
void md_table_row(FILE *f, int n, const char *const *cells, int strong);
void md_table_end(FILE *f);
void md_image(FILE *f, const char *file, const char *alt);

#endif
