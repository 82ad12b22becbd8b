/* vis-sticker.h: one printable Tablero sticker drawn with cairo.
 *
 * A sticker is a white rectangle `size_mm` wide: on top a square of the same
 * side holding the QR code (vis-qr.h) and its quiet zone, beneath it a label
 * strip telling a person which physical card or place it belongs on, and the
 * payload in small type so a sticker can be checked against `tablero-cli tag`
 * by eye.  A dashed outline is the cut guide.
 *
 * All drawing is in a cairo user space measured in millimetres: the caller
 * scales its context (e.g. cairo_scale (cr, 72 / 25.4, 72 / 25.4) for PDF
 * points) before calling.  Nothing here allocates beyond cairo's own state.
 */
#pragma once

#include <cairo.h>
#include <stddef.h>

#include "eng-status.h"
#include "vis-qr.h"

/* Sticker widths the sheets accept.  Below the minimum the label becomes
 * unreadable and modules drop under 0.6 mm, which office printers blur. */
#define VIS_STICKER_MIN_MM 15.0
#define VIS_STICKER_MAX_MM 500.0   /* a sanity bound; the page decides */
#define VIS_STICKER_DEFAULT_MM 40.0
/* A sticker at least this wide gets the 4-module quiet zone of ISO 18004.
 * A narrower one keeps 2 modules, which zbar and the detector need, and puts
 * the difference into larger modules: at the default 40 mm that is 1.6 mm
 * modules instead of 1.38 mm, what decides how far away a camera reads it
 * (docs/stickers.md). */
#define VIS_STICKER_WIDE_QUIET_MM 50.0
#define VIS_STICKER_MAX_BODY_LINES 9

/* What one sticker says.  Plain value; every string NUL-terminated and
 * cut to fit (never overflowing). */
typedef struct {
  char payload[VIS_QR_MAX_PAYLOAD + 1];  /* what the QR code holds */
  char title[96];     /* first, bold line: "Card face", "Seat 2" */
  char body[256];     /* wrapped: "Cat, red (symbol: drop), 3 points, copy 1/1" */
  char section[128];  /* the sheet heading this sticker is grouped under */
} VisStickerText;

/* Where things go on a sticker of a given width; all lengths in mm. */
typedef struct {
  double width;          /* = the side of the QR square */
  int quiet_modules;     /* light modules around the symbol on every side */
  double module;         /* side of one module */
  double title_size;     /* font sizes */
  double body_size;
  double payload_size;
  int body_lines;        /* lines reserved for the wrapped body */
  double label_height;   /* the strip beneath the QR square */
  double height;         /* width + label_height */
} VisStickerGeometry;

/* Fills `out` for a sticker `width_mm` wide with `body_lines` lines of body
 * text (1..VIS_STICKER_MAX_BODY_LINES).  Returns ENG_ERR_INVALID_ARGUMENT
 * for a width outside [VIS_STICKER_MIN_MM, VIS_STICKER_MAX_MM] (or NaN), bad
 * `body_lines` or a NULL `out`, which is then untouched. */
EngStatus vis_sticker_geometry (double width_mm, int body_lines, VisStickerGeometry *out);

/* How many lines `text->body` wraps to at the width of `geometry`, measured
 * with the fonts of `cr` (its user space in mm); at least 1.  Needs no
 * particular current point; leaves `cr` as it found it. */
int vis_sticker_body_lines_needed (cairo_t *cr, const VisStickerGeometry *geometry,
                                   const VisStickerText *text);

/* Draws one sticker with its top-left corner at (x, y) mm.  Body text beyond
 * `geometry->body_lines` lines ends in an ellipsis; nothing spills outside
 * the sticker.  Returns ENG_OK; ENG_ERR_INVALID_ARGUMENT for NULL arguments
 * or a payload vis_qr_encode() refuses (then nothing is drawn). */
EngStatus vis_sticker_draw (cairo_t *cr, double x, double y,
                            const VisStickerGeometry *geometry,
                            const VisStickerText *text);

/* Draws the modules of `qr` as dark squares of side `module` with the
 * symbol's top-left at (x, y), light modules left untouched.  Adjacent dark
 * modules are merged and filled as one path without antialiasing, so
 * neither PDF viewers nor rasterisers show seams between them. */
void vis_sticker_draw_modules (cairo_t *cr, double x, double y, double module,
                               const VisQrModules *qr);
