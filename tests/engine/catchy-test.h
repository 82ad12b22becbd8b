/* catchy-test.h: helpers for the Catchy! engine tests.  A scenario is a
 * record header (players, deals, options) plus move lines applied one by
 * one, as in kat-test.h. */
#pragma once

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catchy.h"
#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "eng-view.h"

typedef struct {
  EngCardSet *set;
  EngOptions base;
  EngRecord *rec;
  EngGame *game;
  EngEvent storage[64];
  EngEvents events;
  EngVerdict why;
  EngStatus last;
} CT;

static inline char *
ct_data_path (const char *rel)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set (meson test sets it)");
  size_t n = strlen (dir) + strlen (rel) + 2;
  char *p = malloc (n);
  snprintf (p, n, "%s/%s", dir, rel);
  return p;
}

static inline EngCardSet *
ct_load_set (void)
{
  char *path = ct_data_path ("cards/catchy.set");
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  EngStatus st = eng_card_set_load_file (path, &set, &err);
  cr_assert_eq (st, ENG_OK, "catchy.set: %s:%u %s", err.source, err.line, err.reason);
  free (path);
  return set;
}

static inline void
ct_load_options (EngOptions *opts)
{
  char *path = ct_data_path ("rules/catchy.options");
  EngParseError err = { 0 };
  EngStatus st = eng_options_load_file (path, opts, &err);
  cr_assert_eq (st, ENG_OK, "catchy.options: %s:%u %s", err.source, err.line, err.reason);
  free (path);
}

/* Builds the game from a record header; returns the setup status. */
static inline EngStatus
ct_try_new (CT *t, const char *header)
{
  memset (t, 0, sizeof *t);
  t->set = ct_load_set ();
  ct_load_options (&t->base);
  EngParseError err = { 0 };
  EngStatus st = eng_record_parse (header, strlen (header), "scenario", &t->rec, &err);
  cr_assert_eq (st, ENG_OK, "scenario header: line %u: %s", err.line, err.reason);
  EngOptions opts = t->base;
  for (size_t i = 0; i < t->rec->options.n; i++)
    eng_options_set (&opts, t->rec->options.items[i].name, t->rec->options.items[i].value);
  eng_events_init (&t->events, t->storage, 64);
  EngRng rng;
  eng_rng_seed (&rng, t->rec->setup.seed);
  return eng_game_new (t->rec->klass, t->set, &opts, &t->rec->setup, &rng, &t->events,
                       &t->game, &t->why);
}

static inline void
ct_new (CT *t, const char *header)
{
  EngStatus st = ct_try_new (t, header);
  cr_assert_eq (st, ENG_OK, "setup refused: %s %s", t->why.rule, t->why.reason);
}

static inline void
ct_free (CT *t)
{
  eng_game_free (t->game);
  eng_record_free (t->rec);
  eng_card_set_free (t->set);
}

static inline EngStatus
ct_do (CT *t, const char *line)
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
ct_ok (CT *t, const char *line)
{
  EngStatus st = ct_do (t, line);
  cr_assert_eq (st, ENG_OK, "'%s' refused: %s %s", line, t->why.rule, t->why.reason);
  EngVerdict v;
  cr_assert_eq (eng_game_check_conservation (t->game, &v), ENG_OK, "after '%s': %s", line,
                v.reason);
}

/* Applies a move that must be refused with `rule` and change nothing. */
static inline void
ct_refused (CT *t, const char *line, EngStatus want, const char *rule)
{
  const CatchyState before = *(const CatchyState *) eng_game_state (t->game);
  EngStatus st = ct_do (t, line);
  cr_assert_eq (st, want, "'%s': wanted %s, got %s (%s %s)", line, eng_status_to_string (want),
                eng_status_to_string (st), t->why.rule, t->why.reason);
  cr_assert_str_eq (t->why.rule, rule, "'%s': rule %s (%s), wanted %s", line, t->why.rule,
                    t->why.reason, rule);
  cr_assert_gt (strlen (t->why.reason), 0, "a refusal must say why");
  cr_assert_eq (memcmp (&before, eng_game_state (t->game), sizeof before), 0,
                "a refused move must change nothing");
}

static inline const EngEvent *
ct_event (const CT *t, EngEventKind kind, const char *rule)
{
  for (size_t i = 0; i < t->events.n; i++)
    if (t->storage[i].kind == kind && (rule == NULL || strcmp (t->storage[i].rule, rule) == 0))
      return &t->storage[i];
  return NULL;
}

static inline const CatchyState *
ct_state (const CT *t)
{
  return eng_game_state (t->game);
}
