/* vis-sticker and vis-sheet: geometry, refusals, layout invariants, and a
 * single sticker that decodes and draws nothing outside its outline. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eng-tag.h"
#include "sticker-test-util.h"
#include "vis-sheet.h"
#include "vis-sticker.h"

static VisStickerText
make_text (unsigned serial, const char *section, const char *body)
{
  VisStickerText t = { 0 };
  EngTag tag = { .game = 'K', .set = "01", .kind = ENG_TAG_FACE, .serial = (uint16_t) serial };
  cr_assert_eq (eng_tag_format (&tag, t.payload), ENG_OK);
  snprintf (t.title, sizeof t.title, "Katua \xc2\xb7 card face");
  snprintf (t.body, sizeof t.body, "%s", body);
  snprintf (t.section, sizeof t.section, "%s", section);
  return t;
}

Test (vis_sticker, geometry_refuses_sizes_out_of_range)
{
  VisStickerGeometry g;
  memset (&g, 0x5a, sizeof g);
  VisStickerGeometry untouched = g;
  cr_assert_eq (vis_sticker_geometry (14.9, 2, &g), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sticker_geometry (NAN, 2, &g), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sticker_geometry (-40, 2, &g), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sticker_geometry (VIS_STICKER_MAX_MM + 1, 2, &g), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sticker_geometry (40, 0, &g), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sticker_geometry (40, VIS_STICKER_MAX_BODY_LINES + 1, &g),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert (memcmp (&g, &untouched, sizeof g) == 0);
}

Test (vis_sticker, quiet_zone_and_modules_follow_the_width)
{
  VisStickerGeometry wide;
  cr_assert_eq (vis_sticker_geometry (60, 2, &wide), ENG_OK);
  cr_assert_eq (wide.quiet_modules, 4);
  cr_assert_float_eq (wide.module * (21 + 8), 60.0, 1e-9);

  VisStickerGeometry g;
  cr_assert_eq (vis_sticker_geometry (40, 2, &g), ENG_OK);
  cr_assert_eq (g.quiet_modules, 2);
  cr_assert_float_eq (g.module, 1.6, 1e-9);
  cr_assert_gt (g.label_height, 0);
  cr_assert_float_eq (g.height, g.width + g.label_height, 1e-9);

  VisStickerGeometry small;
  cr_assert_eq (vis_sticker_geometry (20, 2, &small), ENG_OK);
  cr_assert_eq (small.quiet_modules, 2);
  cr_assert_float_eq (small.module * (21 + 4), 20.0, 1e-9);
  cr_assert_geq (small.body_size, 1.7, "type below ~5 pt at 20 mm");

  VisStickerGeometry more_lines;
  cr_assert_eq (vis_sticker_geometry (40, 4, &more_lines), ENG_OK);
  cr_assert_gt (more_lines.height, g.height);
}

Test (vis_sticker, long_labels_need_more_lines_on_narrow_stickers)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  VisStickerText short_text = make_text (1, "s", "Cat, red, 1 point");
  VisStickerText long_text = make_text (2, "s",
    "Katua: Cat, tricolor (symbol: star), 3 points, copy 3/3, a rather long label");
  VisStickerGeometry wide, narrow;
  vis_sticker_geometry (60, 1, &wide);
  vis_sticker_geometry (15, 1, &narrow);
  int short_wide = vis_sticker_body_lines_needed (cr, &wide, &short_text);
  int long_wide = vis_sticker_body_lines_needed (cr, &wide, &long_text);
  int long_narrow = vis_sticker_body_lines_needed (cr, &narrow, &long_text);
  cr_assert_eq (short_wide, 1);
  cr_assert_gt (long_wide, short_wide);
  cr_assert_gt (long_narrow, long_wide);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Draws one sticker on a grey page at `px_per_mm`, checks the grey outside
 * its outline is untouched, and returns the PNG path (g_free). */
static char *
draw_one (const char *dir, double width_mm, double px_per_mm, const VisStickerText *text,
          int body_lines)
{
  VisStickerGeometry g;
  cr_assert_eq (vis_sticker_geometry (width_mm, body_lines, &g), ENG_OK);
  double margin = 6.0;
  int w = (int) ceil ((g.width + 2 * margin) * px_per_mm);
  int h = (int) ceil ((g.height + 2 * margin) * px_per_mm);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (s);
  cairo_set_source_rgb (cr, 0.5, 0.5, 0.5);
  cairo_paint (cr);
  cairo_scale (cr, px_per_mm, px_per_mm);
  cr_assert_eq (vis_sticker_draw (cr, margin, margin, &g, text), ENG_OK);
  cairo_destroy (cr);
  cairo_surface_flush (s);

  /* Outside the outline (plus its half line width and a pixel of
   * antialiasing) every pixel must still be the grey page. */
  const unsigned char *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  double slack = 0.1 + 1.5 / px_per_mm;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double xm = (x + 0.5) / px_per_mm, ym = (y + 0.5) / px_per_mm;
        bool outside = xm < margin - slack || ym < margin - slack
                       || xm > margin + g.width + slack || ym > margin + g.height + slack;
        if (!outside)
          continue;
        uint32_t px = *(const uint32_t *) (data + (size_t) y * stride + (size_t) x * 4);
        cr_assert_eq (px & 0xffffff, 0x808080, "pixel %d,%d outside the sticker is 0x%06x",
                      x, y, px & 0xffffff);
      }
  char name[64];
  snprintf (name, sizeof name, "sticker-%s.png", text->payload);
  char *path = g_build_filename (dir, name, NULL);
  cr_assert_eq (cairo_surface_write_to_png (s, path), CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
  return path;
}

Test (vis_sticker, decodes_and_stays_inside_its_outline)
{
  g_autofree char *dir = st_tmpdir ();
  VisStickerText big = make_text (7, "s", "Katua: Cat, blue (symbol: drop), 2 points, copy 1/2");
  VisStickerText small = make_text (8, "s",
    "An overlong label that cannot fit in two lines of a fifteen millimetre sticker at all, "
    "so it must end in an ellipsis and never spill below the outline");
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  /* 40 mm at ~150 dpi; 15 mm (modules 0.6 mm) at ~300 dpi: 7 px a module. */
  g_ptr_array_add (paths, draw_one (dir, 40, 5.9, &big, 2));
  g_ptr_array_add (paths, draw_one (dir, 15, 11.8, &small, 2));
  GPtrArray *decoded = st_zbar_decode (ZBARIMG, paths);
  cr_assert_not_null (decoded);
  const char *want[2] = { big.payload, small.payload };
  for (guint i = 0; i < 2; i++)
    {
      GPtrArray *found = decoded->pdata[i];
      cr_assert_eq (found->len, 1, "%s: %u codes", want[i], found->len);
      cr_assert_str_eq (found->pdata[0], want[i]);
    }
  g_ptr_array_unref (decoded);
  g_ptr_array_unref (paths);
  st_rm_rf (dir);
}

Test (vis_sticker, refuses_a_payload_it_cannot_encode)
{
  VisStickerGeometry g;
  vis_sticker_geometry (40, 2, &g);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 4, 4);
  cairo_t *cr = cairo_create (s);
  VisStickerText t = make_text (1, "s", "x");
  strcpy (t.payload, "not a payload");
  cr_assert_eq (vis_sticker_draw (cr, 0, 0, &g, &t), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sticker_draw (cr, 0, 0, &g, NULL), ENG_ERR_INVALID_ARGUMENT);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

#define N_TEXTS 40

static void
fill_texts (VisStickerText *texts)
{
  for (unsigned i = 0; i < N_TEXTS; i++)
    texts[i] = make_text (i + 1, i < 13 ? "First deck" : i < 30 ? "Second deck" : "Others",
                          "Katua: Cat, red (symbol: flame), 1 point, copy 1/3");
}

Test (vis_sheet, plans_a4_and_letter)
{
  VisStickerText texts[N_TEXTS];
  fill_texts (texts);
  VisSheetPlan a4, letter;
  VisSheetOptions opt = { VIS_PAPER_A4, 40, "t" };
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &a4), ENG_OK);
  cr_assert_float_eq (a4.page_width, 210.0, 1e-9);
  cr_assert_float_eq (a4.page_height, 297.0, 1e-9);
  cr_assert_eq (a4.columns, 4);
  cr_assert_eq (a4.n_sections, 3);
  cr_assert_eq (a4.n_stickers, N_TEXTS);
  cr_assert_geq (a4.n_pages, 2);
  opt.paper = VIS_PAPER_LETTER;
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &letter), ENG_OK);
  cr_assert_float_eq (letter.page_width, 215.9, 1e-9);
  cr_assert_float_eq (letter.page_height, 279.4, 1e-9);

  VisPaper paper;
  cr_assert_eq (vis_paper_from_string ("Letter", &paper), ENG_OK);
  cr_assert_eq (paper, VIS_PAPER_LETTER);
  cr_assert_eq (vis_paper_from_string ("a5", &paper), ENG_ERR_INVALID_ARGUMENT);
}

Test (vis_sheet, refuses_sizes_that_do_not_fit)
{
  VisStickerText texts[N_TEXTS];
  fill_texts (texts);
  VisSheetPlan plan;
  memset (&plan, 0x5a, sizeof plan);
  VisSheetPlan untouched = plan;
  VisSheetOptions opt = { VIS_PAPER_A4, 10, NULL };
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_ERR_INVALID_ARGUMENT);
  opt.sticker_mm = 200;   /* wider than A4 between its margins */
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_ERR_LIMIT);
  opt.sticker_mm = NAN;
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_ERR_INVALID_ARGUMENT);
  opt.sticker_mm = 40;
  cr_assert_eq (vis_sheet_plan (&opt, texts, 0, &plan), ENG_ERR_INVALID_ARGUMENT);
  strcpy (texts[5].payload, "lower case");
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_ERR_INVALID_ARGUMENT);
  cr_assert (memcmp (&plan, &untouched, sizeof plan) == 0);

  fill_texts (texts);
  double max_a4 = vis_sheet_max_sticker_mm (VIS_PAPER_A4, texts, N_TEXTS);
  cr_assert_geq (max_a4, 100);
  cr_assert_leq (max_a4, 190);
  opt.sticker_mm = max_a4;
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_OK);
  cr_assert_eq (plan.columns, 1);
  opt.sticker_mm = max_a4 + 1;
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_ERR_LIMIT);
}

Test (vis_sheet, placements_are_on_the_page_and_never_overlap)
{
  VisStickerText texts[N_TEXTS];
  fill_texts (texts);
  static const double sizes[] = { 15, 22.5, 40, 70 };
  for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      VisSheetOptions opt = { s % 2 ? VIS_PAPER_LETTER : VIS_PAPER_A4, sizes[s], NULL };
      VisSheetPlan plan;
      VisSheetPlacement at[N_TEXTS];
      cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_OK);
      cr_assert_eq (vis_sheet_place (&opt, texts, N_TEXTS, at), ENG_OK);
      double w = plan.sticker.width, h = plan.sticker.height;
      int last_page = 0;
      for (int i = 0; i < N_TEXTS; i++)
        {
          cr_assert (at[i].page >= last_page && at[i].page < plan.n_pages,
                     "%g mm sticker %d on page %d of %d", sizes[s], i, at[i].page, plan.n_pages);
          last_page = at[i].page;
          cr_assert (at[i].x >= 10 - 1e-9 && at[i].x + w <= plan.page_width - 10 + 1e-9);
          cr_assert (at[i].y >= 10 - 1e-9 && at[i].y + h <= plan.page_height - 10 + 1e-9);
          for (int j = 0; j < i; j++)
            if (at[j].page == at[i].page)
              cr_assert (at[j].x + w <= at[i].x || at[i].x + w <= at[j].x
                         || at[j].y + h <= at[i].y || at[i].y + h <= at[j].y,
                         "%g mm stickers %d and %d overlap", sizes[s], j, i);
        }
      /* A new section starts a new row, in the first column. */
      cr_assert_float_eq (at[13].x, at[0].x, 1e-9);
      cr_assert_float_eq (at[30].x, at[0].x, 1e-9);
      cr_assert (at[13].page > at[12].page || at[13].y > at[12].y);
    }
}

Test (vis_sheet, unwritable_path_is_an_io_error)
{
  VisStickerText texts[N_TEXTS];
  fill_texts (texts);
  VisSheetOptions opt = { VIS_PAPER_A4, 40, "t" };
  VisSheetPlan plan;
  cr_assert_eq (vis_sheet_write_pdf ("/nonexistent-dir/sheet.pdf", &opt, texts, N_TEXTS, &plan),
                ENG_ERR_IO);
  cr_assert_eq (vis_sheet_write_pdf (NULL, &opt, texts, N_TEXTS, &plan),
                ENG_ERR_INVALID_ARGUMENT);
}

/* Fraction of dark pixels inside a rectangle (mm) of a page drawn at
 * 2 px/mm: the stickers a page holds are there, and only those. */
static double
dark_in (cairo_surface_t *s, double x, double y, double w, double h)
{
  cairo_surface_flush (s);
  const unsigned char *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  long dark = 0, all = 0;
  for (int py = (int) (y * 2); py < (int) ((y + h) * 2); py++)
    for (int px = (int) (x * 2); px < (int) ((x + w) * 2); px++, all++)
      dark += data[(size_t) py * stride + (size_t) px * 4 + 1] < 128;
  return all ? (double) dark / all : 0;
}

Test (vis_sheet, draws_one_page_as_placed)
{
  VisStickerText texts[N_TEXTS];
  fill_texts (texts);
  VisSheetOptions opt = { VIS_PAPER_A4, 40, "t" };
  VisSheetPlan plan;
  VisSheetPlacement at[N_TEXTS];
  cr_assert_eq (vis_sheet_plan (&opt, texts, N_TEXTS, &plan), ENG_OK);
  cr_assert_eq (vis_sheet_place (&opt, texts, N_TEXTS, at), ENG_OK);
  cr_assert_geq (plan.n_pages, 2);
  for (int page = 1; page <= 2; page++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 420, 594);
      cairo_t *cr = cairo_create (s);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      cairo_scale (cr, 2, 2);
      cr_assert_eq (vis_sheet_draw_page (cr, &opt, texts, N_TEXTS, page), ENG_OK);
      cairo_destroy (cr);
      /* each sticker of this page is drawn; a slot only another page uses
       * stays white (the pages are not drawn over one another) */
      for (int i = 0; i < N_TEXTS; i++)
        {
          double fill = dark_in (s, at[i].x, at[i].y, plan.sticker.width, plan.sticker.width);
          gboolean shared = FALSE;
          for (int j = 0; j < N_TEXTS; j++)
            shared |= at[j].page == page - 1 && fabs (at[j].x - at[i].x) < plan.sticker.width
                      && fabs (at[j].y - at[i].y) < plan.sticker.height;
          if (at[i].page == page - 1)
            cr_assert_gt (fill, 0.2, "page %d: sticker %d not drawn", page, i);
          else if (!shared)
            cr_assert_lt (fill, 0.01, "page %d: sticker %d of page %d drawn on it", page, i, at[i].page + 1);
        }
      cairo_surface_destroy (s);
    }
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 10, 10);
  cairo_t *cr = cairo_create (s);
  cr_assert_eq (vis_sheet_draw_page (cr, &opt, texts, N_TEXTS, 0), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sheet_draw_page (cr, &opt, texts, N_TEXTS, plan.n_pages + 1), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_sheet_draw_page (NULL, &opt, texts, N_TEXTS, 1), ENG_ERR_INVALID_ARGUMENT);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}
