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

#include "ui-option-docs.h"

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-snapshot.h"
#include "eng-view.h"

G_BEGIN_DECLS

#define UI_REFEREE_ERROR (ui_referee_error_quark ())
GQuark ui_referee_error_quark (void);

typedef enum {
  UI_REFEREE_ERROR_DATA,       /* a data file (set, options) failed to load */
  UI_REFEREE_ERROR_SETUP,      /* the engine refused the setup */
  UI_REFEREE_ERROR_COMMAND,    /* an unknown command, or an answer nobody asked for */
  UI_REFEREE_ERROR_CORRECTION, /* the engine refused a misread correction */
} UiRefereeError;

#define UI_TYPE_REFEREE (ui_referee_get_type ())
G_DECLARE_FINAL_TYPE (UiReferee, ui_referee, UI, REFEREE, GObject)

/* A new referee for `game` (a registry name) with `setup` (copied; players, names,
 * first player) and option overrides `options` (may be NULL: the rules file
 * as it is).  NULL with `error` set when data or setup are refused. */
UiReferee *ui_referee_new (const char *game, const EngSetup *setup, const EngOptions *options,
                           GError **error);

/* A referee that goes on with the game journaled at `journal_path` (and
 * keeps journaling there).  NULL with `error` set when the journal cannot be
 * read or no longer replays. */
UiReferee *ui_referee_resume (const char *journal_path, GError **error);

/* Journals the game to `path` whenever its record text changes (moves,
 * corrections, table notes; NULL: stop). */
void ui_referee_set_journal (UiReferee *self, const char *path);

/* Feeds one committed snapshot. */
void ui_referee_feed (UiReferee *self, const EngSnapshot *snapshot);
/* Once a camera frame: feeds the last snapshot again when the referee
 * waits on it (after a resume, a still table sends no new snapshot). */
void ui_referee_frame (UiReferee *self);

/* Runs a command by id ("end-turn", "pass", "undo", "confirm", "cancel",
 * ...), exactly as a command card would.  FALSE with `error` for an id the
 * set does not know; the rules' refusals are announcements, not errors. */
gboolean ui_referee_command (UiReferee *self, const char *command_id, GError **error);

const EngCardSet *ui_referee_get_card_set (UiReferee *self);
const EngGame *ui_referee_get_game (UiReferee *self);
const EngSetup *ui_referee_get_setup (UiReferee *self);
/* The rule switches this game's record sets (the table's choices at setup;
 * owned by the referee). */
const EngOptions *ui_referee_get_options (UiReferee *self);

/* The game so far as record text (newly allocated, g_free). */
char *ui_referee_dup_record_text (UiReferee *self);

/* What the table still has to do, newest rules first (transfer full: a
 * NULL-terminated array of strings, g_strfreev). */
char **ui_referee_dup_expectations (UiReferee *self);

/* Open questions to the table that are not expectations (a "Confirm or
 * cancel" the referee asks, "Whose card ...?"):
 * the NEEDs of the last batch that accepted a move or asked something,
 * less those listed by ui_referee_dup_expectations (transfer full,
 * g_strfreev). */
char **ui_referee_dup_questions (UiReferee *self);

/* The face serial of the card the last accepted move played (0: none), so
 * the camera view can mark it. */
guint ui_referee_get_card_in_play (UiReferee *self);

/* The rule `rule_id` of data/rules/GAME[.LANG].rules in the table's
 * language (its title, explanation, brief and group), or NULL when there
 * is none ("table", "set" and other ids that are no ruling).  Owned by the
 * referee. */
const UiRuleDoc *ui_referee_get_rule (UiReferee *self, const char *rule_id);
/* Its explanation ("K5" -> "To neutralise..."), or NULL. */
const char *ui_referee_explain_rule (UiReferee *self, const char *rule_id);

/* Learning (on by default; the "learning" setting): the first time each
 * rule comes up in this game, its brief is announced once after the batch
 * that named it, as a NOTE with the rule's id (on screen and by voice). */
void ui_referee_set_learning (UiReferee *self, gboolean learning);
gboolean ui_referee_get_learning (UiReferee *self);

/* The question naming players ("whose card is this?"): writes the candidate players
 * (0-based, the one the referee names first) into players[0..max) and
 * returns how many; 0 when nothing is asked (eng_interpreter_choice). */
guint ui_referee_get_choice (UiReferee *self, int *players, guint max);
/* Answers it with `player`.  FALSE with `error` when nothing is
 * asked any more or the player is out of range. */
gboolean ui_referee_choose_player (UiReferee *self, int player, GError **error);

/* A misread sticker: from now on the tag read as `seen_payload` is the card
 * of `actual_payload` (NULL removes the correction); moves that used the
 * wrong card are taken back and the table read again (contract 2,
 * eng_interpreter_correct_card).  The record is journaled at once.  FALSE
 * with UI_REFEREE_ERROR_CORRECTION saying why when the engine refuses. */
gboolean ui_referee_correct_card (UiReferee *self, const char *seen_payload, const char *actual_payload,
                                  GError **error);
guint ui_referee_n_corrections (UiReferee *self);
/* Correction `index` (strings owned by the engine, valid until the next
 * correction); FALSE past the end. */
gboolean ui_referee_correction (UiReferee *self, guint index, const char **seen_payload,
                                const char **actual_payload);

/* The newest snapshot fed (owned by the referee; empty before the first). */
const EngSnapshot *ui_referee_get_last_snapshot (UiReferee *self);

/* A sticker's name for people: the card's name and number ("... (card
 * 12)"), or the back of a deck ("back: ..."); the
 * payload itself when the set does not know it.  Transfer full. */
char *ui_referee_dup_card_name (UiReferee *self, const char *payload);

/* "Bea's turn · playing" or "Game over: Ana wins" (transfer full). */
char *ui_referee_dup_status (UiReferee *self);
/* What lies before `player` besides where they play, from the game's
 * public view (its places after the first: "LABEL: card, card"), and the player's
 * status; "" when nothing (transfer full). */
char *ui_referee_dup_captured (UiReferee *self, unsigned player);

/* The game's public view now (eng-view.h; owned by the referee, valid until
 * the next call).  The UI reads a game only through it. */
const EngView *ui_referee_get_view (UiReferee *self);

/* The player the table waits for now: whose decision it is (a defence, an
 * answer) if anyone's, else whose turn; -1 when nobody (not started, over). */
int ui_referee_get_waiting_for (UiReferee *self);

/* The line to read from across the table: "Bea's turn", "Bea to answer"
 * (while it is Ana's turn), "Game over: Ana wins" (transfer full). */
char *ui_referee_dup_headline (UiReferee *self);

/* TRUE when the table is expected to give the turn's own command (end the
 * turn): the game runs, the player in turn is the one deciding, and no
 * question or choice is open.  Views highlight the turn command only then. */
gboolean ui_referee_awaits_turn_command (UiReferee *self);

/* TRUE once the game is over (snapshots are then no longer refereed). */
gboolean ui_referee_is_over (UiReferee *self);

/* A readable report of the game so far (Markdown, ui-report.h): players,
 * scores and captured cats, the rule options, corrections, the moves in
 * words, everything announced and the record.  Transfer full. */
char *ui_referee_dup_report (UiReferee *self);

/* How many announcements the referee has made so far (each ::announce adds
 * one, in order: the newest is n - 1). */
guint ui_referee_n_said (UiReferee *self);

/* The rule id announcement `i` named ("" none): its details. */
const char *ui_referee_get_said_rule (UiReferee *self, guint i);

/* Announcement `i` (0-based, < ui_referee_n_said) as the table may read it
 * now: its words (the rule is ui_referee_get_said_rule), or, when it names
 * a card that is face down now
 * (back in a hand or a deck, turned down again: K20, C11, E16), words that
 * name none.  Views read old announcements again through this whenever the
 * game changes.  Transfer full. */
char *ui_referee_dup_said (UiReferee *self, guint i);

/* Signals:
 *   ::announce (guint kind, const char *text, const char *rule)
 *       one engine event worth telling the table (EngEventKind)
 *   ::changed ()   the game state changed (scores, turn, table)
 */

G_END_DECLS
