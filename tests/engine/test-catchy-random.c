/* Property test: seeded random legal Catchy! games.  After every move: card
 * conservation, hands of at most 7, scores that only ever grow by a hand's
 * 3, 2 or 1+1 points (C6); every listed move is accepted and changes
 * nothing under `check`; every game ends with a winner above the other.
 * Some games are also written as records, read back, replayed and must end
 * in the identical state; some moves are undone through EngGame and must
 * restore the identical state; some games run beside a live-table shadow
 * that sees only the faces played and must referee the same public game.
 *
 * 10,000 games by default; TABLERO_SANITIZED=1 (the ASan CI run) plays 2,000,
 * TABLERO_ENGINE_GAMES=N overrides both. */
#include "catchy-test.h"

static long
games_to_play (void)
{
  const char *n = getenv ("TABLERO_ENGINE_GAMES");
  if (n != NULL && *n)
    return strtol (n, NULL, 10);
  const char *san = getenv ("TABLERO_SANITIZED");
  return (san != NULL && *san && strcmp (san, "0") != 0) ? 2000 : 10000;
}

static void
check_invariants (const CatchyRules *r, const CatchyState *s, const CatchyState *before,
                  long game, int move)
{
  EngVerdict v;
  cr_assert_eq (catchy_game_class.check_conservation (r, s, &v), ENG_OK, "game %ld move %d: %s",
                game, move, v.reason);
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    cr_assert_leq (s->hand_n[p], CATCHY_HAND, "game %ld move %d: hand of %d", game, move, p);
  cr_assert_leq (s->cat, CATCHY_POSITIONS - 1);
  if (before == NULL)
    return;
  int d0 = s->score[0] - before->score[0], d1 = s->score[1] - before->score[1];
  bool ok = (d0 == 0 && d1 == 0) || (d0 == 3 && d1 == 0) || (d0 == 0 && d1 == 3)
            || (d0 == 2 && d1 == 0) || (d0 == 0 && d1 == 2) || (d0 == 1 && d1 == 1);
  cr_assert (ok, "game %ld move %d: a hand scores 3, 2 or 1 each, not %d/%d", game, move, d0, d1);
  if (d0 == 3 || d1 == 3)
    cr_assert (before->cat == 1 || before->cat == 5 || before->n_tricks == CATCHY_TRICKS - 1,
               "game %ld move %d: 3 points come only from the arms (C6)", game, move);
  if (d0 == 1)
    cr_assert_eq (before->n_tricks, CATCHY_TRICKS - 1,
                  "game %ld move %d: the centre scores only after the 7th trick", game, move);
}

static void
assert_names_no_hidden_card (const CatchyRules *r, const CatchyState *s, const EngEvents *ev,
                             long g, int n)
{
  uint8_t hidden[CATCHY_MAIN_CARDS + 2];
  int nh = 0;
  for (int i = 0; i < CATCHY_PATH_CARDS; i++)
    hidden[nh++] = s->path[i];
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    for (int i = 0; i < s->hand_n[p]; i++)
      hidden[nh++] = s->hand[p][i];
  for (int k = 0; k < nh; k++)
    {
      if (hidden[k] >= r->n_cards)
        continue;
      char name[48];
      catchy_game_class.card_name (r, r->cards[hidden[k]].serial, false, name, sizeof name);
      for (size_t e = 0; e < ev->n; e++)
        cr_assert_null (strstr (ev->items[e].text, name), "game %ld move %d: '%s' names %s, "
                        "which lies face down", g, n, ev->items[e].text, name);
    }
}

/* What a live table would agree on with the dealt game. */
static void
assert_same_public_state (const CatchyState *a, const CatchyState *b, long g, int n)
{
  cr_assert_eq (a->phase, b->phase, "game %ld move %d: phase", g, n);
  cr_assert_eq (a->leader, b->leader, "game %ld move %d: leader", g, n);
  cr_assert_eq (a->cat, b->cat, "game %ld move %d: cat", g, n);
  cr_assert_eq (a->mood, b->mood, "game %ld move %d: mood", g, n);
  cr_assert_eq (a->hand_no, b->hand_no, "game %ld move %d: hand", g, n);
  cr_assert_eq (a->n_tricks, b->n_tricks, "game %ld move %d: tricks", g, n);
  cr_assert_eq (a->lead, b->lead, "game %ld move %d: led card", g, n);
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    {
      cr_assert_eq (a->score[p], b->score[p], "game %ld move %d: score", g, n);
      cr_assert_eq (a->hand_n[p], b->hand_n[p], "game %ld move %d: hand size", g, n);
    }
  cr_assert_eq (a->winners, b->winners, "game %ld move %d: winners", g, n);
}

static void
play_random_games (const char *const *overrides, long games, uint64_t seed0)
{
  EngCardSet *set = gt_load_set ("catchy");
  EngOptions opts;
  gt_load_options ("catchy", &opts);
  for (int i = 0; overrides != NULL && overrides[i] != NULL; i += 2)
    cr_assert_eq (eng_options_set (&opts, overrides[i], overrides[i + 1]), ENG_OK);
  void *rules_v = NULL;
  EngParseError err;
  cr_assert_eq (catchy_game_class.rules_new (set, &opts, &rules_v, &err), ENG_OK, "%s",
                err.reason);
  const CatchyRules *r = rules_v;
  long total_moves = 0, round_trips = 0, undos = 0, hands = 0, shadows = 0;
  EngRng policy;
  eng_rng_seed (&policy, 20261124);
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 2;
  su.has_seed = true;
  snprintf (su.names[0], ENG_NAME_MAX, "Ana");
  snprintf (su.names[1], ENG_NAME_MAX, "Bea");
  CatchyState s;
  static CatchyState trail[2001];
  EngMove moves[32];
  for (long g = 0; g < games; g++)
    {
      su.seed = seed0 + (uint64_t) g;
      EngRng rng;
      eng_rng_seed (&rng, su.seed);
      cr_assert_eq (catchy_game_class.setup (r, &su, &rng, &s, NULL, NULL), ENG_OK);
      check_invariants (r, &s, NULL, g, 0);
      trail[0] = s;
      bool record = g % 250 == 0;
      bool live = g % 20 == 3;
      CatchyState shadow;
      if (live)
        {
          EngSetup lsu = su;
          lsu.has_seed = false;
          EngRng lrng;
          eng_rng_seed (&lrng, 0);
          cr_assert_eq (catchy_game_class.setup (r, &lsu, &lrng, &shadow, NULL, NULL), ENG_OK);
          shadows++;
        }
      EngRecord *rec = record ? eng_record_new (&catchy_game_class, &su, NULL) : NULL;
      int n = 0;
      while (s.phase != CATCHY_PHASE_OVER)
        {
          cr_assert_lt (n, 2000, "game %ld does not end", g);
          size_t count = catchy_game_class.legal_moves (r, &s, moves, 32);
          cr_assert_gt (count, 0, "game %ld move %d: no legal move but not over", g, n);
          cr_assert_leq (count, 32);
          cr_assert_geq (catchy_game_class.to_move (r, &s), 0);
          for (size_t i = 0; i < count; i++)
            cr_assert_eq (moves[i].player, catchy_game_class.to_move (r, &s));
          EngMove m = moves[eng_rng_below (&policy, (uint32_t) count)];
          if (g % 50 == 1)
            for (size_t i = 0; i < count; i++)
              {
                /* every listed move is legal, and checking changes nothing */
                CatchyState before = s;
                EngVerdict v;
                cr_assert_eq (eng_game_class_check (&catchy_game_class, r, NULL, &s, &moves[i],
                                                    &v), ENG_OK,
                              "game %ld move %d: listed move %zu refused: %s %s", g, n, i,
                              v.rule, v.reason);
                cr_assert_eq (memcmp (&before, &s, sizeof s), 0, "check changes nothing");
              }
          CatchyState before = s;
          EngVerdict why;
          /* every 10th game formats its events: none names a card lying face
           * down after the move (C11) */
          bool words = g % 10 == 7;
          EngEvent storage[32];
          EngEvents events;
          eng_events_init (&events, storage, 32);
          EngStatus st = eng_game_class_apply (&catchy_game_class, r, NULL, &s, &m,
                                               words ? &events : NULL, &why);
          if (words && st == ENG_OK && s.hand_no == before.hand_no)
            assert_names_no_hidden_card (r, &s, &events, g, n);
          cr_assert_eq (st, ENG_OK, "game %ld move %d: a listed move was refused: %s %s", g, n,
                        why.rule, why.reason);
          if (rec != NULL)
            eng_record_append (rec, &m, 0);
          n++;
          trail[n] = s;
          hands += s.hand_no != before.hand_no || s.phase == CATCHY_PHASE_OVER;
          check_invariants (r, &s, &before, g, n);
          if (live)
            {
              /* the live referee lists the move the table made among the
               * cards it has not located, and accepts every move it lists */
              EngMove lmoves[32];
              size_t lcount = catchy_game_class.legal_moves (r, &shadow, lmoves, 32);
              cr_assert_leq (lcount, 32);
              bool found = false;
              for (size_t i = 0; i < lcount; i++)
                {
                  found = found || (lmoves[i].verb == m.verb && lmoves[i].player == m.player
                                    && lmoves[i].card == m.card
                                    && lmoves[i].slot[0] == m.slot[0]);
                  if (g % 100 == 3)
                    cr_assert_eq (eng_game_class_check (&catchy_game_class, r, NULL, &shadow,
                                                        &lmoves[i], &why), ENG_OK,
                                  "game %ld move %d: live listed move refused: %s", g, n,
                                  why.reason);
                }
              cr_assert (found, "game %ld move %d: the live referee does not list %s %u", g, n,
                         catchy_game_class.verbs[m.verb], m.card);
              st = eng_game_class_apply (&catchy_game_class, r, NULL, &shadow, &m, NULL, &why);
              cr_assert_eq (st, ENG_OK, "game %ld move %d: the live shadow refused %s: %s %s",
                            g, n, catchy_game_class.verbs[m.verb], why.rule, why.reason);
              cr_assert_eq (catchy_game_class.check_conservation (r, &shadow, &why), ENG_OK,
                            "game %ld move %d: live conservation: %s", g, n, why.reason);
              assert_same_public_state (&s, &shadow, g, n);
            }
        }
      total_moves += n;
      const char *tb = NULL;
      unsigned w = catchy_game_class.winners (r, &s, &tb);
      cr_assert_neq (w, 0u, "game %ld: a game has winners", g);
      if (w != 3)
        cr_assert_gt (s.score[w == 1 ? 0 : 1], s.score[w == 1 ? 1 : 0]);
      cr_assert_geq (s.score[w == 2 ? 1 : 0], r->winning_score);
      if (rec != NULL)
        {
          char *text = eng_record_write (rec);
          cr_assert_not_null (text);
          EngRecord *back = NULL;
          cr_assert_eq (eng_record_parse (text, strlen (text), "written", &back, &err), ENG_OK,
                        "line %u: %s", err.line, err.reason);
          cr_assert (eng_record_equal (rec, back), "record round trip");
          EngReplayResult res;
          EngVerdict v;
          cr_assert_eq (eng_replay (back, set, &opts, false, true, NULL, NULL, &res, &v), ENG_OK,
                        "%s", v.reason);
          cr_assert_eq (res.illegal, 0);
          cr_assert (res.over);
          cr_assert_eq (memcmp (eng_game_state (res.game), &s, sizeof s), 0,
                        "replay reaches the same state");
          /* undo through EngGame: each step back restores the state before
           * that move, all the way to the deal */
          cr_assert_eq (eng_game_history_depth (res.game), (size_t) n);
          for (int k = n - 1; k >= 0; k--)
            {
              cr_assert_eq (eng_game_undo (res.game), ENG_OK);
              cr_assert_eq (memcmp (eng_game_state (res.game), &trail[k], sizeof s), 0,
                            "game %ld: undo to move %d", g, k);
              undos++;
            }
          cr_assert_eq (eng_game_undo (res.game), ENG_ERR_STATE);
          eng_game_free (res.game);
          eng_record_free (back);
          free (text);
          eng_record_free (rec);
          round_trips++;
        }
    }
  cr_log_info ("%ld games, %.1f moves/game, %.2f hands/game, %ld round trips, %ld shadows",
               games, (double) total_moves / (double) games, (double) hands / (double) games,
               round_trips, shadows);
  cr_assert_gt (round_trips, 0);
  cr_assert_gt (undos, 0);
  catchy_game_class.rules_free (rules_v);
  eng_card_set_free (set);
}

Test (catchy_random, ten_thousand_random_games_keep_every_invariant, .timeout = 600)
{
  play_random_games (NULL, games_to_play (), 1000);
}

Test (catchy_random, option_variants_keep_every_invariant, .timeout = 600)
{
  long n = games_to_play () / 10;
  static const char *const strict[] = { "wild_always_playable", "no", "wild_is_odd", "no", NULL };
  static const char *const shared[] = { "tie_at_seven", "shared", "winning_score", "12", NULL };
  play_random_games (strict, n, 50000);
  play_random_games (shared, n, 60000);
}
