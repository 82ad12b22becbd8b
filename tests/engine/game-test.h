/* game-test.h: what every game's engine tests share.  A scenario is a
 * record header (its `game` line, players, deals, options) plus move lines
 * applied one by one; the game's bundled card set and options file come
 * from data/ (the game's own header adds what only it needs). */
#pragma once

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-replay.h"

typedef struct {
  EngCardSet *set;
  EngOptions base;              /* the game's options file */
  EngRecord *rec;
  EngGame *game;
  EngEvent storage[64];
  EngEvents events;
  EngVerdict why;
  EngStatus last;
} GameTest;

static inline char *
gt_data_path (const char *rel)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set (meson test sets it)");
  size_t n = strlen (dir) + strlen (rel) + 2;
  char *p = malloc (n);
  snprintf (p, n, "%s/%s", dir, rel);
  return p;
}

/* data/cards/GAME.set */
static inline EngCardSet *
gt_load_set (const char *game)
{
  char rel[64];
  snprintf (rel, sizeof rel, "cards/%s.set", game);
  char *path = gt_data_path (rel);
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  EngStatus st = eng_card_set_load_file (path, &set, &err);
  cr_assert_eq (st, ENG_OK, "%s.set: %s:%u %s", game, err.source, err.line, err.reason);
  free (path);
  return set;
}

/* data/rules/GAME.options into *opts */
static inline void
gt_load_options (const char *game, EngOptions *opts)
{
  char rel[64];
  snprintf (rel, sizeof rel, "rules/%s.options", game);
  char *path = gt_data_path (rel);
  EngParseError err = { 0 };
  EngStatus st = eng_options_load_file (path, opts, &err);
  cr_assert_eq (st, ENG_OK, "%s.options: %s:%u %s", game, err.source, err.line, err.reason);
  free (path);
}

/* Builds the game of a record header on `set` (taken; NULL: the game's
 * bundled set), with the game's options and the header's own on top;
 * returns the setup status. */
static inline EngStatus
gt_try_new_set (GameTest *t, const char *header, EngCardSet *set)
{
  memset (t, 0, sizeof *t);
  EngParseError err = { 0 };
  EngStatus st = eng_record_parse (header, strlen (header), "scenario", &t->rec, &err);
  cr_assert_eq (st, ENG_OK, "scenario header: line %u: %s", err.line, err.reason);
  const char *game = t->rec->klass->name;
  t->set = set != NULL ? set : gt_load_set (game);
  gt_load_options (game, &t->base);
  EngOptions opts = t->base;
  for (size_t i = 0; i < t->rec->options.n; i++)
    eng_options_set (&opts, t->rec->options.items[i].name, t->rec->options.items[i].value);
  eng_events_init (&t->events, t->storage, 64);
  /* no rng: the rules draw from the header's seed */
  return eng_game_new (t->rec->klass, t->set, &opts, &t->rec->setup, NULL, &t->events,
                       &t->game, &t->why);
}

static inline EngStatus
gt_try_new (GameTest *t, const char *header)
{
  return gt_try_new_set (t, header, NULL);
}

static inline void
gt_new_set (GameTest *t, const char *header, EngCardSet *set)
{
  EngStatus st = gt_try_new_set (t, header, set);
  cr_assert_eq (st, ENG_OK, "setup refused: %s %s", t->why.rule, t->why.reason);
}

static inline void
gt_new (GameTest *t, const char *header)
{
  gt_new_set (t, header, NULL);
}

static inline void
gt_free (GameTest *t)
{
  eng_game_free (t->game);
  eng_record_free (t->rec);
  eng_card_set_free (t->set);
}

/* Applies one move line; returns its status and keeps the events. */
static inline EngStatus
gt_do (GameTest *t, const char *line)
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

/* Applies a move that must be legal, and keep every card. */
static inline void
gt_ok (GameTest *t, const char *line)
{
  EngStatus st = gt_do (t, line);
  cr_assert_eq (st, ENG_OK, "'%s' refused: %s %s", line, t->why.rule, t->why.reason);
  EngVerdict v;
  cr_assert_eq (eng_game_check_conservation (t->game, &v), ENG_OK, "after '%s': %s", line,
                v.reason);
}

/* Applies a move that must be refused with `rule`, say why, and change
 * nothing. */
static inline void
gt_refused (GameTest *t, const char *line, EngStatus want, const char *rule)
{
  size_t size = eng_game_class (t->game)->state_size;
  void *before = malloc (size);
  memcpy (before, eng_game_state (t->game), size);
  EngStatus st = gt_do (t, line);
  cr_assert_eq (st, want, "'%s': wanted %s, got %s (%s %s)", line, eng_status_to_string (want),
                eng_status_to_string (st), t->why.rule, t->why.reason);
  cr_assert_str_eq (t->why.rule, rule, "'%s': rule %s (%s), wanted %s", line, t->why.rule,
                    t->why.reason, rule);
  cr_assert_gt (strlen (t->why.reason), 0, "a refusal must say why");
  cr_assert_eq (memcmp (before, eng_game_state (t->game), size), 0,
                "a refused move must change nothing");
  free (before);
}

/* The last move's first event of `kind` (and `rule`, unless NULL). */
static inline const EngEvent *
gt_event (const GameTest *t, EngEventKind kind, const char *rule)
{
  for (size_t i = 0; i < t->events.n; i++)
    if (t->storage[i].kind == kind && (rule == NULL || strcmp (t->storage[i].rule, rule) == 0))
      return &t->storage[i];
  return NULL;
}
