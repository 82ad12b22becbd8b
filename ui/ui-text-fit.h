/* ui-text-fit.h: a short text that must fit a small box: a card's name on
 * the table map, a sticker's label over the camera picture.  It is broken
 * at spaces (never inside a word) into at most a few lines, drawn smaller
 * until its longest word fits the width, and only at the smallest size
 * ellipsized ("mood card, red…").  PangoCairo, no widget: the tests draw
 * on an image surface. */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

/* A layout of `text` in Sans (bold when `bold`) on `cr`, no wider than
 * `max_width` px and at most `max_lines` lines: at `size` px when it fits,
 * else at the largest size down to `min_size` that fits, else at
 * `min_size` with the last line ellipsized.  Lines are centred.  Caller
 * owns the layout (g_object_unref).  Never NULL. */
PangoLayout *ui_text_fit_layout (cairo_t *cr, const char *text, double max_width, int max_lines,
                                 double size, double min_size, gboolean bold);

/* Whether `layout` fits: every line within `max_width` px, at most
 * `max_lines` lines, and no line break inside a word of `text`. */
gboolean ui_text_fit_check (PangoLayout *layout, double max_width, int max_lines);

/* Draws `layout` with its centre at (cx, cy) in the current source. */
void ui_text_fit_show_centred (cairo_t *cr, PangoLayout *layout, double cx, double cy);

/* The layout's size in px (ink-independent, the logical extents). */
void ui_text_fit_size (PangoLayout *layout, double *width, double *height);

G_END_DECLS
