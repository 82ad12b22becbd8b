/* hst-io.h: games into and out of the history (docs/history.md, "Import
 * and export").
 *
 * Export writes every game (or those a filter selects) as CSV, one row per
 * player per game, for a spreadsheet; or as a play list in the shape of BG
 * Stats' JSON export (games, players, plays with playerScores), each play
 * carrying a "tablero" object with everything the history keeps, so that
 * importing the file restores the same history.
 *
 * Import reads game records and journals (docs/record-format.md: each is
 * replayed through the engine; a journal's `@id` makes it the same game as
 * the one the referee wrote), and such play lists.
 */
#pragma once

#include <glib.h>

#include "hst-store.h"

G_BEGIN_DECLS

/* The games `filter` (NULL: all) selects, newest first, as CSV text with a
 * header line (g_free); NULL with `error`. */
char *hst_export_csv (HstStore *store, const HstFilter *filter, GError **error);

/* The same games as a BG Stats-style JSON play list (g_free); NULL with
 * `error`. */
char *hst_export_json (HstStore *store, const HstFilter *filter, GError **error);

/* One game an import brought. */
typedef struct {
  char *uid;
  char *game;       /* registry name */
  gint64 id;        /* in the history */
  HstPut put;       /* added, replaced, or kept (already there) */
  guint n_moves;
  gboolean finished;
} HstImported;

void hst_imported_free (HstImported *imported);

/* Imports `len` bytes of `text` read from `source` (a name for messages):
 * a game record or journal (ending at `ended`, seconds UTC, unless its
 * `@id` says more), or a play list.  Each game brought is appended to
 * `imported` (a GPtrArray of HstImported made with
 * g_ptr_array_new_with_free_func (hst_imported_free); may be NULL).
 * Games of a play list before a bad one stay imported.  FALSE with
 * `error` (HST_STORE_ERROR_INPUT naming `source`, the line or play, and
 * why; or the store's errors). */
gboolean hst_import_text (HstStore *store, const char *text, gsize len, const char *source, gint64 ended,
                          GPtrArray *imported, GError **error);

/* The same for the file at `path` (a record ends when the file was last
 * written).  At most 64 MiB. */
gboolean hst_import_file (HstStore *store, const char *path, GPtrArray *imported, GError **error);

G_END_DECLS
