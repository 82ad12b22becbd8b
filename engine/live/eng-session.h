/* eng-session.h: everything one refereed game needs, loaded from data/.
 *
 * A session owns the card set (data/cards/GAME.set), the rule options
 * (data/rules/GAME.options with the caller's overrides on top), the EngGame
 * and the live interpreter over it.  The app and `tablero-cli watch` build
 * their referee from this, so both referee exactly the same way.
 */
#pragma once

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-interpreter.h"
#include "eng-rng.h"

typedef struct EngSession EngSession;

/* A new session for `game` (a registry name) with `setup` (copied) and option
 * `overrides` (may be NULL).  Its record gets a new random identity
 * (`@id`, eng_record_set_id) that its journal keeps.  `seed` seeds the rules' RNG (shuffles the
 * engine performs itself).  On success *out owns the session
 * (eng_session_free).  On failure *out is NULL and `why` (may be NULL) says
 * why in one line: ENG_ERR_NOT_FOUND for an unknown game, the loaders'
 * statuses for a bad data file (with file and line), the engine's for a
 * refused setup. */
EngStatus eng_session_new (const char *game, const EngSetup *setup, const EngOptions *overrides,
                           uint64_t seed, EngSession **out, char *why, size_t why_size);
/* Rebuilds a session from a journaled game record (the file `tablero-cli
 * watch --record` and the app keep up to date): the record's game, options
 * and setup, its moves replayed, and an interpreter that goes on from them
 * (eng_interpreter_adopt_record).  Errors as eng_session_new, plus the record
 * parser's, and ENG_ERR_INCONSISTENT when a saved move no longer replays. */
EngStatus eng_session_resume (const char *record_path, EngSession **out, char *why,
                              size_t why_size);
void eng_session_free (EngSession *session);

/* Borrowed views; they live as long as the session. */
const EngCardSet *eng_session_card_set (const EngSession *session);
EngGame *eng_session_game (EngSession *session);
EngInterpreter *eng_session_interpreter (EngSession *session);

/* Removes the temporary files a write of the journal at `journal_path`
 * left behind when it was killed mid-write ("journal.rec.XXXXXX" beside
 * it: g_file_set_contents writes one and renames it).  Returns how many
 * were removed (0 when the folder cannot be read). */
unsigned eng_session_clean_journal_leftovers (const char *journal_path);
