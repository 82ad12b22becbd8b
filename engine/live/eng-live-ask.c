/* eng-live-ask.c: a question naming one candidate at a time (eng-live.h). */
#include "eng-live.h"

static size_t
position (const int *cand, size_t n, int named)
{
  size_t i = 0;
  while (i < n && cand[i] != named)
    i++;
  return i == n ? 0 : i;
}

int
eng_live_ask_named (const int *cand, size_t n, int named)
{
  return n == 0 ? -1 : cand[position (cand, n, named)];
}

int
eng_live_ask_next (const int *cand, size_t n, int named)
{
  return n == 0 ? -1 : cand[(position (cand, n, named) + 1) % n];
}

bool
eng_live_ask_choice (const int *cand, size_t n, int named, EngLiveChoice *out)
{
  size_t first = position (cand, n, named);
  out->n = 0;
  for (size_t i = 0; i < n && i < ENG_MAX_PLAYERS; i++)
    out->player[out->n++] = cand[(first + i) % n];
  return n > 0;
}
