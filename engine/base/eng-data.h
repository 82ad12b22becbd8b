/* eng-data.h: where Tablero's data/ directory is (card sets, rule options,
 * zone layouts, scenes). */
#pragma once

/* Tablero's data directory, first match wins:
 *   1. the TABLERO_DATADIR environment variable, when set and not empty;
 *   2. the source tree's data/, when the running executable lives under
 *      the build root (a build run in place, tests included);
 *   3. "../share/tablero" relative to the executable's own directory (from
 *      /proc/self/exe), when it exists, so an installed tree works wherever
 *      it was unpacked (a DESTDIR, a relocated prefix);
 *   4. the data dir the build was configured to install into.
 * Returns a string owned by the process (never freed), never NULL.
 * docs/architecture.md, "Install and data lookup". */
const char *eng_data_dir (void);

/* Absolute path of `relative` inside eng_data_dir().  Returns a newly
 * allocated string (free()); NULL only when memory runs out. */
char *eng_data_path (const char *relative);

/* The translated variant of data file `relative` for the first language of
 * `languages` that has one, else `relative` itself, as eng_data_path()
 * gives it.  `languages` is a gettext-style list ("es_ES.UTF-8:ca"): for
 * each entry the variant of the full name, then of the bare language, is
 * tried, by inserting ".LANG" before the file's extension
 * ("rules/NAME.rules" -> "rules/NAME.es_ES.rules", "rules/NAME.es.rules");
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
