/* eng-data.h: where Tablero's data/ directory is (card sets, rule options,
 * zone layouts, scenes). */
#pragma once

/* Absolute path of `relative` inside data/: the TABLERO_DATADIR environment
 * variable when set, else the source tree's data/ when it exists (a build
 * run in place), else the installed data dir.  Returns a newly allocated
 * string (free()); NULL only when memory runs out. */
char *eng_data_path (const char *relative);

/* The translated variant of data file `relative` for the first language of
 * `languages` that has one, else `relative` itself, as eng_data_path()
 * gives it.  `languages` is a gettext-style list ("es_ES.UTF-8:ca"): for
 * each entry the variant of the full name, then of the bare language, is
 * tried, by inserting ".LANG" before the file's extension
 * ("rules/katua.rules" -> "rules/katua.es_ES.rules", "rules/katua.es.rules");
 * an entry "C", "POSIX" or "en..." stops the search (English is the source).
 * NULL or "" means English.  Returns a newly allocated path (free()); NULL
 * only when memory runs out. */
char *eng_data_localized_path_for (const char *relative, const char *languages);

/* eng_data_localized_path_for() with the languages gettext uses for
 * messages now: none when the LC_MESSAGES locale is "C" or "POSIX" (then
 * LANGUAGE is ignored, as gettext does), else $LANGUAGE when set, else the
 * LC_MESSAGES locale's name.  So the rule explanations follow the same
 * language as the referee's messages. */
char *eng_data_localized_path (const char *relative);

#include <stddef.h>

#include "eng-status.h"

/* Reads the whole file at `path`, at most `max_bytes` of it, into a new
 * NUL-terminated buffer: *text (free()) of *len bytes, the NUL not counted.
 * On error *text is NULL and `err` (may be NULL) names the file: ENG_ERR_IO
 * when it cannot be opened or read, ENG_ERR_LIMIT when it is larger than
 * max_bytes, ENG_ERR_NO_MEMORY.  Every text format's _load_file uses it. */
EngStatus eng_read_text_file (const char *path, size_t max_bytes, char **text, size_t *len,
                              EngParseError *err);
