/* eng-record.h: the game record text format (docs/record-format.md).
 *
 * A record is how a game is saved, replayed, exported and tested: a header
 * (game, options, players in seat order, first player, seed or dealt cards)
 * then one line per move or observation as the table sees it.  The parser is
 * game-independent except for the verb names and argument shapes, which it
 * takes from the game class named on the `game` line.
 */
#pragma once

#include <stddef.h>

#include "eng-game.h"

typedef struct {
  unsigned line;     /* 1-based line of the source text; 0 when built */
  EngMove move;
} EngRecordMove;

/* A misread sticker corrected at the table: the tag read as `seen` is the
 * card of `actual` (both 11-character payloads, eng-tag.h). */
#define ENG_RECORD_MAX_CORRECTIONS 16
typedef struct {
  char seen[12];
  char actual[12];
} EngRecordCorrection;

/* A game's identity, kept by its journal across restarts (`@id`): a
 * random id the referee gives the game when it is set up, and when its
 * first move was made (seconds since 1970 UTC; 0 unknown).  The history
 * (app/history) keeps one game per id, so a game resumed after a crash is
 * one game, not two. */
#define ENG_RECORD_ID_MAX 40

typedef struct {
  const EngGameClass *klass;
  char set_id[8];            /* "" when the record does not pin a set */
  EngOptions options;        /* overrides of the rules file */
  EngSetup setup;
  EngRecordMove *moves;      /* owned */
  size_t n_moves;
  size_t cap_moves;
  /* Journal lines (docs/record-format.md, "Journal lines"): replay ignores
   * them.  The corrections in force (`@correct`), and the live referee's
   * notes on the table after the last move (`@table` lines, kept as text,
   * one line per '\n', without the keyword; NULL when there are none). */
  EngRecordCorrection corrections[ENG_RECORD_MAX_CORRECTIONS];
  size_t n_corrections;
  char *notes;               /* owned, NUL-terminated */
  size_t notes_len, notes_cap;
  char id[ENG_RECORD_ID_MAX];  /* `@id`: "" when the record has none */
  int64_t started;             /* `@id`'s start time, 0 unknown */
} EngRecord;

/* Parses a whole record.  On success *out owns a new record
 * (eng_record_free).  On failure *out is NULL, err has the line and reason,
 * and the result is ENG_ERR_SYNTAX, ENG_ERR_NOT_FOUND (unknown game),
 * ENG_ERR_LIMIT or ENG_ERR_NO_MEMORY.  Any bytes are accepted as input. */
EngStatus eng_record_parse (const char *text, size_t len, const char *source,
                            EngRecord **out, EngParseError *err);
/* Same for a file (ENG_ERR_IO when it cannot be read; at most 4 MiB). */
EngStatus eng_record_load_file (const char *path, EngRecord **out, EngParseError *err);

/* Parses one move line (no header keywords) with the players and game of
 * `record`: how a caller turns typed or observed text into an EngMove.
 * ENG_ERR_SYNTAX with the reason in err (line 1). */
EngStatus eng_record_parse_move (const EngRecord *record, const char *text, EngMove *out,
                                 EngParseError *err);

/* A new empty record for `klass` with a copy of setup/options (options may
 * be NULL); NULL on allocation failure. */
EngRecord *eng_record_new (const EngGameClass *klass, const EngSetup *setup,
                           const EngOptions *options);
/* Appends a copy of move; ENG_ERR_NO_MEMORY on failure. */
EngStatus eng_record_append (EngRecord *record, const EngMove *move, unsigned line);
void eng_record_free (EngRecord *record);

/* Sets the correction of `seen` to `actual` (replacing one of the same
 * `seen`); `actual` NULL or equal to `seen` removes it.  Payloads are 11
 * characters of [0-9A-Z].  ENG_ERR_INVALID_ARGUMENT for a bad payload,
 * ENG_ERR_LIMIT when ENG_RECORD_MAX_CORRECTIONS are held; nothing changes on
 * error. */
EngStatus eng_record_set_correction (EngRecord *record, const char *seen, const char *actual);

/* Replaces the table notes with `len` bytes of `text`: lines ending with
 * '\n', each at most 1000 printable ASCII characters (not '#'), words
 * separated by one space.  Allocates only when the text outgrows what the
 * record already holds.  ENG_ERR_INVALID_ARGUMENT for text that breaks
 * those rules, ENG_ERR_NO_MEMORY; the old notes stay on error. */
EngStatus eng_record_set_notes (EngRecord *record, const char *text, size_t len);

/* Sets the game's identity: `id` is 1 to ENG_RECORD_ID_MAX - 1 characters
 * of [0-9A-Za-z-] ("" or NULL: none, and `started` is then ignored);
 * `started` seconds since 1970 UTC, 0 unknown.  ENG_ERR_INVALID_ARGUMENT
 * (nothing changes) for an id outside those rules or a negative time. */
EngStatus eng_record_set_id (EngRecord *record, const char *id, int64_t started);

/* Writes the record as text the parser reads back identically (same
 * header, same moves; comments and line numbers are not kept).  Returns a
 * malloc'd NUL-terminated string (free()), NULL on allocation failure. */
char *eng_record_write (const EngRecord *record);

/* Player name `name` as a word of a record line: as it is, or in quotes
 * when it reads as a keyword of the record ("game") or holds a space ("Mari
 * Carmen") (docs/record-format.md, "Player names").  Returns the snprintf-style length wanted. */
int eng_record_name_word (const char *name, char *buf, size_t size);

/* One move line (no newline) with player names from setup; returns the
 * snprintf-style length wanted. */
int eng_record_format_move (const EngGameClass *klass, const EngSetup *setup,
                            const EngMove *move, char *buf, size_t size);

/* true when both records hold the same header, moves and corrections
 * (line numbers, table notes and the `@id` identity ignored). */
bool eng_record_equal (const EngRecord *a, const EngRecord *b);
