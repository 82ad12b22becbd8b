/* test-contract.c: what every registered game must keep, whatever its
 * rules (docs/architecture.md, "Adding a game").  Random games for each
 * player count the game takes: every listed move is legal, the chosen one
 * applies, cards are conserved after every move, undo restores the state
 * exactly, the public view stays within the card set, and a game written
 * as a record reads back equal and replays to the same final state.  A
 * new game in the registry is tested here without a line changed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "eng-view.h"

#define MAX_LISTED 512
#define MAX_MOVES 20000

typedef struct {
  const EngGameClass *klass;
  EngCardSet *set;
  EngOptions options;
} Subject;

static void
subject_load (Subject *t, const EngGameClass *klass)
{
  t->klass = klass;
  char rel[64];
  snprintf (rel, sizeof rel, "cards/%s.set", klass->name);
  char *path = eng_data_path (rel);
  cr_assert_not_null (path, "%s: no card set %s", klass->name, rel);
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_load_file (path, &t->set, &err), ENG_OK, "%s: %s:%u: %s",
                klass->name, path, err.line, err.reason);
  free (path);
  memset (&t->options, 0, sizeof t->options);
  snprintf (rel, sizeof rel, "rules/%s.options", klass->name);
  path = eng_data_path (rel);
  if (path != NULL)
    cr_assert_eq (eng_options_load_file (path, &t->options, &err), ENG_OK, "%s: %s:%u: %s",
                  klass->name, path, err.line, err.reason);
  free (path);
}

/* The public view names only cards of the set, at most the players there
 * are, and agrees with the game about scores and the end; every face it
 * shows is one the game calls open (card_public), and the game calls open
 * no more cards than the set has while some stay hidden in play. */
static void
check_view (const Subject *t, const EngGame *game, const char *where)
{
  EngView view;
  eng_game_public_view (game, &view);
  const EngSetup *su = eng_game_setup (game);
  cr_assert_eq (view.n_players, su->n_players, "%s: view players", where);
  cr_assert_eq (view.over, eng_game_is_over (game), "%s: view over", where);
  for (unsigned p = 0; p < view.n_players; p++)
    {
      const EngViewPlayer *vp = &view.players[p];
      if (view.scored)
        cr_assert_eq (vp->score, eng_game_score (game, p), "%s: score of player %u", where, p);
      cr_assert (vp->n_places <= ENG_VIEW_PLAYER_PLACES, "%s", where);
      for (unsigned i = 0; i < vp->n_places; i++)
        for (unsigned k = 0; k < vp->places[i].n_cards; k++)
          {
            uint16_t serial = vp->places[i].cards[k].serial;
            cr_assert (serial == 0 || eng_card_set_find_serial (t->set, serial) != NULL,
                       "%s: player %u's place %u shows card %u, not in the set", where, p, i,
                       serial);
            cr_assert (serial == 0
                       || eng_game_card_public (game, serial),
                       "%s: player %u's place %u shows card %u, which the game calls hidden", where,
                       p, i, serial);
          }
    }
  for (unsigned i = 0; i < view.n_shared; i++)
    for (unsigned k = 0; k < view.shared[i].n_cards; k++)
      {
        uint16_t serial = view.shared[i].cards[k].serial;
        cr_assert (serial == 0 || eng_card_set_find_serial (t->set, serial) != NULL,
                   "%s: shared place %u shows card %u, not in the set", where, i, serial);
        cr_assert (serial == 0 || eng_game_card_public (game, serial),
                   "%s: shared place %u shows card %u, which the game calls hidden", where, i, serial);
      }
  if (!view.over && view.active >= 0)
    cr_assert_lt ((unsigned) view.active, view.n_players, "%s: active", where);
}

/* One random game: returns the number of moves it took. */
static int
play_one (const Subject *t, unsigned n_players, uint64_t seed, bool thorough)
{
  const EngGameClass *k = t->klass;
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = n_players;
  for (unsigned p = 0; p < n_players; p++)
    snprintf (su.names[p], sizeof su.names[p], "P%u", p + 1);
  su.has_seed = true;
  su.seed = seed;
  su.first = (int) (seed % n_players);
  EngRng rng, policy;
  eng_rng_seed (&rng, seed);
  eng_rng_seed (&policy, seed * 7919u + 1u);
  EngGame *game = NULL;
  EngVerdict why = { "", "" };
  cr_assert_eq (eng_game_new (k, t->set, &t->options, &su, &rng, NULL, &game, &why), ENG_OK,
                "%s: setup for %u players: %s", k->name, n_players, why.reason);
  cr_assert_not_null (k->card_public, "%s: no card_public: the screen could not tell what is hidden now",
                      k->name);
  EngRecord *rec = eng_record_new (k, &su, NULL);
  cr_assert_not_null (rec);
  EngMove *listed = calloc (MAX_LISTED, sizeof *listed);
  unsigned char *before = malloc (k->state_size);
  char where[96];
  int n = 0;
  while (!eng_game_is_over (game))
    {
      snprintf (where, sizeof where, "%s %up seed %llu move %d", k->name, n_players,
                (unsigned long long) seed, n);
      cr_assert_lt (n, MAX_MOVES, "%s: the game does not end", where);
      cr_assert_eq (eng_game_check_conservation (game, &why), ENG_OK, "%s: %s", where,
                    why.reason);
      size_t count = eng_game_legal_moves (game, listed, MAX_LISTED);
      cr_assert_gt (count, 0, "%s: no legal move but not over", where);
      if (thorough)
        for (size_t i = 0; i < count && i < MAX_LISTED; i++)
          {
            EngVerdict v;
            cr_assert_eq (eng_game_check (game, &listed[i], &v), ENG_OK,
                          "%s: listed move %zu (%s) refused: %s %s", where, i,
                          k->verbs[listed[i].verb], v.rule, v.reason);
          }
      EngMove m;
      cr_assert (eng_game_class_random_move (k, eng_game_rules (game), eng_game_state (game),
                                             &policy, &m), "%s: no random move", where);
      char reason[96];
      cr_assert (eng_game_class_move_shape_ok (k, &m, reason, sizeof reason), "%s: %s", where,
                 reason);
      memcpy (before, eng_game_state (game), k->state_size);
      cr_assert_eq (eng_game_apply (game, &m, NULL, &why), ENG_OK, "%s: %s refused: %s %s",
                    where, k->verbs[m.verb], why.rule, why.reason);
      if (thorough || n % 17 == 0)
        {
          /* undo is exact, then the same move again */
          cr_assert_eq (eng_game_undo (game), ENG_OK, "%s", where);
          cr_assert_eq (memcmp (before, eng_game_state (game), k->state_size), 0,
                        "%s: undo does not restore the state", where);
          cr_assert_eq (eng_game_apply (game, &m, NULL, &why), ENG_OK, "%s: again: %s", where,
                        why.reason);
        }
      cr_assert_eq (eng_record_append (rec, &m, 0), ENG_OK, "%s", where);
      if (thorough || n % 11 == 0)
        check_view (t, game, where);
      n++;
    }
  check_view (t, game, "over");
  cr_assert_neq (eng_game_winners (game, NULL), 0u, "%s %up seed %llu: over with no winner",
                 k->name, n_players, (unsigned long long) seed);
  /* the record: written, read back equal, replayed to the same state */
  char *text = eng_record_write (rec);
  cr_assert_not_null (text);
  EngRecord *back = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_record_parse (text, strlen (text), "written", &back, &err), ENG_OK,
                "%s: record line %u: %s\n%s", k->name, err.line, err.reason, text);
  cr_assert (eng_record_equal (rec, back), "%s: record round trip", k->name);
  EngReplayResult res;
  cr_assert_eq (eng_replay (back, t->set, &t->options, false, true, NULL, NULL, &res, &why),
                ENG_OK, "%s: replay: %s", k->name, why.reason);
  cr_assert_eq (res.illegal, 0, "%s: replay refused a move", k->name);
  cr_assert_eq (memcmp (eng_game_state (res.game), eng_game_state (game), k->state_size), 0,
                "%s: replay reaches another state", k->name);
  eng_game_free (res.game);
  eng_record_free (back);
  free (text);
  eng_record_free (rec);
  free (before);
  free (listed);
  eng_game_free (game);
  return n;
}

Test (contract, every_registered_game_keeps_the_contract, .timeout = 600)
{
  cr_assert_gt (eng_game_class_count (), 0);
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const EngGameClass *k = eng_game_class_get (g);
      cr_assert_not_null (k->public_view, "%s: no public view", k->name);
      cr_assert_not_null (k->card_name, "%s: no card names", k->name);
      cr_assert (k->min_players >= 1 && k->min_players <= k->max_players
                 && k->max_players <= ENG_MAX_PLAYERS, "%s: player limits", k->name);
      cr_assert_eq (eng_game_class_find (k->name), k, "%s: found by name", k->name);
      Subject t;
      subject_load (&t, k);
      long moves = 0, games = 0;
      for (unsigned n = k->min_players; n <= k->max_players; n++)
        for (uint64_t seed = 1; seed <= 150; seed++)
          {
            moves += play_one (&t, n, seed * 1000003u + n, seed <= 2);
            games++;
          }
      cr_log_info ("%s: %ld random games, %.1f moves a game", k->name, games,
                   (double) moves / (double) games);
      eng_card_set_free (t.set);
    }
}
