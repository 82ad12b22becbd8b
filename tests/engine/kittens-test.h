/* kittens-test.h: helpers shared by the Exploding Kittens tests.  A scenario
 * is a record header (players, deals, options) plus move lines applied one
 * by one, on the bundled set or on an edited copy of it. */
#pragma once

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-view.h"
#include "kittens.h"

typedef struct {
  EngCardSet *set;
  EngRecord *rec;
  EngGame *game;
  EngEvent storage[64];
  EngEvents events;
  EngVerdict why;
  EngStatus last;
} KX;

static inline char *
kx_data_path (const char *rel)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set (meson test sets it)");
  size_t n = strlen (dir) + strlen (rel) + 2;
  char *p = malloc (n);
  snprintf (p, n, "%s/%s", dir, rel);
  return p;
}

static inline char *
kx_read (const char *rel, size_t *len)
{
  char *path = kx_data_path (rel);
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

static inline void
kx_load_options (EngOptions *opts)
{
  char *path = kx_data_path ("rules/kittens.options");
  EngParseError err = { 0 };
  EngStatus st = eng_options_load_file (path, opts, &err);
  cr_assert_eq (st, ENG_OK, "kittens.options: %s:%u %s", err.source, err.line, err.reason);
  free (path);
}

static inline EngStatus
kx_try_new_set (KX *t, const char *header, EngCardSet *set)
{
  memset (t, 0, sizeof *t);
  t->set = set;
  EngOptions opts;
  memset (&opts, 0, sizeof opts);
  kx_load_options (&opts);
  EngParseError err = { 0 };
  EngStatus st = eng_record_parse (header, strlen (header), "scenario", &t->rec, &err);
  cr_assert_eq (st, ENG_OK, "scenario header: line %u: %s", err.line, err.reason);
  for (size_t i = 0; i < t->rec->options.n; i++)
    eng_options_set (&opts, t->rec->options.items[i].name, t->rec->options.items[i].value);
  eng_events_init (&t->events, t->storage, 64);
  return eng_game_new (t->rec->klass, t->set, &opts, &t->rec->setup, NULL, &t->events,
                       &t->game, &t->why);
}

static inline void
kx_new_set (KX *t, const char *header, EngCardSet *set)
{
  EngStatus st = kx_try_new_set (t, header, set);
  cr_assert_eq (st, ENG_OK, "setup refused: %s %s", t->why.rule, t->why.reason);
}

static inline void
kx_new (KX *t, const char *header)
{
  kx_new_set (t, header, kx_load_set (NULL, 0));
}

static inline void
kx_free (KX *t)
{
  eng_game_free (t->game);
  eng_record_free (t->rec);
  eng_card_set_free (t->set);
}

static inline EngStatus
kx_do (KX *t, const char *line)
{
  EngMove m;
  EngParseError err = { 0 };
  EngStatus st = eng_record_parse_move (t->rec, line, &m, &err);
  cr_assert_eq (st, ENG_OK, "move '%s' malformed: %s", line, err.reason);
  eng_events_init (&t->events, t->storage, 64);
  memset (&t->why, 0, sizeof t->why);
  t->last = eng_game_apply (t->game, &m, &t->events, &t->why);
  return t->last;
}

static inline void
kx_ok (KX *t, const char *line)
{
  EngStatus st = kx_do (t, line);
  cr_assert_eq (st, ENG_OK, "'%s' refused: %s %s", line, t->why.rule, t->why.reason);
  EngVerdict v;
  cr_assert_eq (eng_game_check_conservation (t->game, &v), ENG_OK, "after '%s': %s", line,
                v.reason);
}

static inline void
kx_refused (KX *t, const char *line, EngStatus want, const char *rule)
{
  const KitState before = *(const KitState *) eng_game_state (t->game);
  EngStatus st = kx_do (t, line);
  cr_assert_eq (st, want, "'%s': wanted %s, got %s (%s %s)", line, eng_status_to_string (want),
                eng_status_to_string (st), t->why.rule, t->why.reason);
  cr_assert_str_eq (t->why.rule, rule, "'%s': rule %s (%s), wanted %s", line, t->why.rule,
                    t->why.reason, rule);
  cr_assert_gt (strlen (t->why.reason), 0, "a refusal must say why");
  cr_assert_eq (memcmp (&before, eng_game_state (t->game), sizeof before), 0,
                "a refused move must change nothing");
}

static inline const KitState *
kx_state (const KX *t)
{
  return eng_game_state (t->game);
}

static inline const KitRules *
kx_rules (const KX *t)
{
  return eng_game_rules (t->game);
}

static inline const EngEvent *
kx_event (const KX *t, EngEventKind kind, const char *rule)
{
  for (size_t i = 0; i < t->events.n; i++)
    if (t->storage[i].kind == kind && (rule == NULL || strcmp (t->storage[i].rule, rule) == 0))
      return &t->storage[i];
  return NULL;
}

/* How many cards of `kind` lie in p's hand / the pile (known ones). */
static inline int
kx_hand_kind (const KX *t, int p, unsigned kind)
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
kx_hand_has (const KX *t, int p, unsigned serial)
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
