#include "vis-sticker.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define ELLIPSIS "\xe2\x80\xa6"   /* U+2026 */

static double
clamp (double v, double lo, double hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

static double
padding_for (double width)
{
  return clamp (width * 0.04, 0.8, 2.5);
}

EngStatus
vis_sticker_geometry (double width_mm, int body_lines, VisStickerGeometry *out)
{
  if (out == NULL || isnan (width_mm) || width_mm < VIS_STICKER_MIN_MM
      || width_mm > VIS_STICKER_MAX_MM || body_lines < 1
      || body_lines > VIS_STICKER_MAX_BODY_LINES)
    return ENG_ERR_INVALID_ARGUMENT;

  VisStickerGeometry g = { 0 };
  g.width = width_mm;
  g.quiet_modules = width_mm >= VIS_STICKER_WIDE_QUIET_MM ? 4 : 2;
  g.module = width_mm / (VIS_QR_SIZE + 2 * g.quiet_modules);
  /* Type grows with the sticker but never below ~5 pt, the smallest a person
   * reads comfortably at arm's length, nor above ~10 pt. */
  g.body_size = clamp (width_mm * 0.058, 1.8, 3.5);
  g.title_size = g.body_size * 1.1;
  g.payload_size = g.body_size * 0.85;
  g.body_lines = body_lines;
  double pad = padding_for (width_mm);
  g.label_height = pad * 0.25 + g.title_size * 1.3 + body_lines * g.body_size * 1.2
                   + g.payload_size * 1.4 + pad * 0.5;
  g.height = g.width + g.label_height;
  *out = g;
  return ENG_OK;
}

static double
text_width (cairo_t *cr, const char *s)
{
  cairo_text_extents_t ext;
  cairo_text_extents (cr, s, &ext);
  return ext.x_advance;
}

static size_t
utf8_prev_boundary (const char *s, size_t pos)
{
  while (pos > 0 && ((unsigned char) s[pos] & 0xC0) == 0x80)
    pos--;
  return pos;
}

/* Copies into `out` the longest prefix of `src` (n bytes) that, followed by
 * `suffix`, fits `max_width`; cut at a character boundary. */
static void
fit_prefix (cairo_t *cr, const char *src, size_t n, const char *suffix, double max_width,
            char *out, size_t out_size)
{
  size_t keep = n < out_size - 1 - strlen (suffix) ? n : out_size - 1 - strlen (suffix);
  keep = utf8_prev_boundary (src, keep);
  for (;;)
    {
      memcpy (out, src, keep);
      strcpy (out + keep, suffix);
      if (keep == 0 || text_width (cr, out) <= max_width)
        return;
      keep = utf8_prev_boundary (src, keep - 1);
    }
}

/* Greedy word wrap of `text` into lines no wider than `max_width`.  Calls
 * `emit` for each line (if non-NULL) and returns the number of lines; stops
 * after `max_lines`, ending the last one with an ellipsis when text was
 * left over. */
typedef void (*LineFunc) (cairo_t *cr, const char *line, int index, void *data);

static int
wrap_text (cairo_t *cr, const char *text, double max_width, int max_lines,
           LineFunc emit, void *data)
{
  char line[256];
  int n_lines = 0;
  const char *p = text;
  while (*p == ' ')
    p++;
  while (*p != '\0')
    {
      /* Extend the line word by word while it fits. */
      size_t best = 0;
      size_t len = 0;
      for (;;)
        {
          size_t end = len;
          while (p[end] == ' ')
            end++;
          while (p[end] != '\0' && p[end] != ' ')
            end++;
          if (end >= sizeof line)
            break;
          memcpy (line, p, end);
          line[end] = '\0';
          if (text_width (cr, line) > max_width)
            break;
          best = end;
          len = end;
          if (p[end] == '\0')
            break;
        }
      bool last = n_lines + 1 == max_lines;
      if (best == 0)
        {
          /* One word wider than the line: break it inside. */
          size_t n = strlen (p);
          fit_prefix (cr, p, n, "", max_width, line, sizeof line);
          best = strlen (line);
          if (best == 0)   /* not even one character fits: take one anyway */
            {
              best = 1;
              while (((unsigned char) p[best] & 0xC0) == 0x80)
                best++;
            }
        }
      const char *rest = p + best;
      while (*rest == ' ')
        rest++;
      if (last && *rest != '\0')
        fit_prefix (cr, p, best, ELLIPSIS, max_width, line, sizeof line);
      else
        {
          memcpy (line, p, best);
          line[best] = '\0';
        }
      if (emit != NULL)
        emit (cr, line, n_lines, data);
      n_lines++;
      p = rest;
      if (last)
        break;
    }
  return n_lines > 0 ? n_lines : 1;
}

static void
select_body_font (cairo_t *cr, const VisStickerGeometry *g)
{
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, g->body_size);
}

/* Metrics must not depend on the device the text is measured on, or a sheet
 * planned on one surface would be drawn differently on another. */
static void
unhinted_metrics (cairo_t *cr)
{
  cairo_font_options_t *opts = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (opts, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (opts, CAIRO_HINT_STYLE_NONE);
  cairo_set_font_options (cr, opts);
  cairo_font_options_destroy (opts);
}

int
vis_sticker_body_lines_needed (cairo_t *cr, const VisStickerGeometry *geometry,
                               const VisStickerText *text)
{
  if (cr == NULL || geometry == NULL || text == NULL)
    return 1;
  cairo_save (cr);
  unhinted_metrics (cr);
  select_body_font (cr, geometry);
  double pad = padding_for (geometry->width);
  int n = wrap_text (cr, text->body, geometry->width - 2 * pad, 1000, NULL, NULL);
  cairo_restore (cr);
  return n;
}

void
vis_sticker_draw_modules (cairo_t *cr, double x, double y, double module,
                          const VisQrModules *qr)
{
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_WINDING);
  cairo_new_path (cr);
  for (int row = 0; row < qr->size; row++)
    for (int col = 0; col < qr->size;)
      {
        if (!vis_qr_module_dark (qr, col, row))
          {
            col++;
            continue;
          }
        int run = 1;
        while (vis_qr_module_dark (qr, col + run, row))
          run++;
        cairo_rectangle (cr, x + col * module, y + row * module, run * module, module);
        col += run;
      }
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_fill (cr);
  cairo_restore (cr);
}

typedef struct {
  double x;
  double y;
  double line_height;
} BodyCursor;

static void
show_body_line (cairo_t *cr, const char *line, int index, void *data)
{
  const BodyCursor *c = data;
  cairo_move_to (cr, c->x, c->y + index * c->line_height);
  cairo_show_text (cr, line);
}

EngStatus
vis_sticker_draw (cairo_t *cr, double x, double y, const VisStickerGeometry *geometry,
                  const VisStickerText *text)
{
  if (cr == NULL || geometry == NULL || text == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  VisQrModules qr;
  if (vis_qr_encode (text->payload, strlen (text->payload), &qr) != ENG_OK)
    return ENG_ERR_INVALID_ARGUMENT;

  const VisStickerGeometry *g = geometry;
  double pad = padding_for (g->width);
  cairo_save (cr);
  unhinted_metrics (cr);

  cairo_rectangle (cr, x, y, g->width, g->height);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_fill_preserve (cr);
  cairo_save (cr);
  cairo_clip (cr);

  double quiet = g->quiet_modules * g->module;
  vis_sticker_draw_modules (cr, x + quiet, y + quiet, g->module, &qr);

  cairo_set_source_rgb (cr, 0, 0, 0);
  double max_width = g->width - 2 * pad;
  double baseline = y + g->width + pad * 0.25 + g->title_size;
  char line[256];

  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, g->title_size);
  fit_prefix (cr, text->title, strlen (text->title), "", max_width, line, sizeof line);
  if (strcmp (line, text->title) != 0)
    fit_prefix (cr, text->title, strlen (text->title), ELLIPSIS, max_width, line, sizeof line);
  cairo_move_to (cr, x + pad, baseline);
  cairo_show_text (cr, line);

  select_body_font (cr, g);
  baseline += g->title_size * 0.3 + g->body_size * 1.2;
  BodyCursor cursor = { x + pad, baseline, g->body_size * 1.2 };
  wrap_text (cr, text->body, max_width, g->body_lines, show_body_line, &cursor);

  baseline += (g->body_lines - 1) * g->body_size * 1.2 + g->payload_size * 1.4;
  cairo_select_font_face (cr, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, g->payload_size);
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_move_to (cr, x + pad, baseline);
  cairo_show_text (cr, text->payload);
  cairo_restore (cr);   /* the clip */

  /* Cut guide: drawn last, on the sticker's edge, so cutting along it keeps
   * the whole quiet zone. */
  static const double dash[] = { 1.2, 0.8 };
  cairo_rectangle (cr, x, y, g->width, g->height);
  cairo_set_line_width (cr, 0.15);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
  cairo_stroke (cr);
  cairo_restore (cr);
  return ENG_OK;
}
