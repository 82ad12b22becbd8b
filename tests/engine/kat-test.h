/* kat-test.h: helpers shared by the engine tests.  A scenario is a record
 * header (players, deals, options) plus move lines applied one by one. */
#pragma once

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "katua.h"

typedef struct {
  EngCardSet *set;
  EngOptions base;
  EngRecord *rec;
  EngGame *game;
  EngEvent storage[64];
  EngEvents events;
  EngVerdict why;
  EngStatus last;
} KT;

static inline char *
kt_data_path (const char *rel)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set (meson test sets it)");
  size_t n = strlen (dir) + strlen (rel) + 2;
  char *p = malloc (n);
  snprintf (p, n, "%s/%s", dir, rel);
  return p;
}

static inline EngCardSet *
kt_load_set (void)
{
  char *path = kt_data_path ("cards/katua.set");
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  EngStatus st = eng_card_set_load_file (path, &set, &err);
  cr_assert_eq (st, ENG_OK, "katua.set: %s:%u %s", err.source, err.line, err.reason);
  free (path);
  return set;
}

static inline void
kt_load_options (EngOptions *opts)
{
  char *path = kt_data_path ("rules/katua.options");
  EngParseError err = { 0 };
  EngStatus st = eng_options_load_file (path, opts, &err);
  cr_assert_eq (st, ENG_OK, "katua.options: %s:%u %s", err.source, err.line, err.reason);
  free (path);
}

/* Builds the game from a record header; returns the setup status. */
static inline EngStatus
kt_try_new (KT *t, const char *header)
{
  memset (t, 0, sizeof *t);
  t->set = kt_load_set ();
  kt_load_options (&t->base);
  EngParseError err = { 0 };
  EngStatus st = eng_record_parse (header, strlen (header), "scenario", &t->rec, &err);
  cr_assert_eq (st, ENG_OK, "scenario header: line %u: %s", err.line, err.reason);
  EngOptions opts = t->base;
  for (size_t i = 0; i < t->rec->options.n; i++)
    eng_options_set (&opts, t->rec->options.items[i].name, t->rec->options.items[i].value);
  eng_events_init (&t->events, t->storage, 64);
  return eng_game_new (t->rec->klass, t->set, &opts, &t->rec->setup, NULL, &t->events,
                       &t->game, &t->why);
}

static inline void
kt_new (KT *t, const char *header)
{
  EngStatus st = kt_try_new (t, header);
  cr_assert_eq (st, ENG_OK, "setup refused: %s %s", t->why.rule, t->why.reason);
}

static inline void
kt_free (KT *t)
{
  eng_game_free (t->game);
  eng_record_free (t->rec);
  eng_card_set_free (t->set);
}

/* Applies one move line; returns its status and keeps the events. */
static inline EngStatus
kt_do (KT *t, const char *line)
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

/* Applies a move that must be legal. */
static inline void
kt_ok (KT *t, const char *line)
{
  EngStatus st = kt_do (t, line);
  cr_assert_eq (st, ENG_OK, "'%s' refused: %s %s", line, t->why.rule, t->why.reason);
  EngVerdict v;
  cr_assert_eq (eng_game_check_conservation (t->game, &v), ENG_OK, "after '%s': %s", line,
                v.reason);
}

/* Applies a move that must be refused with `rule`. */
static inline void
kt_refused (KT *t, const char *line, EngStatus want, const char *rule)
{
  const KatState before = *(const KatState *) eng_game_state (t->game);
  EngStatus st = kt_do (t, line);
  cr_assert_eq (st, want, "'%s': wanted %s, got %s (%s %s)", line, eng_status_to_string (want),
                eng_status_to_string (st), t->why.rule, t->why.reason);
  cr_assert_str_eq (t->why.rule, rule, "'%s': rule %s (%s), wanted %s", line, t->why.rule,
                    t->why.reason, rule);
  cr_assert_gt (strlen (t->why.reason), 0, "a refusal must say why");
  cr_assert_eq (memcmp (&before, eng_game_state (t->game), sizeof before), 0,
                "a refused move must change nothing");
}

static inline const EngEvent *
kt_event (const KT *t, EngEventKind kind, const char *rule)
{
  for (size_t i = 0; i < t->events.n; i++)
    if (t->storage[i].kind == kind && (rule == NULL || strcmp (t->storage[i].rule, rule) == 0))
      return &t->storage[i];
  return NULL;
}

static inline const KatState *
kt_state (const KT *t)
{
  return eng_game_state (t->game);
}

static inline uint16_t
kt_slot_serial (const KT *t, int p, int s)
{
  const KatState *st = kt_state (t);
  const KatRules *r = eng_game_rules (t->game);
  uint8_t k = st->slot[p][s];
  return k < r->n_cards ? r->cards[k].serial : 0;
}
