/* kittens-test.h: what only the Exploding Kittens engine tests add to
 * game-test.h: an edited copy of the bundled set, and queries of the state. */
#pragma once

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-view.h"
#include "game-test.h"
#include "kittens.h"

static inline char *
kx_read (const char *rel, size_t *len)
{
  char *path = gt_data_path (rel);
  FILE *f = fopen (path, "rb");
  cr_assert_not_null (f, "%s", path);
  free (path);
  char *text = calloc (1, 65536);
  *len = fread (text, 1, 65535, f);
  fclose (f);
  return text;
}

/* The bundled set with extra cards: `edits` is a list of "type-id count"
 * pairs ("feral-cat 2"); the deck total grows by as much. */
static inline EngCardSet *
kx_load_set (const char *const *edits, size_t n_edits)
{
  size_t len;
  char *text = kx_read ("cards/kittens.set", &len);
  int added = 0;
  for (size_t i = 0; i < n_edits; i++)
    {
      char id[48];
      int count = 0;
      cr_assert_eq (sscanf (edits[i], "%47s %d", id, &count), 2);
      char pat[64];
      snprintf (pat, sizeof pat, "\ncard %s ", id);
      char *line = strstr (text, pat);
      cr_assert_not_null (line, "kittens.set has no card type %s", id);
      char *cnt = strstr (line, "count=0");
      cr_assert_not_null (cnt, "%s is not at count 0 in kittens.set", id);
      cnt[6] = (char) ('0' + count);
      added += count;
    }
  if (added > 0)
    {
      char *tot = strstr (text, "total=56");
      cr_assert_not_null (tot);
      cr_assert_lt (added, 44, "at most 99 cards");
      char buf[16];
      snprintf (buf, sizeof buf, "%d", (56 + added) % 100);
      tot[6] = buf[0];
      tot[7] = buf[1];
    }
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  EngStatus st = eng_card_set_parse (text, strlen (text), "kittens.set", &set, &err);
  cr_assert_eq (st, ENG_OK, "kittens.set: %u %s", err.line, err.reason);
  free (text);
  return set;
}

static inline const KitState *
kx_state (const GameTest *t)
{
  return eng_game_state (t->game);
}

static inline const KitRules *
kx_rules (const GameTest *t)
{
  return eng_game_rules (t->game);
}

/* How many cards of `kind` lie in p's hand / the pile (known ones). */
static inline int
kx_hand_kind (const GameTest *t, int p, unsigned kind)
{
  const KitState *s = kx_state (t);
  const KitRules *r = kx_rules (t);
  int n = 0;
  for (int i = 0; i < s->hand_n[p]; i++)
    n += s->hand[p][i] < r->n_cards && r->cards[s->hand[p][i]].kind == kind;
  return n;
}

static inline int
kx_pile_kind (const KitRules *r, const KitState *s, unsigned kind)
{
  int n = 0;
  for (int i = 0; i < s->pile_n; i++)
    n += s->pile[i] < r->n_cards && r->cards[s->pile[i]].kind == kind;
  return n;
}

static inline bool
kx_hand_has (const GameTest *t, int p, unsigned serial)
{
  const KitState *s = kx_state (t);
  uint8_t k = kittens_card_index (kx_rules (t), serial);
  for (int i = 0; i < s->hand_n[p]; i++)
    if (s->hand[p][i] == k)
      return true;
  return false;
}

/* Whether any event text names a card that lies face down now (in a hand,
 * in the pile or out of the game): events name a face-up card as
 * "Name #serial", so "#serial" of a hidden card must never appear. */
static inline bool
kx_names_hidden (const KitRules *r, const KitState *s, const EngEvents *ev, char *which,
                 size_t size)
{
  uint8_t hidden[KIT_MAX_CARDS] = { 0 };
  for (int p = 0; p < s->n_players; p++)
    for (int i = 0; i < s->hand_n[p]; i++)
      if (s->hand[p][i] < r->n_cards)
        hidden[s->hand[p][i]] = 1;
  for (int i = 0; i < s->pile_n; i++)
    if (s->pile[i] < r->n_cards)
      hidden[s->pile[i]] = 1;
  for (int i = 0; i < s->box_n; i++)
    if (s->box[i] < r->n_cards)
      hidden[s->box[i]] = 1;
  for (size_t e = 0; e < ev->n; e++)
    for (unsigned k = 0; k < r->n_cards; k++)
      {
        if (!hidden[k])
          continue;
        char pat[16];
        int len = snprintf (pat, sizeof pat, "#%u", r->cards[k].serial);
        const char *at = ev->items[e].text;
        while ((at = strstr (at, pat)) != NULL && at[len] >= '0' && at[len] <= '9')
          at += len;
        if (at != NULL)
          {
            snprintf (which, size, "'%s' names hidden card %u", ev->items[e].text,
                      r->cards[k].serial);
            return true;
          }
      }
  return false;
}
