/* vis-sheet.h: sticker sheets, laid out on pages and written as a PDF.
 *
 * The sheet knows nothing of card sets: it takes the stickers' texts in
 * order (vis-set-stickers.h makes them from a set) and starts a new section,
 * with its heading, whenever VisStickerText.section changes, so a person
 * finds the stickers of one deck together.  Every page carries a header with
 * the document title, the sticker size, the page number and a 50 mm scale bar
 * to check that the printer did not scale.
 */
#pragma once

#include <stddef.h>

#include "eng-status.h"
#include "vis-sticker.h"

typedef enum {
  VIS_PAPER_A4,
  VIS_PAPER_LETTER,
} VisPaper;

typedef struct {
  VisPaper paper;
  double sticker_mm;      /* sticker width, VIS_STICKER_MIN_MM.. */
  const char *title;      /* header line, e.g. "GAME — set 01"; may be NULL */
} VisSheetOptions;

/* The layout of a whole document; plain value. */
typedef struct {
  VisStickerGeometry sticker;
  double page_width;      /* mm */
  double page_height;
  int columns;
  int rows;               /* rows on a page without section headings */
  size_t n_stickers;
  size_t n_sections;
  int n_pages;
} VisSheetPlan;

/* "a4" or "letter" (case-insensitive) into *out; ENG_ERR_INVALID_ARGUMENT
 * otherwise, *out untouched. */
EngStatus vis_paper_from_string (const char *name, VisPaper *out);
const char *vis_paper_to_string (VisPaper paper);

/* Lays out `n` stickers (n >= 1) without drawing.  Returns ENG_OK and fills
 * `out`; ENG_ERR_INVALID_ARGUMENT for NULL arguments, n == 0, a payload
 * vis_qr_encode() refuses, or a size below VIS_STICKER_MIN_MM (or NaN);
 * ENG_ERR_LIMIT when one sticker and a section heading do not fit within a
 * page's margins.  `out` is untouched on error. */
EngStatus vis_sheet_plan (const VisSheetOptions *options, const VisStickerText *stickers,
                          size_t n, VisSheetPlan *out);

/* Where one sticker lands: its page (0-based) and the top-left corner of its
 * cut outline, in mm from the page's top-left corner.  The sticker's extent
 * is the plan's sticker width and height. */
typedef struct {
  int page;
  double x;
  double y;
} VisSheetPlacement;

/* Fills `placements` (n caller-owned entries, in the order of `stickers`)
 * with where vis_sheet_write_pdf() draws each sticker: for cutting tools,
 * and for tests that look at one sticker at a time.  Returns what
 * vis_sheet_plan() returns (ENG_ERR_INVALID_ARGUMENT too for a NULL
 * `placements`, which is untouched on error). */
EngStatus vis_sheet_place (const VisSheetOptions *options, const VisStickerText *stickers,
                           size_t n, VisSheetPlacement *placements);

/* The largest whole-millimetre sticker width that fits `paper` for these
 * stickers (their labels decide the height); 0 when even the minimum does not. */
double vis_sheet_max_sticker_mm (VisPaper paper, const VisStickerText *stickers, size_t n);

/* Writes the sheets as a PDF to `path` (created or truncated).  Returns what
 * vis_sheet_plan() returns, or ENG_ERR_IO when the file cannot be written;
 * `plan_out` (may be NULL) receives the layout on success.  On error the file
 * may exist half-written: callers write to a temporary name and rename. */
EngStatus vis_sheet_write_pdf (const char *path, const VisSheetOptions *options,
                               const VisStickerText *stickers, size_t n,
                               VisSheetPlan *plan_out);

/* Draws page `page` (1..plan's n_pages) of the sheets into `cr`, in mm from
 * the page's top-left corner (scale the context to the device first), as
 * vis_sheet_write_pdf() draws it: for previews and print dialogs.  Returns
 * what vis_sheet_plan() returns, or ENG_ERR_INVALID_ARGUMENT for a NULL
 * `cr` or a page out of range (nothing drawn). */
EngStatus vis_sheet_draw_page (cairo_t *cr, const VisSheetOptions *options,
                               const VisStickerText *stickers, size_t n, int page);
