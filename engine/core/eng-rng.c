#include "eng-rng.h"

static uint64_t
splitmix64 (uint64_t *x)
{
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void
eng_rng_seed (EngRng *rng, uint64_t seed)
{
  uint64_t x = seed;
  uint64_t a = splitmix64 (&x), b = splitmix64 (&x);
  rng->s[0] = (uint32_t) a;
  rng->s[1] = (uint32_t) (a >> 32);
  rng->s[2] = (uint32_t) b;
  rng->s[3] = (uint32_t) (b >> 32);
  /* xoshiro must not start from all zeros */
  if ((rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) == 0)
    rng->s[0] = 1;
}

static inline uint32_t
rotl (uint32_t x, int k)
{
  return (x << k) | (x >> (32 - k));
}

uint32_t
eng_rng_next (EngRng *rng)
{
  uint32_t *s = rng->s;
  uint32_t result = rotl (s[1] * 5, 7) * 9;
  uint32_t t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 11);
  return result;
}

uint32_t
eng_rng_below (EngRng *rng, uint32_t bound)
{
  if (bound == 0)
    return 0;
  /* Lemire's multiply-shift; the tiny bias is irrelevant for card games
   * and keeps the generator's consumption fixed (one draw per call), which
   * makes seeded replays easy to reason about. */
  return (uint32_t) (((uint64_t) eng_rng_next (rng) * bound) >> 32);
}

void
eng_rng_shuffle_u8 (EngRng *rng, uint8_t *items, size_t n)
{
  for (size_t i = n; i > 1; i--)
    {
      size_t j = eng_rng_below (rng, (uint32_t) i);
      uint8_t t = items[i - 1];
      items[i - 1] = items[j];
      items[j] = t;
    }
}
