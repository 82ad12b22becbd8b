/* Random Escoba games dealt from seeds, 2, 3 and 4 players and 4 in pairs:
 * the 40 cards are conserved after every move, every capture adds up to
 * 15, and every round's points are what S8 gives for the piles this test
 * keeps itself from the moves (escobas, most cards, most oros, the siete de
 * oros, most sevens; the last table cards to the last capturer, S7). */
#include "escoba.h"
#include "game-test.h"

typedef struct {
  bool pile[ESC_PLAYERS][ESC_CARDS];   /* per side, card index */
  unsigned escobas[ESC_PLAYERS];
  int last;                            /* the last capturer, -1 none */
} Round;

static unsigned
side_of (const EscRules *r, unsigned n_players, unsigned p)
{
  return r->pairs && n_players == 4 ? p % 2 : p;
}

/* S8 for the piles of `rd`, into pts[side]. */
static void
expected_points (const EscRules *r, const Round *rd, unsigned sides, int *pts)
{
  unsigned cards[ESC_PLAYERS] = { 0 }, oros[ESC_PLAYERS] = { 0 }, sevens[ESC_PLAYERS] = { 0 };
  for (unsigned s = 0; s < sides; s++)
    {
      pts[s] = (int) rd->escobas[s];
      for (unsigned k = 0; k < ESC_CARDS; k++)
        if (rd->pile[s][k])
          {
            cards[s]++;
            oros[s] += r->suit[k] == 0;
            sevens[s] += r->value[k] == 7;
            pts[s] += k == r->siete_de_oros;
          }
    }
  const unsigned *counts[3] = { cards, oros, sevens };
  for (unsigned c = 0; c < 3; c++)
    {
      unsigned best = 0, n_best = 0, who = 0;
      for (unsigned s = 0; s < sides; s++)
        if (counts[c][s] > best)
          best = counts[c][s], n_best = 1, who = s;
        else if (counts[c][s] == best)
          n_best++;
      if (best > 0 && n_best == 1)
        pts[who]++;
    }
}

static void
play_game (const EngCardSet *set, const EngOptions *opts, unsigned n, uint64_t seed)
{
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = n;
  for (unsigned p = 0; p < n; p++)
    snprintf (su.names[p], sizeof su.names[p], "P%u", p + 1);
  su.has_seed = true;
  su.seed = seed;
  EngRng rng, policy;
  eng_rng_seed (&rng, seed);
  eng_rng_seed (&policy, seed ^ 0x9e3779b9u);
  EngGame *g = NULL;
  EngVerdict why;
  cr_assert_eq (eng_game_new (&escoba_game_class, set, opts, &su, &rng, NULL, &g, &why), ENG_OK,
                "%s", why.reason);
  const EscRules *r = eng_game_rules (g);
  const EscState *s = eng_game_state (g);
  unsigned sides = r->pairs && n == 4 ? 2 : n;
  Round rd = { .last = -1 };
  EngEvent storage[64];
  EngEvents ev;
  int moves = 0, rounds = 0;
  while (!eng_game_is_over (g))
    {
      cr_assert_lt (moves++, 5000, "seed %llu: the game does not end", (unsigned long long) seed);
      EngMove m;
      cr_assert (eng_game_class_random_move (&escoba_game_class, r, s, &policy, &m));
      unsigned round = s->round, dealer = s->dealer, table_before = s->table_n;
      unsigned side = side_of (r, n, (unsigned) m.player);
      unsigned sum = m.card ? r->value[eng_card_table_index (&r->table, m.card)] : 0;
      for (unsigned i = 0; i < m.n_cards; i++)
        sum += r->value[eng_card_table_index (&r->table, m.cards[i])];
      eng_events_init (&ev, storage, 64);
      cr_assert_eq (eng_game_apply (g, &m, &ev, &why), ENG_OK, "seed %llu move %d: %s",
                    (unsigned long long) seed, moves, why.reason);
      cr_assert_eq (eng_game_check_conservation (g, &why), ENG_OK, "seed %llu move %d: %s",
                    (unsigned long long) seed, moves, why.reason);
      if (m.verb == ESC_DEAL)
        {
          /* the dealer's escoba: 15, or 30 in two groups of 15 (S2) */
          uint8_t four[4];
          for (unsigned i = 0; i < 4; i++)
            four[i] = r->value[eng_card_table_index (&r->table, i == 0 ? m.card : m.cards[i - 1])];
          bool halves = false;
          for (unsigned mask = 1; mask < 15; mask++)
            {
              unsigned part = 0;
              for (unsigned i = 0; i < 4; i++)
                part += (mask >> i) & 1 ? four[i] : 0;
              halves = halves || part == 15;
            }
          if (sum == 15 || (sum == 30 && halves))
            {
              for (unsigned i = 0; i < 4; i++)
                rd.pile[side][eng_card_table_index (&r->table, i == 0 ? m.card : m.cards[i - 1])] = true;
              rd.escobas[side] += sum == 15 ? 1 : 2;
              rd.last = m.player;
            }
        }
      else if (m.n_cards > 0)
        {
          cr_assert_eq (sum, 15u, "seed %llu move %d: a capture of %u", (unsigned long long) seed,
                        moves, sum);
          rd.pile[side][eng_card_table_index (&r->table, m.card)] = true;
          for (unsigned i = 0; i < m.n_cards; i++)
            rd.pile[side][eng_card_table_index (&r->table, m.cards[i])] = true;
          rd.last = m.player;
          if (table_before == m.n_cards)
            rd.escobas[side]++;   /* the table is empty: an escoba (S5) */
        }
      if (round == s->round && !eng_game_is_over (g))
        continue;
      /* the round ended with this move: an escoba on the last card counts
       * too, and the table's last cards go to the last capturer (S7) */
      unsigned taker = side_of (r, n, rd.last >= 0 ? (unsigned) rd.last : dealer);
      for (unsigned k = 0; k < ESC_CARDS; k++)
        {
          bool held = false;
          for (unsigned x = 0; x < sides; x++)
            held = held || rd.pile[x][k];
          if (!held)
            rd.pile[taker][k] = true;
        }
      int pts[ESC_PLAYERS];
      expected_points (r, &rd, sides, pts);
      unsigned scored = 0;
      for (size_t i = 0; i < ev.n; i++)
        if (storage[i].kind == ENG_EVENT_SCORE)
          {
            cr_assert_lt ((unsigned) storage[i].player, sides);
            cr_assert_eq (storage[i].delta, pts[storage[i].player],
                          "seed %llu round %u side %d: %s (S8 gives %d)",
                          (unsigned long long) seed, round, storage[i].player, storage[i].text,
                          pts[storage[i].player]);
            scored++;
          }
      cr_assert_eq (scored, sides, "every side is counted");
      memset (&rd, 0, sizeof rd);
      rd.last = -1;
      rounds++;
    }
  /* the winner reached the target alone */
  unsigned w = eng_game_winners (g, NULL);
  cr_assert_neq (w, 0u);
  int best = eng_game_score (g, (unsigned) __builtin_ctz (w));
  cr_assert_geq (best, r->target);
  for (unsigned p = 0; p < n; p++)
    if (!((w >> p) & 1))
      cr_assert_lt (eng_game_score (g, p), best);
  cr_assert_gt (rounds, 0);
  eng_game_free (g);
}

static void
play_many (unsigned n, const char *pairs)
{
  EngCardSet *set = gt_load_set ("escoba");
  EngOptions opts;
  gt_load_options ("escoba", &opts);
  eng_options_set (&opts, "pairs", pairs);
  int games = getenv ("TABLERO_SANITIZED") ? 20 : 60;
  for (int i = 0; i < games; i++)
    play_game (set, &opts, n, 1000u * n + (uint64_t) i + (pairs[0] == 'y' ? 500u : 0u));
  eng_card_set_free (set);
}

Test (escoba_random, two_players) { play_many (2, "no"); }
Test (escoba_random, three_players) { play_many (3, "no"); }
Test (escoba_random, four_players) { play_many (4, "no"); }
Test (escoba_random, four_in_pairs) { play_many (4, "yes"); }
