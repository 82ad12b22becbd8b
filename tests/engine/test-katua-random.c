/* Property test: seeded random legal games of 2, 3 and 4 players.  After
 * every move: card conservation, score = sum of captured values, hands of at
 * most 3; every game ends.  Some games are also written as records, read
 * back, replayed, and must end in the identical state; some moves are undone
 * and must restore the identical state.
 *
 * 10,000 games by default; TABLERO_SANITIZED=1 (the ASan CI run) plays 2,000,
 * TABLERO_ENGINE_GAMES=N overrides both. */
#include "kat-test.h"

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
check_invariants (const KatRules *r, const KatState *s, long game, int move)
{
  EngVerdict v;
  cr_assert_eq (katua_game_class.check_conservation (r, s, &v), ENG_OK,
                "game %ld move %d: %s", game, move, v.reason);
  for (int p = 0; p < s->n_players; p++)
    {
      int sum = 0;
      for (int i = 0; i < s->captured_n[p]; i++)
        sum += r->cards[s->captured[p][i]].value;
      cr_assert_eq (s->score[p], sum, "game %ld move %d: score of %d", game, move, p);
      cr_assert_leq (s->hand_n[p], 3, "game %ld move %d: hand of %d", game, move, p);
    }
}

/* The face a live table would show for move m: the referee dealt from a
 * seed knows it; the live shadow is told through `show`. */
static uint16_t
observed_face (const KatRules *r, const KatState *s, const EngMove *m)
{
  int p = -1, k = -1;
  int verb = m->verb;
  if (verb == KAT_REPLICATE)
    verb = s->rep_effect;
  switch (verb)
    {
    case KAT_HIT:
      if (s->phase == KAT_PHASE_ANSWER)
        {
          if (s->answer_verb == KAT_XRAY)
            p = s->answer_p[0], k = s->answer_s[0];
        }
      else
        p = s->att[0].player, k = s->att[0].slot;
      break;
    case KAT_NEUTRALISE:
      p = s->att[0].player, k = s->att[0].slot;
      break;
    case KAT_FLIP:
      p = s->active, k = s->hook_slot;
      break;
    case KAT_XRAY:
    case KAT_REVEAL:
      p = m->target[0], k = m->slot[0];
      break;
    default:
      break;
    }
  if (p < 0 || k < 0 || s->slot[p][k] >= r->n_cards)
    return 0;
  return r->cards[s->slot[p][k]].serial;
}

static void
assert_same_public_state (const KatState *a, const KatState *b, long g, int n)
{
  cr_assert_eq (a->phase, b->phase, "game %ld move %d: phase", g, n);
  cr_assert_eq (a->active, b->active, "game %ld move %d: active", g, n);
  cr_assert_eq (a->n_att, b->n_att, "game %ld move %d: attempts", g, n);
  cr_assert_eq (a->cat_deck_n, b->cat_deck_n, "game %ld move %d: cat deck size", g, n);
  cr_assert_eq (a->ufo_deck_n, b->ufo_deck_n, "game %ld move %d: UFO deck size", g, n);
  cr_assert_eq (a->discard_n, b->discard_n, "game %ld move %d: discard size", g, n);
  for (int p = 0; p < a->n_players; p++)
    {
      cr_assert_eq (a->score[p], b->score[p], "game %ld move %d: score", g, n);
      cr_assert_eq (a->hand_n[p], b->hand_n[p], "game %ld move %d: hand size", g, n);
      cr_assert_eq (a->captured_n[p], b->captured_n[p], "game %ld move %d: captures", g, n);
      cr_assert_eq (memcmp (a->captured[p], b->captured[p], a->captured_n[p]), 0);
      cr_assert_eq (memcmp (a->face_up[p], b->face_up[p], KAT_SLOTS), 0);
    }
  cr_assert_eq (a->winners, b->winners, "game %ld move %d: winners", g, n);
}

static bool
listed (const EngMove *list, size_t n, const EngMove *m)
{
  for (size_t i = 0; i < n; i++)
    {
      const EngMove *x = &list[i];
      if (x->verb == m->verb && x->player == m->player && x->card == m->card
          && x->target[0] == m->target[0] && x->slot[0] == m->slot[0]
          && x->target[1] == m->target[1] && x->slot[1] == m->slot[1]
          && x->n_cards == m->n_cards
          && memcmp (x->cards, m->cards, m->n_cards * sizeof m->cards[0]) == 0)
        return true;
    }
  return false;
}

/* Completeness: every move built from the cards in hand and the slots on
 * the table that `check` accepts is in the list (a Teleporter's pair in
 * either order, a discard in hand order). */
static void
assert_list_complete (const KatRules *r, const KatState *s, const EngMove *list, size_t n)
{
  EngMove m;
  for (int p = 0; p < s->n_players; p++)
    {
      uint16_t cards[KAT_HAND + 1] = { 0 };
      int nc = 1;
      for (int i = 0; i < s->hand_n[p]; i++)
        cards[nc++] = r->cards[s->hand[p][i]].serial;
      for (int v = 0; v < KAT_VERB_COUNT; v++)
        for (int ci = 0; ci < nc; ci++)
          for (int t0 = -1; t0 < s->n_players * KAT_SLOTS + s->n_players; t0++)
            for (int t1 = -1; t1 < (v == KAT_TELEPORT || v == KAT_REPLICATE
                                    ? s->n_players * KAT_SLOTS : 0); t1++)
              {
                eng_move_init (&m, (unsigned) v, p);
                m.card = cards[ci];
                /* t0: a slot (p*3+k), or a player alone (beyond the slots) */
                if (t0 >= s->n_players * KAT_SLOTS)
                  m.target[0] = (int8_t) (t0 - s->n_players * KAT_SLOTS);
                else if (t0 >= 0)
                  m.target[0] = (int8_t) (t0 / KAT_SLOTS), m.slot[0] = (int8_t) (t0 % KAT_SLOTS);
                if (t1 >= 0)
                  {
                    if (t0 < 0 || t0 >= s->n_players * KAT_SLOTS || t1 <= t0)
                      continue;
                    m.target[1] = (int8_t) (t1 / KAT_SLOTS), m.slot[1] = (int8_t) (t1 % KAT_SLOTS);
                  }
                if (!katua_game_class.move_shape_ok (&m, NULL, 0))
                  continue;
                if (eng_game_class_check (&katua_game_class, r, NULL, s, &m, NULL) == ENG_OK)
                  cr_assert (listed (list, n, &m), "legal but not listed: verb %s by %d card %u "
                             "targets %d/%d %d/%d (phase %d)", katua_game_class.verbs[v], p,
                             m.card, m.target[0], m.slot[0], m.target[1], m.slot[1], s->phase);
              }
    }
}

/* Plays `games` random games under `opts` (the rules file plus overrides). */
static void
play_random_games (const char *const *overrides, long games, uint64_t seed0, bool expect_k16)
{
  EngCardSet *set = gt_load_set ("katua");
  EngOptions opts;
  gt_load_options ("katua", &opts);
  for (int i = 0; overrides != NULL && overrides[i] != NULL; i += 2)
    cr_assert_eq (eng_options_set (&opts, overrides[i], overrides[i + 1]), ENG_OK);
  void *rules_v = NULL;
  EngParseError err;
  cr_assert_eq (katua_game_class.rules_new (set, &opts, &rules_v, &err), ENG_OK, "%s",
                err.reason);
  const KatRules *r = rules_v;
  long by_players[5] = { 0 }, ended[4] = { 0 }, total_moves = 0, round_trips = 0;
  EngRng policy;
  eng_rng_seed (&policy, 20261121);
  EngSetup su;
  eng_setup_init (&su);
  su.has_seed = true;
  const char *names[] = { "Ana", "Bea", "Cai", "Dan" };
  for (int p = 0; p < 4; p++)
    snprintf (su.names[p], sizeof su.names[p], "%s", names[p]);
  KatState s;
  EngMove moves[512];
  for (long g = 0; g < games; g++)
    {
      su.n_players = 2 + (unsigned) (g % 3);
      su.seed = seed0 + (uint64_t) g;
      su.first = (int) (g % su.n_players);
      EngRng rng;
      eng_rng_seed (&rng, su.seed);
      cr_assert_eq (katua_game_class.setup (r, &su, &rng, &s, NULL, NULL), ENG_OK);
      check_invariants (r, &s, g, 0);
      bool record = g % 250 == 0;
      /* every 20th game also runs on a live-table shadow that knows no
       * hidden card: told only the faces the table shows, it must referee
       * the same game to the same public state */
      bool live = g % 20 == 3;
      KatState shadow;
      if (live)
        {
          EngSetup lsu = su;
          lsu.has_seed = false;
          EngRng lrng;
          eng_rng_seed (&lrng, 0);
          cr_assert_eq (katua_game_class.setup (r, &lsu, &lrng, &shadow, NULL, NULL), ENG_OK);
        }
      EngRecord *rec = record ? eng_record_new (&katua_game_class, &su, NULL) : NULL;
      int n = 0;
      while (s.phase != KAT_PHASE_OVER)
        {
          cr_assert_lt (n, 5000, "game %ld does not end", g);
          size_t count = katua_game_class.legal_moves (r, &s, moves, 512);
          cr_assert_gt (count, 0, "game %ld move %d: no legal move but not over", g, n);
          if (count > 512)
            count = 512;
          EngMove m = moves[eng_rng_below (&policy, (uint32_t) count)];
          if (g % 500 == 1 && count < 512)
            assert_list_complete (r, &s, moves, count);
          if (g % 500 == 1)
            /* every listed move is legal, not only the one picked */
            for (size_t i = 0; i < count; i++)
              {
                EngVerdict v;
                cr_assert_eq (eng_game_class_check (&katua_game_class, r, NULL, &s, &moves[i],
                                                    &v), ENG_OK,
                              "game %ld move %d: listed move %zu refused: %s %s", g, n, i,
                              v.rule, v.reason);
              }
          if (g % 100 == 1)
            {
              /* undo: a copied state is the whole game */
              KatState before = s;
              EngVerdict v;
              cr_assert_eq (eng_game_class_check (&katua_game_class, r, NULL, &s, &m, &v), ENG_OK,
                                                  "%s", v.reason);
              cr_assert_eq (memcmp (&before, &s, sizeof s), 0, "check changes nothing");
            }
          EngVerdict why;
          EngMove seen = m;
          seen.show = observed_face (r, &s, &m);
          EngStatus st = eng_game_class_apply (&katua_game_class, r, NULL, &s, &m, NULL, &why);
          cr_assert_eq (st, ENG_OK, "game %ld move %d: a listed move was refused: %s %s", g, n,
                        why.rule, why.reason);
          if (rec != NULL)
            eng_record_append (rec, &m, 0);
          n++;
          check_invariants (r, &s, g, n);
          if (live)
            {
              st = eng_game_class_apply (&katua_game_class, r, NULL, &shadow, &seen, NULL, &why);
              cr_assert_eq (st, ENG_OK, "game %ld move %d: the live shadow refused %s: %s %s",
                            g, n, katua_game_class.verbs[m.verb], why.rule, why.reason);
              cr_assert_eq (katua_game_class.check_conservation (r, &shadow, &why), ENG_OK,
                            "game %ld move %d: live conservation: %s", g, n, why.reason);
              assert_same_public_state (&s, &shadow, g, n);
            }
        }
      by_players[su.n_players]++;
      ended[s.end_reason]++;
      total_moves += n;
      const char *tb = NULL;
      cr_assert_neq (katua_game_class.winners (r, &s, &tb), 0u, "game %ld: a game has winners", g);
      if (rec != NULL)
        {
          /* write, read back, replay: same record, same final state */
          char *text = eng_record_write (rec);
          cr_assert_not_null (text);
          EngRecord *back = NULL;
          cr_assert_eq (eng_record_parse (text, strlen (text), "written", &back, &err), ENG_OK,
                        "line %u: %s", err.line, err.reason);
          cr_assert (eng_record_equal (rec, back), "record round trip");
          EngReplayResult res;
          EngVerdict v;
          cr_assert_eq (eng_replay (back, set, &opts, false, true, NULL, NULL, &res, &v), ENG_OK);
          cr_assert_eq (res.illegal, 0);
          cr_assert (res.over);
          cr_assert_eq (memcmp (eng_game_state (res.game), &s, sizeof s), 0,
                        "replay reaches the same state");
          eng_game_free (res.game);
          eng_record_free (back);
          free (text);
          eng_record_free (rec);
          round_trips++;
        }
    }
  cr_assert_eq (by_players[2] + by_players[3] + by_players[4], games);
  cr_assert_gt (ended[KAT_END_SCORE], 0, "some games end at the count (K15)");
  if (expect_k16)
    cr_assert_gt (ended[KAT_END_CAT_DECK], 0, "some games end on an empty cat deck (K16)");
  cr_log_info ("%ld games, %.1f moves/game, ended by score %ld, by cat deck %ld, %ld round trips",
               games, (double) total_moves / (double) games, ended[KAT_END_SCORE],
               ended[KAT_END_CAT_DECK], round_trips);
  katua_game_class.rules_free (rules_v);
  eng_card_set_free (set);
}

Test (katua_random, ten_thousand_random_games_keep_every_invariant, .timeout = 600)
{
  play_random_games (NULL, games_to_play (), 1000, true);
}

Test (katua_random, option_variants_keep_every_invariant, .timeout = 600)
{
  long n = games_to_play () / 10;
  static const char *const answerable[] = { "xray_teleporter_answerable", "yes", NULL };
  static const char *const quick[] = { "quick_start", "yes", "total_memory", "yes", NULL };
  static const char *const no_draw[] = { "ufo_deck_out", "no-draw", "winning_score", "12", NULL };
  static const char *const end[] = { "ufo_deck_out", "end", "winning_score", "15", NULL };
  play_random_games (answerable, n, 50000, false);
  play_random_games (quick, n, 60000, false);
  play_random_games (no_draw, n, 70000, false);
  play_random_games (end, n, 80000, false);
}
