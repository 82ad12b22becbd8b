/* eng-name.h: what a player's name may be, one rule for every place that
 * takes one (records and journals, snapshot scripts, the setup dialog,
 * `tablero-cli watch --players`).  docs/record-format.md, "Player names".
 *
 * A name is UTF-8 text of 1 to ENG_NAME_MAX - 1 bytes that starts with a
 * letter (any script: "José", "Núria", "Ólafur") and goes on with letters,
 * combining marks, digits, '_', '-', '.', '\'' and single spaces between
 * words ("Mari Carmen": a record writes it quoted).  No space at either
 * end or two together, no other blank, no control characters, no '#'.  Two names
 * of one table may not be the same, ignoring case ("ana" and "Ana").
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  ENG_NAME_OK,
  ENG_NAME_EMPTY,
  ENG_NAME_TOO_LONG,
  ENG_NAME_NOT_UTF8,
  ENG_NAME_CONTROL,          /* a control character (C0, DEL, C1) */
  ENG_NAME_SPACE,            /* a blank other than one space between words */
  ENG_NAME_FIRST_NOT_LETTER,
  ENG_NAME_BAD_CHARACTER,    /* anything else not allowed ('#', '"', '/'...) */
} EngNameCheck;

/* Checks `len` bytes of `name` (no NUL needed). */
EngNameCheck eng_name_check (const char *name, size_t len);

/* Why a name is refused, in plain English (for a message: "'%s': %s"),
 * marked for translation; "" for ENG_NAME_OK. */
const char *eng_name_check_to_string (EngNameCheck check);

/* Whether two names are the same for a table (case ignored, UTF-8). */
bool eng_names_same (const char *a, const char *b);

/* The first name at fault among the `n` names of one table, or -1 when
 * every name is fine: *check says why (ENG_NAME_OK: it repeats an earlier
 * name). */
int eng_names_find_fault (const char *const *names, size_t n, EngNameCheck *check);
