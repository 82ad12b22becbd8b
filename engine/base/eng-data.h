/* eng-data.h: where Tablero's data/ directory is (card sets, rule options,
 * zone layouts, scenes). */
#pragma once

/* Absolute path of `relative` inside data/: the TABLERO_DATADIR environment
 * variable when set, else the source tree's data/ when it exists (a build
 * run in place), else the installed data dir.  Returns a newly allocated
 * string (free()); NULL only when memory runs out. */
char *eng_data_path (const char *relative);

#include <stddef.h>

#include "eng-status.h"

/* Reads the whole file at `path`, at most `max_bytes` of it, into a new
 * NUL-terminated buffer: *text (free()) of *len bytes, the NUL not counted.
 * On error *text is NULL and `err` (may be NULL) names the file: ENG_ERR_IO
 * when it cannot be opened or read, ENG_ERR_LIMIT when it is larger than
 * max_bytes, ENG_ERR_NO_MEMORY.  Every text format's _load_file uses it. */
EngStatus eng_read_text_file (const char *path, size_t max_bytes, char **text, size_t *len,
                              EngParseError *err);
