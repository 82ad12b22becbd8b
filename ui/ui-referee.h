/* ui-referee.h: the game being refereed, as the app sees it.
 *
 * Owns the card set, the rule options, the EngGame and the live interpreter
 * for one game.  Snapshots from the camera pipeline and commands from keys,
 * buttons and command cards all go through it to the engine; what the engine
 * says comes back as ::announce signals, and ::changed tells views to read
 * the new state.  Main thread only.
 */
#pragma once

#include <glib-object.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-snapshot.h"

G_BEGIN_DECLS

#define UI_REFEREE_ERROR (ui_referee_error_quark ())
GQuark ui_referee_error_quark (void);

typedef enum {
  UI_REFEREE_ERROR_DATA,       /* a data file (set, options) failed to load */
  UI_REFEREE_ERROR_SETUP,      /* the engine refused the setup */
  UI_REFEREE_ERROR_COMMAND,    /* an unknown command */
} UiRefereeError;

#define UI_TYPE_REFEREE (ui_referee_get_type ())
G_DECLARE_FINAL_TYPE (UiReferee, ui_referee, UI, REFEREE, GObject)

/* A new referee for `game` ("katua") with `setup` (copied; players, names,
 * first player) and option overrides `options` (may be NULL: the rules file
 * as it is).  NULL with `error` set when data or setup are refused. */
UiReferee *ui_referee_new (const char *game, const EngSetup *setup, const EngOptions *options,
                           GError **error);

/* A referee that goes on with the game journaled at `journal_path` (and
 * keeps journaling there).  NULL with `error` set when the journal cannot be
 * read or no longer replays. */
UiReferee *ui_referee_resume (const char *journal_path, GError **error);

/* Journals the game to `path` after every accepted move (NULL: stop). */
void ui_referee_set_journal (UiReferee *self, const char *path);

/* Feeds one committed snapshot. */
void ui_referee_feed (UiReferee *self, const EngSnapshot *snapshot);

/* Runs a command by id ("end-turn", "pass", "undo", "confirm", "cancel",
 * ...), exactly as a command card would.  FALSE with `error` for an id the
 * set does not know; the rules' refusals are announcements, not errors. */
gboolean ui_referee_command (UiReferee *self, const char *command_id, GError **error);

const EngCardSet *ui_referee_get_card_set (UiReferee *self);
const EngGame *ui_referee_get_game (UiReferee *self);
const EngSetup *ui_referee_get_setup (UiReferee *self);

/* The game so far as record text (newly allocated, g_free). */
char *ui_referee_dup_record_text (UiReferee *self);

/* What the table still has to do, newest rules first (transfer full: a
 * NULL-terminated array of strings, g_strfreev). */
char **ui_referee_dup_expectations (UiReferee *self);

/* The face serial of the card the last accepted move played (0: none), so
 * the camera view can mark it. */
guint ui_referee_get_card_in_play (UiReferee *self);

/* The plain-English explanation of a rule id from data/rules/GAME.rules
 * ("K5" -> "To neutralise..."), or NULL when there is none.  Owned by the
 * referee. */
const char *ui_referee_explain_rule (UiReferee *self, const char *rule_id);

/* Signals:
 *   ::announce (guint kind, const char *text, const char *rule)
 *       one engine event worth telling the table (EngEventKind)
 *   ::changed ()   the game state changed (scores, turn, table)
 */

G_END_DECLS
