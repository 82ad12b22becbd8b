/* eng-rng.h: the small seeded PRNG injected into every game.
 *
 * A plain value (no globals, no heap): games keep a copy inside their state,
 * so undoing a move also rewinds the generator and a replay from the same
 * seed deals the same cards.  xoshiro128** seeded through splitmix64.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t s[4];
} EngRng;

/* Any seed (0 included) gives a valid generator. */
void eng_rng_seed (EngRng *rng, uint64_t seed);
uint32_t eng_rng_next (EngRng *rng);
/* Uniform in [0, bound); returns 0 when bound is 0. */
uint32_t eng_rng_below (EngRng *rng, uint32_t bound);
/* Fisher-Yates shuffle of `n` bytes. */
void eng_rng_shuffle_u8 (EngRng *rng, uint8_t *items, size_t n);
