/* eng-data.h: where Tablero's data/ directory is (card sets, rule options,
 * zone layouts, scenes). */
#pragma once

/* Absolute path of `relative` inside data/: the TABLERO_DATADIR environment
 * variable when set, else the source tree's data/ when it exists (a build
 * run in place), else the installed data dir.  Returns a newly allocated
 * string (free()); NULL only when memory runs out. */
char *eng_data_path (const char *relative);
