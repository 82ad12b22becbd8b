/* fuzz-util.h: what every libFuzzer target here needs the same way.
 *
 * libFuzzer calls back with no user pointer, so each registered game's card
 * set and rule options live in these globals for the process: loaded once by
 * fuzz_load_games() from LLVMFuzzerInitialize, read-only afterwards.  A game
 * whose set does not load has a NULL set (its inputs are only parsed). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-cardset.h"
#include "eng-game.h"

#define FUZZ_MAX_INPUT 65536   /* longer inputs are skipped: each run stays short */
#define FUZZ_MAX_GAMES 8

extern EngCardSet *fuzz_sets[FUZZ_MAX_GAMES];
extern EngOptions fuzz_options[FUZZ_MAX_GAMES];

/* Loads data/cards/GAME.set and data/rules/GAME.options of every registered
 * game (under TABLERO_DATADIR, else ./data). */
void fuzz_load_games (void);

/* An exact-size heap copy of the input (malloc; free it), so a parser that
 * reads past `size` looking for a NUL is caught.  NULL when out of memory. */
char *fuzz_text (const uint8_t *data, size_t size);

/* A parser's refusal must leave no result (`made` false) and say why: a
 * non-empty, NUL-terminated reason.  Aborts otherwise. */
void fuzz_check_refusal (bool made, const EngParseError *err);
