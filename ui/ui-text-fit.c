#include "ui-text-fit.h"

static void
set_size (PangoLayout *layout, double size, gboolean bold)
{
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
}

gboolean
ui_text_fit_check (PangoLayout *layout, double max_width, int max_lines)
{
  if (pango_layout_get_line_count (layout) > max_lines)
    return FALSE;
  const char *text = pango_layout_get_text (layout);
  for (GSList *l = pango_layout_get_lines_readonly (layout); l != NULL; l = l->next)
    {
      PangoLayoutLine *line = l->data;
      PangoRectangle logical;
      pango_layout_line_get_pixel_extents (line, NULL, &logical);
      if (logical.width > max_width + 0.5)
        return FALSE;
      /* a line that starts right after a letter broke a word */
      int start = pango_layout_line_get_start_index (line);
      if (start > 0 && text[start - 1] != ' ' && text[start - 1] != '\n' && text[start - 1] != '-')
        return FALSE;
    }
  return TRUE;
}

PangoLayout *
ui_text_fit_layout (cairo_t *cr, const char *text, double max_width, int max_lines,
                    double size, double min_size, gboolean bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  pango_layout_set_text (layout, text != NULL ? text : "", -1);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  pango_layout_set_width (layout, (int) (MAX (max_width, 1) * PANGO_SCALE));
  /* half a pixel a step: the largest size that fits */
  for (double s = size; s >= min_size; s -= 0.5)
    {
      set_size (layout, s, bold);
      if (ui_text_fit_check (layout, max_width, max_lines))
        return layout;
    }
  set_size (layout, min_size, bold);
  pango_layout_set_height (layout, -max_lines);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  return layout;
}

void
ui_text_fit_size (PangoLayout *layout, double *width, double *height)
{
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  *width = logical.width;
  *height = logical.height;
}

void
ui_text_fit_show_centred (cairo_t *cr, PangoLayout *layout, double cx, double cy)
{
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  /* the layout's box is its set width; its lines are centred in it */
  double box = pango_layout_get_width (layout) / (double) PANGO_SCALE;
  cairo_move_to (cr, cx - box / 2, cy - logical.height / 2.0 - logical.y);
  pango_cairo_show_layout (cr, layout);
}
