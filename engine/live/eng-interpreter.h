/* eng-interpreter.h: the live referee's interpreter (docs/interpreter.md).
 *
 * Turns successive table snapshots (eng-snapshot.h) into moves applied to
 * an EngGame, following the game's physical protocol (its EngLiveClass,
 * eng-live.h, found in the registry by the game's name: which card laid in
 * which zone is which move, what the table must tidy up after it).
 * After each accepted move it tells the table what to do next (NEED events)
 * and keeps those as expectations that the following snapshots must meet; a
 * change it cannot justify is reported (ILLEGAL / NOTE with a rule id) and
 * not applied, and the interpreter waits until the table is put right.
 *
 * What the camera cannot see comes from commands: command-card tags in a
 * snapshot, or eng_interpreter_command() called by keys and buttons; both
 * reach the same code.  The interpreter never names a face-down card.
 *
 * Not thread-safe; one interpreter per game.  Events go into caller-owned
 * EngEvents buffers; a full buffer drops events (counted), never fails.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-snapshot.h"
#include "eng-view.h"

typedef struct EngInterpreter EngInterpreter;

/* A new interpreter over `game` (ENG_ERR_NOT_SUPPORTED for a game with no
 * live referee in the registry) whose cards come from `set`.  Both are borrowed and must
 * outlive the interpreter; the interpreter is the only one applying moves to
 * the game from then on.  *out owns the interpreter (eng_interpreter_free);
 * NULL on error (ENG_ERR_INVALID_ARGUMENT, ENG_ERR_NO_MEMORY). */
EngStatus eng_interpreter_new (EngGame *game, const EngCardSet *set, EngInterpreter **out);
void eng_interpreter_free (EngInterpreter *interp);

/* Interprets one committed snapshot against the table the referee expects.
 * The first calibrated snapshot that agrees with the game's state becomes
 * the baseline: the table as the game's state has it, a new game's set-up
 * or a resumed game's places (the live class's baseline_check; a NEED says
 * what to fix until then).  Events (accepted moves, rules events, NEEDs,
 * mistakes) are appended to `out` (may be NULL).  Returns ENG_OK, or
 * ENG_ERR_INVALID_ARGUMENT for NULL interp/snap.  Mistakes at the table are
 * not errors: they are events. */
EngStatus eng_interpreter_feed (EngInterpreter *interp, const EngSnapshot *snap,
                                EngEvents *out);

/* Runs a command by its card-set id: "undo", "pause" and "confirm" /
 * "cancel" for every game, and the game's own command cards (its card
 * set's `command` lines); "new-game" is the app's business:
 * ENG_ERR_NOT_SUPPORTED.  A command refused by the rules or
 * by the table's state gives an ILLEGAL/NOTE event and ENG_OK; ENG_ERR_NOT_FOUND
 * for an id the set does not list. */
EngStatus eng_interpreter_command (EngInterpreter *interp, const char *command_id,
                                   EngEvents *out);

/* Answers the pending question that names players (the live class's
 * eng_live_ask_*: "whose card is this?") with a 0-based player.  ENG_ERR_STATE when nothing is asked,
 * ENG_ERR_INVALID_ARGUMENT for a player out of range. */
EngStatus eng_interpreter_choose_player (EngInterpreter *interp, int player, EngEvents *out);

/* A question naming players names one candidate at a time, in the order
 * the game gives them ("... Is it Bea's? Confirm, or cancel to ask about
 * Cid"; with one candidate left nothing is asked).
 * The command `confirm` answers with the named candidate, `cancel` names
 * the next one (wrapping); eng_interpreter_choose_player answers directly.
 * While the question is pending this writes the candidates (0-based players,
 * the named one first, then the others in the order cancel would name them)
 * into players[0..max) and returns how many it wrote; 0 when nothing is
 * asked (or players is NULL).  Nothing is allocated. */
size_t eng_interpreter_choice (const EngInterpreter *interp, int *players, size_t max);

/* Corrects a misread: from now on a tag read as `seen_payload` is taken for
 * the card of `actual_payload` (both are sticker payloads, eng-tag.h, of
 * this interpreter's card set, both face tags (kind F) of the same deck).
 * If moves accepted since that card came into play used the misread
 * identity, they are taken back and the table as it lies now is read again
 * with the correction (the table is not asked to be put back: only its
 * reading was wrong); a NOTE says what was corrected and re-read.
 * `actual_payload` NULL, or equal to `seen_payload`, removes the correction
 * of `seen_payload`.  The correction is kept in the record (journal:
 * docs/record-format.md), so a resumed game keeps it.  Events go to `out`
 * (may be NULL).  Returns ENG_OK; ENG_ERR_INVALID_ARGUMENT for NULL
 * interp/seen_payload, a payload that is not a face tag, or two cards of
 * different decks; ENG_ERR_NOT_FOUND for a payload not in the set;
 * ENG_ERR_LIMIT when too many corrections are held; ENG_ERR_NO_MEMORY.  On
 * error nothing changes. */
EngStatus eng_interpreter_correct_card (EngInterpreter *interp, const char *seen_payload,
                                        const char *actual_payload, EngEvents *out);

/* The corrections in force, oldest first: the count, and correction
 * `index` as payloads (strings owned by the interpreter, valid until the
 * next correction; either out pointer may be NULL).  false past the end. */
size_t eng_interpreter_n_corrections (const EngInterpreter *interp);
bool eng_interpreter_correction (const EngInterpreter *interp, size_t index,
                                 const char **seen_payload, const char **actual_payload);

/* Resuming: a game rebuilt from its journaled record (eng_replay with
 * keep_game) gets a new interpreter; this copies the record's moves so that
 * eng_interpreter_record() goes on from them.  The first snapshot must then
 * agree with the game's state (see eng_interpreter_feed).  Moves made before
 * the restart cannot be undone from the table.  ENG_ERR_STATE when this
 * interpreter's record already holds moves (applied or adopted),
 * ENG_ERR_NO_MEMORY (the record is then left empty). */
EngStatus eng_interpreter_adopt_record (EngInterpreter *interp, const EngRecord *record);
/* How long the referee was away before adopting a journal (a restart: the
 * journal's age), 0 when unknown or none.  When positive, the looks of the
 * first seconds after the resume may show what the table did meanwhile,
 * several moves at once, and are read as such (docs/interpreter.md, "After
 * a restart"); when 0, every look is read as it comes.  Does nothing for
 * a NULL interp or a negative time. */
void eng_interpreter_set_away (EngInterpreter *interp, int64_t away_ns);

/* The option overrides (on top of the rules file) the game was made with,
 * written in the record's header so that it replays alike; `overrides` NULL
 * clears them.  ENG_ERR_STATE once the record holds moves.  (The resumed
 * record's own options are kept by eng_interpreter_adopt_record.) */
EngStatus eng_interpreter_set_record_options (EngInterpreter *interp, const EngOptions *overrides);

/* The game's identity in its record (`@id`, eng_record_set_id): who
 * keeps a history gives a new game its id, and stamps the time of its
 * first move; a resumed record's identity is adopted with it.  Allowed at
 * any time (the identity is not a move).  ENG_ERR_INVALID_ARGUMENT as
 * eng_record_set_id. */
EngStatus eng_interpreter_set_record_id (EngInterpreter *interp, const char *id, int64_t started);

/* The moves applied so far, as a game record (setup of the game, one move
 * per accepted move; undo removes the last).  Owned by the interpreter. */
const EngRecord *eng_interpreter_record (const EngInterpreter *interp);

/* What the table still has to do: the number of open expectations and the
 * text of each (owned by the interpreter, valid until the next call that
 * changes it).  NULL past the end. */
size_t eng_interpreter_n_expectations (const EngInterpreter *interp);
const char *eng_interpreter_expectation (const EngInterpreter *interp, size_t index);

/* Whether the interpreter wants the latest look fed again although it did
 * not change: after a resume it waits, for a few looks, until the new
 * tracker has found the cards again, and a still table sends no new look.
 * The caller then feeds its last snapshot once a frame. */
bool eng_interpreter_wants_looks (const EngInterpreter *interp);

/* true once a baseline snapshot was accepted. */
bool eng_interpreter_started (const EngInterpreter *interp);
/* true while the interpreter waits for the table to be put back after an
 * undo (card changes are not interpreted meanwhile). */
bool eng_interpreter_restoring (const EngInterpreter *interp);

/* Whether card `serial` may be named on screen now: it lies open by the
 * rules (EngGameClass.card_public) or its face is up on the table in the
 * last look (a cat shown and not yet turned down again).  K20, C11, E16. */
bool eng_interpreter_card_open (const EngInterpreter *interp, unsigned serial);

/* The game class of the game refereed. */
const EngGameClass *eng_interpreter_game_class (const EngInterpreter *interp);

/* What everyone at the table may see (eng-view.h) into caller-owned
 * `view`: the game's public view and what only the live referee knows
 * (whose answer it waits for).  Never a face that is down now. */
void eng_interpreter_public_view (const EngInterpreter *interp, EngView *view);
