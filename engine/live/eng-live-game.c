/* eng-live-game.c: helpers for game modules (eng-live.h): a question
 * naming one candidate at a time, a journal line of numbers. */
#include "eng-live-private.h"

#include <stdlib.h>

#include "eng-card-table.h"
#include <string.h>

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

void
eng_live_notes_numbers (EngLiveNotes *o, const char *key, const long *values, size_t n)
{
  eng_live_notes_add (o, "%s", key);
  for (size_t i = 0; i < n; i++)
    eng_live_notes_add (o, " %ld", values[i]);
  eng_live_notes_add (o, "\n");
}

int
eng_live_notes_parse_numbers (char *const *words, int n_words, const char *key, long lo, long hi,
                              long *values, size_t max)
{
  if (n_words < 1 || strcmp (words[0], key) != 0 || (size_t) (n_words - 1) > max)
    return -1;
  for (int i = 1; i < n_words; i++)
    {
      char *end;
      values[i - 1] = strtol (words[i], &end, 10);
      if (*end != '\0' || end == words[i] || values[i - 1] < lo || values[i - 1] > hi)
        return -1;
    }
  return n_words - 1;
}

void
live_mind_write (const EngLiveClass *klass, const EngLiveMind *m, EngLiveNotes *o)
{
  if (klass->mind_notes != NULL)
    {
      klass->mind_notes (m, o);
      return;
    }
  size_t n = klass->mind_size < ENG_LIVE_MIND_GAME ? klass->mind_size : ENG_LIVE_MIND_GAME;
  size_t used = 0;
  for (size_t i = 0; i < n; i++)
    used = m->game[i] != 0 ? i + 1 : used;
  if (used == 0)
    return;
  eng_live_notes_add (o, "m ");
  for (size_t i = 0; i < n; i++)
    eng_live_notes_add (o, "%02x", m->game[i]);
  eng_live_notes_add (o, "\n");
}

bool
live_mind_read (const EngLiveClass *klass, EngLiveMind *m, char *const *w, int nw)
{
  if (klass->mind_parse != NULL)
    return klass->mind_parse (m, w, nw);
  size_t n = klass->mind_size < ENG_LIVE_MIND_GAME ? klass->mind_size : ENG_LIVE_MIND_GAME;
  if (n == 0 || nw != 2 || strcmp (w[0], "m") != 0 || strlen (w[1]) != 2 * n)
    return false;
  for (size_t i = 0; i < n; i++)
    {
      char hex[3] = { w[1][2 * i], w[1][2 * i + 1], '\0' }, *end;
      unsigned long v = strtoul (hex, &end, 16);
      if (*end != '\0' || !g_ascii_isxdigit (hex[0]) || !g_ascii_isxdigit (hex[1]))
        return false;
      m->game[i] = (unsigned char) v;
    }
  return klass->mind_valid == NULL || klass->mind_valid (m);
}

uint8_t
eng_live_card_index (const EngInterpreter *live, uint16_t serial)
{
  return eng_card_table_index (eng_live_rules (live), serial);
}
