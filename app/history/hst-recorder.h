/* hst-recorder.h: the live referee's memory (docs/history.md, "Live games").
 *
 * The window and `tablero-cli watch` each keep one recorder beside their
 * session.  It watches what the referee says: it stamps the game's
 * identity in its record (`@id`, kept by the journal, so a game resumed
 * after a crash stays one game) with the time of the first move, and notes
 * every refusal by rule in the history as it happens.  When the game ends,
 * or is left after its first move, hst_recorder_finish writes it whole.
 *
 * The history never stops the referee: a history that cannot be opened or
 * written is said (hst_recorder_take_notice, the errors returned) and the
 * game on the table goes on as if nothing happened.
 */
#pragma once

#include <glib.h>

#include "eng-interpreter.h"
#include "hst-store.h"

G_BEGIN_DECLS

typedef struct HstRecorder HstRecorder;

/* A recorder writing to the history at `path` (NULL:
 * hst_store_default_path), opened when first needed. */
HstRecorder *hst_recorder_new (const char *path);
void hst_recorder_free (HstRecorder *recorder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HstRecorder, hst_recorder_free)

/* Call after every batch of events `interp` gave (a look, a command, a
 * correction), before the journal is written: stamps the record's
 * identity, notes the refusals, and writes the game when the batch ends
 * it (hst_recorder_finish).  Never fails: what goes wrong is kept for
 * hst_recorder_take_notice.  Nothing is allocated unless a refusal or the
 * game's end is in the batch. */
void hst_recorder_observe (HstRecorder *recorder, EngInterpreter *interp, const EngEvents *events);

/* Writes the game `interp` refereed (when it has a move, and it changed
 * since the last write): when the table leaves it.  *put (may be NULL)
 * says what the history did (the last write's, when nothing changed since);
 * *id (may be NULL) receives the game's id there (0 when it has no move).
 * FALSE with `error`. */
gboolean hst_recorder_finish (HstRecorder *recorder, EngInterpreter *interp, HstPut *put, gint64 *id,
                              GError **error);

/* A sentence the table should read once (a damaged history was set aside,
 * the history cannot be used), or NULL.  Newly allocated (g_free). */
char *hst_recorder_take_notice (HstRecorder *recorder);

G_END_DECLS
