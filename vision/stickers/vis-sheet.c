#include "vis-sheet.h"

#include <cairo-pdf.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "eng-i18n.h"

/* Page furniture, in mm.  10 mm margins clear the unprintable border of
 * office printers; the gap between stickers leaves room to cut. */
#define MARGIN 10.0
#define HEADER_HEIGHT 17.0
#define SECTION_HEIGHT 7.0
#define GAP 3.0
#define SCALE_BAR_MM 50.0

static const double MM_TO_PT = 72.0 / 25.4;

EngStatus
vis_paper_from_string (const char *name, VisPaper *out)
{
  if (name == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (strcasecmp (name, "a4") == 0)
    *out = VIS_PAPER_A4;
  else if (strcasecmp (name, "letter") == 0)
    *out = VIS_PAPER_LETTER;
  else
    return ENG_ERR_INVALID_ARGUMENT;
  return ENG_OK;
}

const char *
vis_paper_to_string (VisPaper paper)
{
  return paper == VIS_PAPER_LETTER ? "Letter" : "A4";
}

static void
paper_size (VisPaper paper, double *w, double *h)
{
  if (paper == VIS_PAPER_LETTER)
    {
      *w = 215.9;
      *h = 279.4;
    }
  else
    {
      *w = 210.0;
      *h = 297.0;
    }
}

/* One pass over the stickers in document order.  Without `cr` it only
 * counts pages; with one it draws them (and needs `total_pages`). */
typedef struct {
  const VisSheetOptions *options;
  const VisSheetPlan *plan;
  const VisStickerText *stickers;
  size_t n;
  cairo_t *cr;
  VisSheetPlacement *placements;   /* n entries, or NULL */
  int only_page;                   /* 1..: draw that page alone, no page breaks; 0 all */
} Walk;

static bool
drawing (const Walk *w, int page)
{
  return w->cr != NULL && (w->only_page == 0 || page == w->only_page);
}

static void
draw_header (const Walk *w, int page, int total_pages)
{
  cairo_t *cr = w->cr;
  const VisSheetPlan *p = w->plan;
  double right = p->page_width - MARGIN;
  char line[512];

  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  /* A long set title shrinks to the width of the page rather than run off. */
  const char *title = w->options->title != NULL ? w->options->title : ENG_ ("Tablero stickers");
  cairo_set_font_size (cr, 4.6);
  cairo_text_extents_t ext;
  cairo_text_extents (cr, title, &ext);
  if (ext.x_advance > right - MARGIN)
    cairo_set_font_size (cr, 4.6 * (right - MARGIN) / ext.x_advance);
  cairo_move_to (cr, MARGIN, MARGIN + 4.2);
  cairo_show_text (cr, title);

  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 3.2);
  /* Translators: the sticker width in mm, the paper, the page, the pages, the stickers. */
  snprintf (line, sizeof line, ENG_ ("%.0f mm stickers \xc2\xb7 %s \xc2\xb7 page %d of %d \xc2\xb7 %zu stickers in all"),
            p->sticker.width, vis_paper_to_string (w->options->paper), page, total_pages,
            p->n_stickers);
  cairo_move_to (cr, MARGIN, MARGIN + 9.2);
  cairo_show_text (cr, line);
  /* xgettext:no-c-format */
  const char *note = ENG_ ("Print at 100 % (actual size, no \"fit to page\"). The bar must measure 50 mm:");
  /* a longer translation shrinks to stay clear of the scale bar */
  cairo_text_extents (cr, note, &ext);
  double room = right - SCALE_BAR_MM - 2.0 - MARGIN;
  if (ext.x_advance > room)
    cairo_set_font_size (cr, 3.2 * room / ext.x_advance);
  cairo_move_to (cr, MARGIN, MARGIN + 13.6);
  cairo_show_text (cr, note);

  /* The scale bar: 50 mm with a tick every 10 mm. */
  double x0 = right - SCALE_BAR_MM;
  double y0 = MARGIN + 8.0;   /* below the title, beside the note */
  cairo_set_line_width (cr, 0.3);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, right, y0);
  for (int i = 0; i <= 5; i++)
    {
      cairo_move_to (cr, x0 + i * 10.0, y0);
      cairo_line_to (cr, x0 + i * 10.0, y0 + (i % 5 == 0 ? 3.0 : 1.8));
    }
  cairo_stroke (cr);
  cairo_set_font_size (cr, 2.6);
  cairo_move_to (cr, x0 + SCALE_BAR_MM / 2 - 3.5, y0 + 5.8);
  cairo_show_text (cr, "50 mm");

  cairo_set_line_width (cr, 0.25);
  cairo_move_to (cr, MARGIN, MARGIN + HEADER_HEIGHT - 1.5);
  cairo_line_to (cr, right, MARGIN + HEADER_HEIGHT - 1.5);
  cairo_stroke (cr);
}

static void
draw_section_heading (const Walk *w, double y, const char *section, bool continued)
{
  cairo_t *cr = w->cr;
  char line[192];
  snprintf (line, sizeof line, "%s%s", section, continued ? ENG_ (" (continued)") : "");
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 3.6);
  cairo_move_to (cr, MARGIN, y + 4.6);
  cairo_show_text (cr, line);
}

/* Returns the number of pages, and the number of sections in *n_sections. */
static int
walk (const Walk *w, int total_pages, size_t *n_sections)
{
  const VisSheetPlan *p = w->plan;
  const VisStickerGeometry *g = &p->sticker;
  double top = MARGIN + HEADER_HEIGHT;
  double bottom = p->page_height - MARGIN;
  double grid_width = p->columns * g->width + (p->columns - 1) * GAP;
  double left = (p->page_width - grid_width) / 2;
  int page = 0;
  double y = bottom + 1;   /* forces a first page */
  size_t sections = 0;

  size_t i = 0;
  while (i < w->n)
    {
      const char *section = w->stickers[i].section;
      size_t end = i;
      while (end < w->n && strcmp (w->stickers[end].section, section) == 0)
        end++;
      sections++;

      bool continued = false;
      for (size_t k = i; k < end; k += (size_t) p->columns)
        {
          bool heading = k == i;
          double need = (heading ? SECTION_HEIGHT : 0) + g->height;
          if (y + need > bottom)
            {
              if (w->cr != NULL && w->only_page == 0 && page > 0)
                cairo_show_page (w->cr);
              page++;
              y = top;
              if (drawing (w, page))
                draw_header (w, page, total_pages);
              heading = true;
            }
          if (heading)
            {
              if (drawing (w, page))
                draw_section_heading (w, y, section, continued);
              y += SECTION_HEIGHT;
            }
          continued = true;
          for (size_t c = 0; c < (size_t) p->columns && k + c < end; c++)
            {
              double x = left + c * (g->width + GAP);
              if (drawing (w, page))
                vis_sticker_draw (w->cr, x, y, g, &w->stickers[k + c]);
              if (w->placements != NULL)
                w->placements[k + c] = (VisSheetPlacement) { page - 1, x, y };
            }
          y += g->height + GAP;
        }
      y += 1.0;   /* a little air before the next section */
      i = end;
    }
  if (n_sections != NULL)
    *n_sections = sections;
  return page;
}

EngStatus
vis_sheet_plan (const VisSheetOptions *options, const VisStickerText *stickers, size_t n,
                VisSheetPlan *out)
{
  if (options == NULL || stickers == NULL || n == 0 || out == NULL
      || isnan (options->sticker_mm) || options->sticker_mm < VIS_STICKER_MIN_MM
      || (options->paper != VIS_PAPER_A4 && options->paper != VIS_PAPER_LETTER))
    return ENG_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < n; i++)
    {
      VisQrModules qr;
      if (vis_qr_encode (stickers[i].payload, strlen (stickers[i].payload), &qr) != ENG_OK)
        return ENG_ERR_INVALID_ARGUMENT;
    }
  if (options->sticker_mm > VIS_STICKER_MAX_MM)
    return ENG_ERR_LIMIT;

  VisSheetPlan p = { 0 };
  paper_size (options->paper, &p.page_width, &p.page_height);

  /* Every sticker of a document gets the same height (a clean grid to cut),
   * so the longest label decides how many body lines all reserve. */
  VisStickerGeometry g;
  if (vis_sticker_geometry (options->sticker_mm, 1, &g) != ENG_OK)
    return ENG_ERR_INVALID_ARGUMENT;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  int lines = 1;
  for (size_t i = 0; i < n; i++)
    {
      int need = vis_sticker_body_lines_needed (cr, &g, &stickers[i]);
      if (need > lines)
        lines = need;
    }
  EngStatus status = cairo_status (cr) == CAIRO_STATUS_SUCCESS ? ENG_OK : ENG_ERR_NO_MEMORY;
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  if (status != ENG_OK)
    return status;
  if (lines > VIS_STICKER_MAX_BODY_LINES)
    lines = VIS_STICKER_MAX_BODY_LINES;
  vis_sticker_geometry (options->sticker_mm, lines, &p.sticker);

  double avail_width = p.page_width - 2 * MARGIN;
  double avail_height = p.page_height - 2 * MARGIN - HEADER_HEIGHT;
  p.columns = (int) floor ((avail_width + GAP) / (p.sticker.width + GAP));
  p.rows = (int) floor ((avail_height - SECTION_HEIGHT + GAP) / (p.sticker.height + GAP));
  if (p.columns < 1 || p.rows < 1)
    return ENG_ERR_LIMIT;
  p.n_stickers = n;

  Walk w = { options, &p, stickers, n, NULL, NULL };
  p.n_pages = walk (&w, 0, &p.n_sections);
  *out = p;
  return ENG_OK;
}

EngStatus
vis_sheet_place (const VisSheetOptions *options, const VisStickerText *stickers, size_t n,
                 VisSheetPlacement *placements)
{
  if (placements == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  VisSheetPlan plan;
  EngStatus status = vis_sheet_plan (options, stickers, n, &plan);
  if (status != ENG_OK)
    return status;
  Walk w = { options, &plan, stickers, n, NULL, placements };
  walk (&w, plan.n_pages, NULL);
  return ENG_OK;
}

double
vis_sheet_max_sticker_mm (VisPaper paper, const VisStickerText *stickers, size_t n)
{
  VisSheetOptions options = { paper, 0, NULL };
  VisSheetPlan plan;
  double page_width, page_height;
  paper_size (paper, &page_width, &page_height);
  /* Nothing wider than the space between the margins can fit. */
  for (double mm = floor (page_width - 2 * MARGIN); mm >= VIS_STICKER_MIN_MM; mm -= 1.0)
    {
      options.sticker_mm = mm;
      if (vis_sheet_plan (&options, stickers, n, &plan) == ENG_OK)
        return mm;
    }
  return 0;
}

EngStatus
vis_sheet_write_pdf (const char *path, const VisSheetOptions *options,
                     const VisStickerText *stickers, size_t n, VisSheetPlan *plan_out)
{
  if (path == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  VisSheetPlan plan;
  EngStatus status = vis_sheet_plan (options, stickers, n, &plan);
  if (status != ENG_OK)
    return status;

  cairo_surface_t *surface = cairo_pdf_surface_create (path, plan.page_width * MM_TO_PT,
                                                       plan.page_height * MM_TO_PT);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return ENG_ERR_IO;
    }
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE,
                                  options->title != NULL ? options->title : ENG_ ("Tablero stickers"));
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Tablero");
  cairo_t *cr = cairo_create (surface);
  cairo_scale (cr, MM_TO_PT, MM_TO_PT);

  Walk w = { options, &plan, stickers, n, cr, NULL, 0 };
  walk (&w, plan.n_pages, NULL);
  cairo_show_page (cr);

  status = cairo_status (cr) == CAIRO_STATUS_SUCCESS ? ENG_OK : ENG_ERR_IO;
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    status = ENG_ERR_IO;
  cairo_surface_destroy (surface);
  if (status == ENG_OK && plan_out != NULL)
    *plan_out = plan;
  return status;
}

EngStatus
vis_sheet_draw_page (cairo_t *cr, const VisSheetOptions *options, const VisStickerText *stickers,
                     size_t n, int page)
{
  VisSheetPlan plan;
  EngStatus status = vis_sheet_plan (options, stickers, n, &plan);
  if (status != ENG_OK)
    return status;
  if (cr == NULL || page < 1 || page > plan.n_pages)
    return ENG_ERR_INVALID_ARGUMENT;
  Walk w = { options, &plan, stickers, n, cr, NULL, page };
  walk (&w, plan.n_pages, NULL);
  return ENG_OK;
}
