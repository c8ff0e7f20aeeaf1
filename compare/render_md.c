/* See render_md.h. Table cells are escaped (| _ * <) so that names like
 * min_reserve and ">100%" show as they are; headings, paragraphs and
 * bullets are written as given. */
#include "render_md.h"

static void md_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '_' || *s == '*' || *s == '<')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void md_heading(FILE *f, int level, const char *text)
{
	fprintf(f, "\n%.*s %s\n\n", level, "######", text);
}

void md_para(FILE *f, const char *text)
{
	fprintf(f, "%s\n\n", text);
}

void md_bullet(FILE *f, const char *text)
{
	fprintf(f, "- %s\n", text);
}

void md_bullets_end(FILE *f)
{
	fputc('\n', f);
}

void md_table_head(FILE *f, int n, const char *const *cols)
{
	int i;

	fputs("|", f);
	for (i = 0; i < n; i++) {
		fputc(' ', f);
		md_esc(f, cols[i]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	/* the first column (labels) left, the numbers right */
	for (i = 0; i < n; i++)
		fputs(i ? " ---: |" : " --- |", f);
	fputc('\n', f);
}

void md_table_row(FILE *f, int n, const char *const *cells, int strong)
{
	int i;

	fputs("|", f);
	for (i = 0; i < n; i++) {
		fputc(' ', f);
		if (strong && *cells[i])
			fputs("**", f);
		md_esc(f, cells[i]);
		if (strong && *cells[i])
			fputs("**", f);
		fputs(" |", f);
	}
	fputc('\n', f);
}

void md_table_end(FILE *f)
{
	fputc('\n', f);
}

void md_image(FILE *f, const char *file, const char *alt)
{
	fprintf(f, "![%s](%s)\n\n", alt, file);
}
