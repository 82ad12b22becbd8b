/* eng-live-script.h: snapshot scripts, a public format
 * (docs/snapshot-script-format.md, which lists every keyword this parser
 * accepts).
 *
 * A script describes a table of any registered game as it changes:
 * physical cards by serial laid face up or face down at zones, command
 * cards shown, keys pressed, and the committed snapshots (`snap`) the
 * camera pipeline would deliver; `expect` lines state what the referee
 * must have said and done.  Users write them: `tablero-cli scene` renders
 * one into a camera scene (every line names a physical card and where it
 * lies), `tablero-cli bench latency` measures the referee on one, and each
 * game's demo is one; the tests run them through the interpreter.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-interpreter.h"
#include "eng-snapshot.h"

typedef struct EngLiveScript EngLiveScript;

/* Parses a whole script.  Only the syntax is checked here (keywords,
 * argument counts, numbers, zones, player names); card serials are checked
 * against the set when the script runs.  *out owns a new script
 * (eng_live_script_free); on error *out is NULL and err holds the line and
 * the reason: ENG_ERR_SYNTAX, ENG_ERR_LIMIT, ENG_ERR_NO_MEMORY,
 * ENG_ERR_INVALID_ARGUMENT (NULL text or out).  Any bytes are safe. */
EngStatus eng_live_script_parse (const char *text, size_t len, const char *source,
                                 EngLiveScript **out, EngParseError *err);
/* Same for a file (ENG_ERR_IO when it cannot be read; at most 1 MiB). */
EngStatus eng_live_script_load_file (const char *path, EngLiveScript **out,
                                     EngParseError *err);
void eng_live_script_free (EngLiveScript *script);

/* The players the script seats (names in seat order). */
const EngSetup *eng_live_script_setup (const EngLiveScript *script);
/* The game the script plays (its `game` line, else the registry's first). */
const EngGameClass *eng_live_script_game (const EngLiveScript *script);

/* The script's own option switches (`option` lines), on top of the
 * defaults.  Owned by the script. */
const EngOptions *eng_live_script_options (const EngLiveScript *script);

/* ---- reading a script's statements (to render it as a camera scene) ---- */

typedef enum {
  ENG_LIVE_OP_PUT, ENG_LIVE_OP_FLIP, ENG_LIVE_OP_MOVE, ENG_LIVE_OP_REMOVE, ENG_LIVE_OP_DEAL,
  ENG_LIVE_OP_COMMAND, ENG_LIVE_OP_KEY, ENG_LIVE_OP_CHOOSE, ENG_LIVE_OP_SNAP, ENG_LIVE_OP_EXPECT,
  ENG_LIVE_OP_MISREAD,    /* cards[0] is read as cards[1] (n_cards 1: read right again) */
  ENG_LIVE_OP_CORRECT,    /* the table corrects cards[0] to cards[1] (n_cards 1: removed) */
  ENG_LIVE_OP_RESTART     /* the referee is killed and resumed from its journal */
} EngLiveOpKind;

#define ENG_LIVE_SCRIPT_MAX_CARDS 8   /* cards one `deal` lays */
#define ENG_LIVE_SCRIPT_MAX_INDEX 8   /* slot and attack indices a script names */

/* One statement after the header, as parsed (plain value; `text` points
 * into the script and lives as long as it). */
typedef struct {
  unsigned line;
  EngLiveOpKind kind;
  uint16_t cards[ENG_LIVE_SCRIPT_MAX_CARDS]; /* put/flip/move/remove: cards[0]; deal: the
                             cards dealt face down; misread/correct: two */
  unsigned n_cards;
  bool face;              /* put: face up */
  EngZone zone;           /* put/move: where; deal: the seat's slot 0 */
  int player;             /* choose, expect score/turn: 0-based; else -1 */
  int number;             /* expect score/todo/moves */
  const char *expect;     /* expect: "move", "need", "say", "illegal", "note", "quiet",
                             "score", "turn", "winner", "over", "todo", "moves"; else "" */
  const char *text;       /* command/key id; expect move/need/say/illegal/note text */
} EngLiveScriptOp;

/* Number of statements, and statement `index` into *out; false past the end. */
size_t eng_live_script_n_ops (const EngLiveScript *script);
bool eng_live_script_op (const EngLiveScript *script, size_t index, EngLiveScriptOp *out);

/* Called for every event the interpreter emits, with the script line that
 * caused it. */
typedef void (*EngLiveScriptSink) (void *user, unsigned line, const EngEvent *event);

typedef struct {
  size_t snapshots;          /* snapshots fed */
  size_t moves;              /* moves the interpreter applied (net of undo) */
  size_t expects;            /* expect lines checked */
  size_t failures;           /* expect lines that did not hold */
  unsigned first_failure_line;
  char first_failure[256];   /* "line N: reason" of the first failure */
  bool over;
  unsigned winners;          /* bitmask, as eng_game_winners */
  int scores[ENG_MAX_PLAYERS];
  char *record;              /* the moves applied, as a game record text
                                (eng_record_write; compare with
                                eng_record_parse + eng_record_equal); the
                                caller frees it with free(); NULL when the
                                run failed or memory ran out */
} EngLiveScriptResult;

/* Runs `script` on a fresh live game of the script's game (its `game` line;
 * `set` must be that game's card set; no seed: the referee knows
 * only what the table shows) with the option switches `options` (may be
 * NULL) plus the script's own.  Every expect line is checked; a failing one
 * is counted and the run goes on.  Returns ENG_OK when the script could run
 * to its end (whatever its expectations gave: see result->failures), or
 * ENG_ERR_SYNTAX / ENG_ERR_INVALID_ARGUMENT with err naming the line when
 * the script asks the impossible (a card not in the set, moving a card not
 * on the table, a bad setup).  `sink` may be NULL. */
EngStatus eng_live_script_run (const EngLiveScript *script, const EngCardSet *set,
                               const EngOptions *options, EngLiveScriptSink sink, void *user,
                               EngLiveScriptResult *result, EngParseError *err);

/* Called on each `choose` line before it is answered, with the candidates
 * of the question the referee asks then (eng_interpreter_choice: the one
 * it names first, then in the order `cancel` names them); n 0 when nothing
 * is asked. */
typedef void (*EngLiveScriptChoiceSink) (void *user, unsigned line, const int *players, size_t n);

/* eng_live_script_run with no options and no event sink, telling
 * `choices` what each `choose` line answers (the command cards that answer
 * it on a real table: calibration's scene generation). */
EngStatus eng_live_script_run_choices (const EngLiveScript *script, const EngCardSet *set,
                                       EngLiveScriptChoiceSink choices, void *user,
                                       EngLiveScriptResult *result, EngParseError *err);

/* eng_live_script_run, but the referee is killed right after the first `kill_after`
 * snapshots and a new one resumes from its journal, as eng_session_resume
 * does (the record written as text and parsed back, replayed by the rules,
 * a new interpreter adopting it); the run then goes on, expect lines
 * included.  0 never kills (`restart` lines in the script still do).  A
 * journal that does not resume stops the run with ENG_ERR_INCONSISTENT. */
EngStatus eng_live_script_run_killed (const EngLiveScript *script, const EngCardSet *set,
                                      const EngOptions *options, size_t kill_after,
                                      EngLiveScriptSink sink, void *user,
                                      EngLiveScriptResult *result, EngParseError *err);
