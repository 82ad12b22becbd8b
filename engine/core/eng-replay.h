/* eng-replay.h: applying a whole game record, and events as JSON.
 *
 * The replay is what `tablero-cli replay` and the record tests run: build the
 * game the record's header describes, apply each line in order and hand every
 * event to a callback.
 */
#pragma once

#include <stdbool.h>

#include "eng-game.h"
#include "eng-record.h"

typedef void (*EngReplaySink) (void *user, unsigned line, const EngEvent *event);

typedef struct {
  size_t applied;            /* moves accepted */
  size_t illegal;            /* moves refused (illegal or conservation) */
  unsigned first_illegal_line;
  bool over;
  unsigned winners;
  char tiebreak[24];
  EngGame *game;             /* the final game when keep_game was set; the
                                caller frees it (eng_game_free) */
} EngReplayResult;

/* Replays `record` on `set` with the options `base` (the rules file; may be
 * NULL) overridden by the record's own option lines.  Stops at the first
 * refused move unless keep_going.  Returns ENG_OK when the game could be set
 * up (whatever the moves did; see result->illegal), or the setup's error with
 * the reason in `why` (a malformed record).  `sink` may be NULL. */
EngStatus eng_replay (const EngRecord *record, const EngCardSet *set, const EngOptions *base,
                      bool keep_going, bool keep_game, EngReplaySink sink, void *user,
                      EngReplayResult *result, EngVerdict *why);

/* One event as a JSON object (no newline), naming players from setup.
 * Returns the snprintf-style length wanted. */
int eng_event_to_json (const EngEvent *event, const EngSetup *setup, unsigned line,
                       char *buf, size_t size);
