/* One or more tests per ruling E1-E16 (RULINGS.md) and per card, each on a
 * small scenario written as a game record: a seeded deal (the referee knows
 * every card) with the hands and the top of the pile fixed where the rule
 * needs them, or a live deal (no seed: unseen cards are tokens).
 *
 * Serials of data/cards/kittens.set (file order): Exploding Kitten 1-4,
 * Defuse 5-10, Nope 11-15, Attack 16-19, Skip 20-23, Favor 24-27, Shuffle
 * 28-31, See the Future 32-36, cats black 37-40, white 41-44, grey 45-48,
 * tabby 49-52, blond 53-56.  FULL adds one copy each of Targeted Attack 57,
 * Triple Attack 58, Super Skip 59, Draw from the Bottom 60, Alter the
 * Future (3) 61, Reverse 62, Swap Top and Bottom 63, Bury 64, Personal
 * Attack 65, and two Feral Cats 66-67.
 */
#include "kittens-test.h"

#include "eng-replay.h"

#define TWO "game kittens\nplayer Ana\nplayer Bea\nseed 7\n"
#define THREE "game kittens\nplayer Ana\nplayer Bea\nplayer Cai\nseed 7\n"
#define CATS_ON_TOP "deal pile 40 44 48 52\n"

static const char *const full_edits[] = {
  "targeted-attack 1", "triple-attack 1", "super-skip 1", "draw-from-bottom 1",
  "alter-the-future-3 1", "reverse 1", "swap-top-bottom 1", "bury 1", "personal-attack 1",
  "feral-cat 2",
};

static EngCardSet *
full_set (void)
{
  return kx_load_set (full_edits, sizeof full_edits / sizeof full_edits[0]);
}

static uint8_t
idx (const GameTest *t, unsigned serial)
{
  return kittens_card_index (kx_rules (t), serial);
}

/* ---- E1 ---------------------------------------------------------------- */

Test (kittens, e01_the_deck_is_the_card_set)
{
  GameTest t;
  gt_new (&t, TWO);
  const KitRules *r = kx_rules (&t);
  cr_assert_eq (r->n_cards, 56);
  int kinds[KIT_KIND_COUNT] = { 0 };
  for (int i = 0; i < r->n_cards; i++)
    kinds[r->cards[i].kind]++;
  cr_assert_eq (kinds[KIT_KIND_KITTEN], 4);
  cr_assert_eq (kinds[KIT_KIND_DEFUSE], 6);
  cr_assert_eq (kinds[KIT_KIND_NOPE], 5);
  cr_assert_eq (kinds[KIT_KIND_ATTACK], 4);
  cr_assert_eq (kinds[KIT_KIND_SKIP], 4);
  cr_assert_eq (kinds[KIT_KIND_FAVOR], 4);
  cr_assert_eq (kinds[KIT_KIND_SHUFFLE], 4);
  cr_assert_eq (kinds[KIT_KIND_SEE], 5);
  cr_assert_eq (kinds[KIT_KIND_CAT], 20);
  static const struct { unsigned serial; const char *name; } names[] = {
    { 1, "Exploding Kitten" }, { 5, "Defuse" }, { 11, "Nope" }, { 16, "Attack" },
    { 20, "Skip" }, { 24, "Favor" }, { 28, "Shuffle" }, { 32, "See the Future" },
    { 37, "Black cat" }, { 41, "White cat" }, { 56, "Blond cat" },
  };
  char buf[64];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      eng_game_card_name (t.game, names[i].serial, false, buf, sizeof buf);
      cr_assert_str_eq (buf, names[i].name, "serial %u", names[i].serial);
    }
  gt_free (&t);
}

Test (kittens, e01_every_card_of_the_rulebook_is_available_by_count)
{
  GameTest t;
  gt_new_set (&t, TWO, full_set ());
  const KitRules *r = kx_rules (&t);
  cr_assert_eq (r->n_cards, 67);
  static const struct { unsigned serial; unsigned kind; } extra[] = {
    { 57, KIT_KIND_TARGETED }, { 58, KIT_KIND_TRIPLE }, { 59, KIT_KIND_SUPER_SKIP },
    { 60, KIT_KIND_BOTTOM }, { 61, KIT_KIND_ALTER }, { 62, KIT_KIND_REVERSE },
    { 63, KIT_KIND_SWAP }, { 64, KIT_KIND_BURY }, { 65, KIT_KIND_PERSONAL },
    { 66, KIT_KIND_FERAL }, { 67, KIT_KIND_FERAL },
  };
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
    cr_assert_eq (r->cards[idx (&t, extra[i].serial)].kind, extra[i].kind, "serial %u",
                  extra[i].serial);
  cr_assert_eq (r->cards[idx (&t, 58)].turns, 3, "Triple Attack: three turns");
  gt_free (&t);
}

/* ---- E2 / E15 ---------------------------------------------------------- */

static void
check_deal (unsigned players, const char *option, int pile_defuses_max)
{
  static const char *const names[] = { "Ana", "Bea", "Cai", "Dan", "Eva" };
  for (unsigned seed = 1; seed <= 20; seed++)
    {
      char header[512];
      int n = snprintf (header, sizeof header, "game kittens\nseed %u\n%s", seed, option);
      for (unsigned p = 0; p < players; p++)
        n += snprintf (header + n, sizeof header - (size_t) n, "player %s\n", names[p]);
      GameTest t;
      gt_new (&t, header);
      const KitState *s = kx_state (&t);
      const KitRules *r = kx_rules (&t);
      for (unsigned p = 0; p < players; p++)
        {
          cr_assert_eq (s->hand_n[p], 8, "one Defuse and 7 cards");
          cr_assert_eq (kx_hand_kind (&t, (int) p, KIT_KIND_DEFUSE), 1,
                        "Defuses are out before the 7 cards are dealt (E15)");
          cr_assert_eq (kx_hand_kind (&t, (int) p, KIT_KIND_KITTEN), 0);
        }
      cr_assert_eq (kx_pile_kind (r, s, KIT_KIND_KITTEN), (int) players - 1);
      cr_assert_eq (s->pile_kittens, players - 1);
      int spares = 6 - (int) players;
      int in_pile = spares < pile_defuses_max ? spares : pile_defuses_max;
      cr_assert_eq (kx_pile_kind (r, s, KIT_KIND_DEFUSE), in_pile, "%u players %s", players,
                    option);
      cr_assert_eq (s->box_n, (4 - (players - 1)) + (unsigned) (spares - in_pile));
      cr_assert_eq (s->pile_n + s->box_n + 8 * players, 56);
      EngVerdict v;
      cr_assert_eq (eng_game_check_conservation (t.game, &v), ENG_OK, "%s", v.reason);
      gt_free (&t);
    }
}

Test (kittens, e02_setup_one_defuse_and_seven_cards_kittens_players_minus_one)
{
  for (unsigned players = 2; players <= 5; players++)
    check_deal (players, "", 99);
}

Test (kittens, e15_spare_defuses_two_puts_two_in_the_pile_the_rest_out)
{
  for (unsigned players = 2; players <= 5; players++)
    check_deal (players, "option spare_defuses two\n", 2);
}

Test (kittens, e02_two_to_five_players)
{
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  const char *six = "game kittens\nplayer A\nplayer B\nplayer C\nplayer D\nplayer E\n"
                    "player F\n";
  cr_assert_neq (eng_record_parse (six, strlen (six), "six", &rec, &err), ENG_OK);
  const char *one = "game kittens\nplayer A\n";
  cr_assert_neq (eng_record_parse (one, strlen (one), "one", &rec, &err), ENG_OK);
  cr_assert_eq (kittens_game_class.min_players, 2);
  cr_assert_eq (kittens_game_class.max_players, 5);
}

Test (kittens, e02_a_bad_option_value_is_refused)
{
  EngCardSet *set = kx_load_set (NULL, 0);
  EngOptions opts = { 0 };
  eng_options_set (&opts, "attack_stacking", "double");
  void *rules = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (kittens_game_class.rules_new (set, &opts, &rules, &err), ENG_ERR_SYNTAX);
  cr_assert_null (rules);
  cr_assert (strstr (err.reason, "attack_stacking") != NULL, "%s", err.reason);
  EngOptions other = { 0 };
  eng_options_set (&other, "nope_everything", "yes");
  cr_assert_eq (kittens_game_class.rules_new (set, &other, &rules, &err),
                ENG_ERR_UNKNOWN_ATTRIBUTE);
  eng_card_set_free (set);
}

/* ---- E3 ---------------------------------------------------------------- */

Test (kittens, e03_play_any_number_then_draw_to_end_the_turn)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 28 32 5\ndeal Bea hand 6 20\n");
  gt_refused (&t, "Bea draw", ENG_ERR_ILLEGAL, "turn");
  gt_ok (&t, "Ana play 28");
  gt_ok (&t, "Ana play 32");
  cr_assert_eq (kx_state (&t)->active, 0, "playing cards does not end the turn");
  gt_ok (&t, "Ana draw");
  cr_assert_eq (kx_state (&t)->active, 1, "the draw ends it");
  cr_assert_eq (kx_state (&t)->hand_n[0], 2);
  cr_assert_eq (kx_state (&t)->discard_n, 2);
  cr_assert_not_null (gt_event (&t, ENG_EVENT_TURN, NULL));
  gt_free (&t);
}

/* ---- E4 / E10: attack arithmetic --------------------------------------- */

Test (kittens, e10_attack_from_an_ordinary_turn_gives_exactly_two)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 6\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->active, 1);
  cr_assert_eq (kx_state (&t)->owed, 2);
  cr_assert (kx_state (&t)->under_attack);
  cr_assert_eq (kx_state (&t)->hand_n[0], 1, "an attack ends the turn without drawing");
  gt_free (&t);
}

static unsigned
attack_back (const char *option, bool after_one)
{
  char header[512];
  snprintf (header, sizeof header, "%s%s%s", TWO, option,
            CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 17 6\n");
  GameTest t;
  gt_new (&t, header);
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Ana resolve");
  if (after_one)
    {
      gt_ok (&t, "Bea draw");
      cr_assert_eq (kx_state (&t)->active, 1, "one of two turns done: still Bea's");
      cr_assert_eq (kx_state (&t)->owed, 1);
    }
  gt_ok (&t, "Bea play 17");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 0);
  unsigned owed = kx_state (&t)->owed;
  gt_free (&t);
  return owed;
}

Test (kittens, e10_stack_attack_at_once_on_the_first_of_two_gives_four)
{
  cr_assert_eq (attack_back ("", false), 4);
}

Test (kittens, e10_stack_attack_after_completing_one_of_two_gives_three)
{
  cr_assert_eq (attack_back ("", true), 3);
}

Test (kittens, e04_reset_the_next_player_takes_exactly_two)
{
  cr_assert_eq (attack_back ("option attack_stacking reset\n", false), 2);
  cr_assert_eq (attack_back ("option attack_stacking reset\n", true), 2);
}

Test (kittens, e10_three_attacks_at_once_in_a_row_give_six)
{
  GameTest t;
  gt_new (&t, THREE CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 17 6\ndeal Cai hand 18 7\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Bea play 17");   /* Bea's first move closes Ana's Attack (E12) */
  cr_assert_eq (kx_state (&t)->active, 1);
  gt_ok (&t, "Cai play 18");
  cr_assert_eq (kx_state (&t)->active, 2);
  cr_assert_eq (kx_state (&t)->owed, 4);
  gt_ok (&t, "Cai resolve");
  cr_assert_eq (kx_state (&t)->active, 0);
  cr_assert_eq (kx_state (&t)->owed, 6);
  gt_free (&t);
}

/* ---- E5 / E11: the other turn cards ------------------------------------- */

Test (kittens, e05_targeted_attack_gives_the_chosen_player_two)
{
  GameTest t;
  gt_new_set (&t, THREE CATS_ON_TOP "deal Ana hand 57 5\ndeal Bea hand 6\ndeal Cai hand 7\n",
              full_set ());
  gt_refused (&t, "Ana play 57", ENG_ERR_ILLEGAL, "E13");
  gt_refused (&t, "Ana play 57 Ana", ENG_ERR_ILLEGAL, "E13");
  gt_ok (&t, "Ana play 57 Cai");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->active, 2, "Cai, not the next player");
  cr_assert_eq (kx_state (&t)->owed, 2);
  gt_free (&t);
}

Test (kittens, e05_personal_attack_adds_two_of_your_own)
{
  GameTest t;
  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 65 5\ndeal Bea hand 6\n", full_set ());
  gt_ok (&t, "Ana play 65");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->active, 0);
  cr_assert_eq (kx_state (&t)->owed, 3);
  gt_ok (&t, "Ana draw");
  gt_ok (&t, "Ana draw");
  cr_assert_eq (kx_state (&t)->active, 0);
  gt_ok (&t, "Ana draw");
  cr_assert_eq (kx_state (&t)->active, 1);
  gt_free (&t);
}

Test (kittens, e05_skip_ends_one_turn_only)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 20 21 6\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Ana resolve");
  gt_ok (&t, "Bea play 20");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 1, "one of Bea's two turns is skipped");
  cr_assert_eq (kx_state (&t)->owed, 1);
  cr_assert_eq (kx_state (&t)->hand_n[1], 2, "no draw");
  gt_ok (&t, "Bea play 21");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 0);
  cr_assert_eq (kx_state (&t)->owed, 1);
  cr_assert (!kx_state (&t)->under_attack);
  gt_free (&t);
}

Test (kittens, e11_super_skip_passes_every_turn_not_completed)
{
  GameTest t;
  gt_new_set (&t, THREE CATS_ON_TOP "deal Ana hand 58 5\ndeal Bea hand 59 6\ndeal Cai hand 7\n",
              full_set ());
  gt_ok (&t, "Ana play 58");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->owed, 3, "Triple Attack: three turns");
  gt_ok (&t, "Bea play 59");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 2);
  cr_assert_eq (kx_state (&t)->owed, 3, "on the first of 3 the next player owes 3");
  cr_assert_eq (kx_state (&t)->hand_n[1], 1, "no draw");
  gt_free (&t);
}

Test (kittens, e11_reverse_ends_one_turn_and_reverses_the_order)
{
  GameTest t;
  gt_new_set (&t, THREE CATS_ON_TOP "deal Ana hand 62 5\ndeal Bea hand 6\ndeal Cai hand 7\n",
              full_set ());
  gt_ok (&t, "Ana play 62");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->active, 2, "Cai plays after Ana once reversed");
  gt_ok (&t, "Cai draw");
  cr_assert_eq (kx_state (&t)->active, 1);
  gt_free (&t);
}

Test (kittens, e11_reverse_with_two_players_is_a_skip)
{
  GameTest t;
  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 62 6\n", full_set ());
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Ana resolve");
  gt_ok (&t, "Bea play 62");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 1, "one turn ended, like a Skip");
  cr_assert_eq (kx_state (&t)->owed, 1);
  cr_assert_eq (kx_state (&t)->dir, 1);
  gt_free (&t);
}

Test (kittens, e05_bury_puts_the_top_card_at_the_bottom_and_ends_the_turn)
{
  GameTest t;
  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 64 5\ndeal Bea hand 6\n", full_set ());
  gt_ok (&t, "Ana play 64");
  gt_ok (&t, "Ana resolve");
  const KitState *s = kx_state (&t);
  cr_assert_eq (s->pile[0], idx (&t, 40), "the top card is now at the bottom");
  cr_assert_eq (s->pile[s->pile_n - 1], idx (&t, 44));
  cr_assert_eq (s->hand_n[0], 1, "Ana keeps no card of it");
  cr_assert_eq (s->active, 1);
  gt_free (&t);
}

Test (kittens, e05_draw_from_the_bottom_and_swap_top_and_bottom)
{
  GameTest t;
  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 60 63 5\ndeal Bea hand 6\n", full_set ());
  uint8_t bottom = kx_state (&t)->pile[0];
  gt_ok (&t, "Ana play 63");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->pile[0], idx (&t, 40));
  cr_assert_eq (kx_state (&t)->pile[kx_state (&t)->pile_n - 1], bottom);
  gt_ok (&t, "Ana play 60");
  gt_ok (&t, "Ana draw");
  cr_assert (kx_hand_has (&t, 0, 40), "the bottom card was drawn");
  cr_assert_eq (kx_state (&t)->pile[kx_state (&t)->pile_n - 1], bottom, "the top stays");
  cr_assert_eq (kx_state (&t)->active, 1);
  gt_free (&t);
}

Test (kittens, e16_alter_the_future_reorders_the_top_three_unseen)
{
  GameTest t;
  gt_new_set (&t, TWO "deal pile 40 44 48\ndeal Ana hand 61 5\ndeal Bea hand 6\n", full_set ());
  gt_ok (&t, "Ana play 61");
  gt_ok (&t, "Ana resolve");
  const KitState *s = kx_state (&t);
  int found = 0;
  for (int i = s->pile_n - 3; i < s->pile_n; i++)
    found += s->pile[i] == idx (&t, 40) || s->pile[i] == idx (&t, 44)
             || s->pile[i] == idx (&t, 48);
  cr_assert_eq (found, 3, "the same three cards stay on top");
  char which[256];
  cr_assert (!kx_names_hidden (kx_rules (&t), s, &t.events, which, sizeof which), "%s", which);
  gt_free (&t);
}

/* ---- E6 / E12: Nope ---------------------------------------------------- */

Test (kittens, e06_a_nope_stops_the_card)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 11 6\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Bea nope 11");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->active, 0, "the Attack was stopped");
  cr_assert_eq (kx_state (&t)->owed, 1);
  cr_assert_eq (kx_state (&t)->discard_n, 2, "both cards spent");
  gt_free (&t);
}

Test (kittens, e06_nope_on_nope_restores_the_card)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 16 12 5\ndeal Bea hand 11 6\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Bea nope 11");
  gt_ok (&t, "Ana nope 12");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 1, "an even chain lets the Attack through");
  cr_assert_eq (kx_state (&t)->owed, 2);
  gt_free (&t);
}

Test (kittens, e12_odd_chain_of_three_stops_and_anyone_may_nope_even_the_player)
{
  GameTest t;
  gt_new (&t, THREE CATS_ON_TOP "deal Ana hand 16 12 5\ndeal Bea hand 11 6\ndeal Cai hand 13 7\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Ana nope 12");    /* the player of the card may Nope it */
  gt_ok (&t, "Cai nope 13");
  gt_ok (&t, "Bea nope 11");
  cr_assert_eq (kx_state (&t)->nopes, 3);
  gt_ok (&t, "Cai resolve");    /* the table confirms */
  cr_assert_eq (kx_state (&t)->active, 0, "three Nopes: stopped");
  gt_free (&t);
}

Test (kittens, e12_a_nope_with_nothing_open_goes_back_to_hand)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 32 5\ndeal Bea hand 11 6\n");
  gt_refused (&t, "Bea nope 11", ENG_ERR_ILLEGAL, "E12");
  gt_ok (&t, "Ana play 32");
  gt_ok (&t, "Ana draw");        /* its player draws: the See the Future is closed */
  gt_refused (&t, "Bea nope 11", ENG_ERR_ILLEGAL, "E12");
  cr_assert (kx_hand_has (&t, 1, 11), "the Nope stays in hand");
  gt_free (&t);
}

Test (kittens, e12_the_next_card_closes_the_open_one)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 28 16 5\ndeal Bea hand 11 6\n");
  gt_ok (&t, "Ana play 28");
  gt_ok (&t, "Ana play 16");
  cr_assert_eq (kx_state (&t)->open_cards[0], idx (&t, 16), "the Attack is the open card");
  gt_ok (&t, "Bea nope 11");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->active, 0, "the Nope stopped the Attack, not the Shuffle");
  gt_free (&t);
}

Test (kittens, e12_nothing_stops_an_exploding_kitten_or_a_defuse)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 1\ndeal Ana hand 5\ndeal Bea hand 11 6\n");
  gt_ok (&t, "Ana draw");
  gt_refused (&t, "Bea nope 11", ENG_ERR_ILLEGAL, "E12");
  gt_ok (&t, "Ana defuse 5");
  gt_refused (&t, "Bea nope 11", ENG_ERR_ILLEGAL, "E12");
  gt_free (&t);
}

Test (kittens, e06_nope_on_a_combo_follows_the_option)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 37 38 5\ndeal Bea hand 11 6\n");
  gt_ok (&t, "Ana pair 37 38 Bea");
  gt_ok (&t, "Bea nope 11");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->hand_n[0], 1, "the pair was stopped: nothing stolen");
  cr_assert_eq (kx_state (&t)->hand_n[1], 1);
  gt_free (&t);

  gt_new (&t, TWO "option nope_on_combo no\n" CATS_ON_TOP
          "deal Ana hand 37 38 5\ndeal Bea hand 11 6\n");
  gt_ok (&t, "Ana pair 37 38 Bea");
  gt_refused (&t, "Bea nope 11", ENG_ERR_ILLEGAL, "E6");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->hand_n[0], 2, "the pair stole a card");
  gt_free (&t);
}

/* ---- E7: combos --------------------------------------------------------- */

Test (kittens, e07_a_pair_steals_a_random_card)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 37 38 41 5\ndeal Bea hand 6 20 21\n");
  gt_refused (&t, "Ana pair 37 41 Bea", ENG_ERR_ILLEGAL, "E7");
  gt_refused (&t, "Ana play 37", ENG_ERR_ILLEGAL, "E7");
  gt_ok (&t, "Ana pair 37 38 Bea");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->hand_n[0], 3);
  cr_assert_eq (kx_state (&t)->hand_n[1], 2);
  cr_assert (kx_hand_has (&t, 0, 6) || kx_hand_has (&t, 0, 20) || kx_hand_has (&t, 0, 21));
  gt_free (&t);
}

Test (kittens, e07_a_trio_names_a_card_given_when_held)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 37 38 39 5\ndeal Bea hand 6 20\n");
  gt_ok (&t, "Ana trio 37 38 39 22 Bea");   /* 22: any Skip names "a Skip" */
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->phase, KIT_PHASE_GIVE);
  cr_assert_eq (eng_game_to_move (t.game), 1);
  gt_refused (&t, "Bea give", ENG_ERR_ILLEGAL, "E7");
  gt_refused (&t, "Bea give 6", ENG_ERR_ILLEGAL, "E7");
  gt_refused (&t, "Ana draw", ENG_ERR_ILLEGAL, "E13");
  gt_ok (&t, "Bea give 20");
  cr_assert (kx_hand_has (&t, 0, 20));
  /* the card a trio asks for is shown as it is handed over */
  cr_assert_str_eq (gt_event (&t, ENG_EVENT_ACCEPTED, "")->text, "Bea give 20");
  cr_assert_eq (kx_state (&t)->phase, KIT_PHASE_TURN);
  gt_free (&t);
}

Test (kittens, e07_a_trio_asking_for_a_card_not_held_gets_nothing)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 37 38 39 5\ndeal Bea hand 6 20\n");
  gt_ok (&t, "Ana trio 37 38 39 24 Bea");
  gt_ok (&t, "Ana resolve");
  gt_ok (&t, "Bea give");
  cr_assert_eq (kx_state (&t)->hand_n[0], 1);
  cr_assert_eq (kx_state (&t)->hand_n[1], 2);
  gt_free (&t);
}

Test (kittens, e07_five_different_take_a_card_from_the_discard)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal discard 28 16\ndeal Ana hand 37 41 45 49 53 5\n"
          "deal Bea hand 6\n");
  gt_refused (&t, "Ana five 37 42 45 49 53", ENG_ERR_CONSERVATION, "E9");
  gt_ok (&t, "Ana five 37 41 45 49 53");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (kx_state (&t)->phase, KIT_PHASE_TAKE);
  gt_refused (&t, "Ana take 37", ENG_ERR_ILLEGAL, "E7");
  gt_ok (&t, "Ana take 16");
  cr_assert (kx_hand_has (&t, 0, 16));
  cr_assert_eq (kx_state (&t)->discard_n, 6);
  gt_free (&t);
}

Test (kittens, e07_five_cards_must_differ)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 37 38 41 45 49 5\ndeal Bea hand 6\n");
  gt_refused (&t, "Ana five 37 38 41 45 49", ENG_ERR_ILLEGAL, "E7");
  gt_free (&t);
}

Test (kittens, e07_feral_cat_stands_in_and_two_ferals_follow_the_option)
{
  GameTest t;
  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 66 67 37 5\ndeal Bea hand 6 20\n", full_set ());
  gt_refused (&t, "Ana pair 66 16 Bea", ENG_ERR_ILLEGAL, "E7");
  gt_ok (&t, "Ana pair 66 37 Bea");
  gt_free (&t);

  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 66 67 5\ndeal Bea hand 6 20\n", full_set ());
  gt_ok (&t, "Ana pair 66 67 Bea");
  gt_free (&t);

  gt_new_set (&t, TWO "option two_ferals_pair no\n" CATS_ON_TOP
              "deal Ana hand 66 67 5\ndeal Bea hand 6 20\n", full_set ());
  gt_refused (&t, "Ana pair 66 67 Bea", ENG_ERR_ILLEGAL, "E7");
  gt_free (&t);

  gt_new_set (&t, TWO CATS_ON_TOP "deal Ana hand 66 37 38 5\ndeal Bea hand 6 20\n", full_set ());
  gt_ok (&t, "Ana trio 66 37 38 5 Bea");
  gt_free (&t);
}

/* ---- E8 / E14: kittens and Defuse ---------------------------------------- */

Test (kittens, e08_a_kitten_drawn_is_shown_and_defused_back_into_the_pile)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 1\ndeal Ana hand 5 20\ndeal Bea hand 6\n");
  unsigned pile = kx_state (&t)->pile_n;
  gt_ok (&t, "Ana draw");
  const EngEvent *e = gt_event (&t, ENG_EVENT_SHOWN, "E8");
  cr_assert_not_null (e, "the kitten is shown");
  cr_assert_eq (e->value, 1);
  cr_assert_eq (kx_state (&t)->phase, KIT_PHASE_KITTEN);
  cr_assert_eq (kx_state (&t)->pile_kittens, 0);
  gt_refused (&t, "Ana play 20", ENG_ERR_ILLEGAL, "E8");
  gt_refused (&t, "Ana replace", ENG_ERR_ILLEGAL, "E8");
  gt_ok (&t, "Ana defuse 5");
  cr_assert_eq (kx_state (&t)->phase, KIT_PHASE_PLACE);
  cr_assert_eq (eng_game_to_move (t.game), 0);
  gt_refused (&t, "Ana draw", ENG_ERR_ILLEGAL, "E8");
  gt_ok (&t, "Ana replace");
  cr_assert_eq (kx_state (&t)->pile_n, pile, "the kitten is back in the pile");
  cr_assert_eq (kx_state (&t)->pile_kittens, 1);
  cr_assert_eq (kx_pile_kind (kx_rules (&t), kx_state (&t), KIT_KIND_KITTEN), 1);
  cr_assert_eq (kx_state (&t)->active, 1, "the Defuse ended Ana's turn");
  gt_free (&t);
}

Test (kittens, e08_without_a_defuse_the_player_explodes_last_in_wins)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 1\ndeal Ana hand 20\ndeal Bea hand 6\n");
  gt_ok (&t, "Ana draw");
  gt_refused (&t, "Ana defuse 6", ENG_ERR_CONSERVATION, "E9");
  gt_ok (&t, "Ana explode");
  cr_assert (eng_game_is_over (t.game));
  const char *tb = NULL;
  cr_assert_eq (eng_game_winners (t.game, &tb), 2u);
  cr_assert_str_eq (tb, "last-alive");
  cr_assert_eq (eng_game_score (t.game, 0), 0);
  cr_assert_eq (eng_game_score (t.game, 1), 1);
  cr_assert_not_null (gt_event (&t, ENG_EVENT_GAME_OVER, NULL));
  gt_refused (&t, "Bea draw", ENG_ERR_STATE, "E8");
  gt_free (&t);
}

Test (kittens, e14_defuse_under_attack_ends_only_the_current_turn)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 1\ndeal Ana hand 16 5\ndeal Bea hand 6\n");
  gt_ok (&t, "Ana play 16");
  gt_ok (&t, "Ana resolve");
  gt_ok (&t, "Bea draw");
  gt_ok (&t, "Bea defuse 6");
  gt_ok (&t, "Bea replace");
  cr_assert_eq (kx_state (&t)->active, 1, "Bea still owes a turn");
  cr_assert_eq (kx_state (&t)->owed, 1);
  gt_free (&t);
}

Test (kittens, e14_an_eliminated_players_cards_leave_play)
{
  GameTest t;
  gt_new (&t, THREE "deal pile 1\ndeal Ana hand 20 24\ndeal Bea hand 6\ndeal Cai hand 7\n");
  unsigned discard = kx_state (&t)->discard_n;
  gt_ok (&t, "Ana draw");
  gt_ok (&t, "Ana explode");
  const KitState *s = kx_state (&t);
  cr_assert (!eng_game_is_over (t.game));
  cr_assert_eq (s->discard_n, discard, "not to the discard pile");
  cr_assert_eq (s->hand_n[0], 2, "face down in front of Ana");
  cr_assert_eq (s->out_kitten[0], idx (&t, 1), "the kitten face up in front of Ana");
  cr_assert_eq (s->active, 1);
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert (v.players[0].flags & ENG_VIEW_PLAYER_OUT);
  cr_assert_eq (v.players[0].n_places, 1);
  cr_assert_eq (v.players[0].places[0].cards[0].serial, 1);
  gt_free (&t);
}

/* ---- E9: a live table ----------------------------------------------------- */

Test (kittens, e09_live_hands_and_pile_are_unseen_tokens)
{
  GameTest t;
  gt_new (&t, "game kittens\nplayer Ana\nplayer Bea\n");
  const KitState *s = kx_state (&t);
  cr_assert_eq (s->hand_n[0], 8);
  for (int i = 0; i < s->hand_n[0]; i++)
    cr_assert_eq (s->hand[0][i], KIT_UNKNOWN);
  for (int i = 0; i < s->pile_n; i++)
    cr_assert_eq (s->pile[i], KIT_UNKNOWN);
  cr_assert_eq (s->pile_kittens, 1);
  EngMove moves[16];
  cr_assert_eq (eng_game_legal_moves (t.game, moves, 16), 1, "only the draw is known");
  cr_assert_eq (moves[0].verb, KIT_DRAW);
  gt_ok (&t, "Ana play 16");           /* the face is seen as it is played */
  cr_assert_eq (kx_state (&t)->hand_n[0], 7);
  gt_ok (&t, "Bea draw");              /* closes the Attack; Bea's first turn */
  cr_assert_eq (kx_state (&t)->hand_n[1], 9);
  cr_assert_eq (kx_state (&t)->hand[1][8], KIT_UNKNOWN);
  gt_refused (&t, "Bea draw show 20", ENG_ERR_ILLEGAL, "E16");
  gt_ok (&t, "Bea draw show 2");
  cr_assert_eq (kx_state (&t)->phase, KIT_PHASE_KITTEN);
  cr_assert_eq (kx_state (&t)->pile_kittens, 0);
  gt_ok (&t, "Bea defuse 6");
  gt_ok (&t, "Bea replace");
  cr_assert_eq (kx_state (&t)->pile_kittens, 1);
  for (int i = 0; i < kx_state (&t)->pile_n; i++)
    cr_assert_eq (kx_state (&t)->pile[i], KIT_UNKNOWN, "the kitten's place is unknown");
  gt_refused (&t, "Ana play 16", ENG_ERR_CONSERVATION, "E9");
  gt_free (&t);
}

Test (kittens, e09_live_favor_passes_an_unseen_card)
{
  GameTest t;
  gt_new (&t, "game kittens\nplayer Ana\nplayer Bea\n");
  gt_ok (&t, "Ana play 24 Bea");
  gt_ok (&t, "Ana resolve");
  gt_ok (&t, "Bea give ?");
  cr_assert_eq (kx_state (&t)->hand_n[0], 8);
  cr_assert_eq (kx_state (&t)->hand_n[1], 7);
  gt_free (&t);
}

/* ---- E13 --------------------------------------------------------------- */

Test (kittens, e13_favor_gives_a_card_of_the_targets_choice)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 24 5\ndeal Bea hand 6 20\n");
  gt_ok (&t, "Ana play 24 Bea");
  gt_ok (&t, "Ana resolve");
  cr_assert_eq (eng_game_to_move (t.game), 1, "Bea decides");
  gt_refused (&t, "Ana give 5", ENG_ERR_ILLEGAL, "E13");
  gt_refused (&t, "Bea give ?", ENG_ERR_ILLEGAL, "E9");
  gt_ok (&t, "Bea give 20");
  cr_assert (kx_hand_has (&t, 0, 20));
  const EngEvent *e = gt_event (&t, ENG_EVENT_NOTE, "E13");
  cr_assert_not_null (e);
  cr_assert (strstr (e->text, "20") == NULL, "the card passed face down is not named: %s",
             e->text);
  /* nor in the accepted move's words, which a replay and the window echo */
  const EngEvent *a = gt_event (&t, ENG_EVENT_ACCEPTED, "");
  cr_assert_not_null (a);
  cr_assert_str_eq (a->text, "Bea give ?");
  gt_free (&t);
}

Test (kittens, e13_no_favor_pair_or_trio_on_an_empty_hand)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 24 37 38 39 5\ndeal Bea hand\n");
  gt_refused (&t, "Ana play 24 Bea", ENG_ERR_ILLEGAL, "E13");
  gt_refused (&t, "Ana pair 37 38 Bea", ENG_ERR_ILLEGAL, "E13");
  gt_refused (&t, "Ana trio 37 38 39 5 Bea", ENG_ERR_ILLEGAL, "E13");
  gt_free (&t);
}

Test (kittens, e13_eliminated_players_take_no_turns_and_cannot_nope)
{
  GameTest t;
  gt_new (&t, THREE "deal pile 1 40 44\ndeal Ana hand 11 20\ndeal Bea hand 25 16 6\n"
          "deal Cai hand 7\n");
  gt_ok (&t, "Ana draw");
  gt_ok (&t, "Ana explode");
  gt_refused (&t, "Bea play 25 Ana", ENG_ERR_ILLEGAL, "E13");
  gt_ok (&t, "Bea play 16");
  gt_refused (&t, "Ana nope 11", ENG_ERR_ILLEGAL, "E13");
  gt_ok (&t, "Bea resolve");
  cr_assert_eq (kx_state (&t)->active, 2);
  gt_ok (&t, "Cai draw");
  gt_ok (&t, "Cai draw");
  cr_assert_eq (kx_state (&t)->active, 1, "Ana is skipped");
  gt_free (&t);
}

/* ---- E16: hidden information ------------------------------------------- */

Test (kittens, e16_see_the_future_names_nothing)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 40 44 48\ndeal Ana hand 32 5\ndeal Bea hand 6\n");
  gt_ok (&t, "Ana play 32");
  gt_ok (&t, "Ana resolve");
  char which[256];
  cr_assert (!kx_names_hidden (kx_rules (&t), kx_state (&t), &t.events, which, sizeof which),
             "%s", which);
  bool told = false;
  for (size_t i = 0; i < t.events.n; i++)
    {
      told = told || strstr (t.storage[i].text, "top 3") != NULL;
      cr_assert (strstr (t.storage[i].text, "cat") == NULL, "%s", t.storage[i].text);
    }
  cr_assert (told, "the table hears that Ana looked");
  gt_free (&t);
}

Test (kittens, e16_the_defuse_position_is_never_shown_nor_recorded)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 1\ndeal Ana hand 5\ndeal Bea hand 6\n");
  gt_ok (&t, "Ana draw");
  gt_ok (&t, "Ana defuse 5");
  gt_ok (&t, "Ana replace");
  for (size_t i = 0; i < t.events.n; i++)
    for (const char *c = t.storage[i].text; *c; c++)
      cr_assert (*c < '0' || *c > '9', "no number in '%s'", t.storage[i].text);
  /* a record line cannot carry a position */
  EngMove m;
  EngParseError err = { 0 };
  cr_assert_neq (eng_record_parse_move (t.rec, "Ana replace Bea 3", &m, &err), ENG_OK);
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert_eq (v.shared[0].n_cards, 0, "the pile shows no face");
  cr_assert_eq (v.shared[0].count, kx_state (&t)->pile_n);
  gt_free (&t);
}

Test (kittens, e16_public_view_counts_and_faces_up_only)
{
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 6 20\n");
  gt_ok (&t, "Ana play 16");
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert_eq (v.players[0].hand, 1);
  cr_assert_eq (v.players[1].hand, 2);
  cr_assert_eq (v.players[0].n_places, 0, "no hand card is shown");
  cr_assert_eq (v.n_shared, 3, "pile, discard, the open card");
  cr_assert_eq (v.shared[1].cards[0].serial, 16, "the discard's top is face up");
  cr_assert_eq (v.shared[2].cards[0].serial, 16, "the Attack is open");
  cr_assert_str_eq (v.panels[0].rows[1].value, "1", "one kitten left");
  gt_ok (&t, "Ana resolve");
  eng_game_public_view (t.game, &v);
  cr_assert_eq (v.active, 1);
  cr_assert_str_eq (v.players[1].status, "owes 2 turns");
  cr_assert_str_eq (v.panels[0].rows[0].value, "2");
  gt_free (&t);
}

/* The chance the next card is a kitten, as people say it: a reduced
 * fraction and a rounded percent (2 of 3 is 67%, not the 66 a cut
 * gives), never "0%" while a kitten is left. */
Test (kittens, e16_the_kitten_chance_in_words)
{
  char buf[64];
  static const struct { unsigned k, n; const char *want; } cases[] = {
    { 1, 3, "1 in 3 (33%)" }, { 2, 3, "2 in 3 (67%)" }, { 4, 8, "1 in 2 (50%)" },
    { 1, 150, "1 in 150 (1%)" }, { 1, 200, "1 in 200 (1%)" }, { 1, 201, "1 in 201 (under 1%)" },
    { 1, 100, "1 in 100 (1%)" }, { 3, 3, "1 in 1 (100%)" }, { 0, 20, "none" }, { 0, 0, "none" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      kittens_chance_words (cases[i].k, cases[i].n, buf, sizeof buf);
      cr_expect_str_eq (buf, cases[i].want, "%u kittens in %u cards", cases[i].k, cases[i].n);
    }
  GameTest t;
  gt_new (&t, TWO CATS_ON_TOP "deal Ana hand 16 5\ndeal Bea hand 6 20\n");
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert_eq (v.panels[0].n_rows, 4);
  kittens_chance_words (kx_state (&t)->pile_kittens, kx_state (&t)->pile_n, buf, sizeof buf);
  cr_expect_str_eq (v.panels[0].rows[3].value, buf);
  cr_expect_null (strstr (v.panels[0].rows[3].value, "0%"), "%s", v.panels[0].rows[3].value);
  gt_free (&t);
}

/* ---- a whole live game as a record ---------------------------------------- */

Test (kittens, a_live_record_replays_to_the_end)
{
  const char *dir = getenv ("TABLERO_ENGINE_RECORDS");
  cr_assert_not_null (dir, "TABLERO_ENGINE_RECORDS must be set");
  char path[1024];
  snprintf (path, sizeof path, "%s/kittens-2p-live.rec", dir);
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_load_file (path, &rec, &err), ENG_OK, "%s", err.reason);
  EngCardSet *set = kx_load_set (NULL, 0);
  EngOptions base;
  memset (&base, 0, sizeof base);
  gt_load_options ("kittens", &base);
  EngReplayResult res;
  EngVerdict why;
  cr_assert_eq (eng_replay (rec, set, &base, false, true, NULL, NULL, &res, &why), ENG_OK,
                "%s", why.reason);
  cr_assert_eq (res.illegal, 0);
  cr_assert (res.over);
  cr_assert_eq (eng_game_winners (res.game, NULL), 2u, "Bea wins");
  const KitState *s = eng_game_state (res.game);
  cr_assert_eq (s->hand_n[0], 2, "Ana's hand, face down in front of her");
  cr_assert_eq (s->pile_kittens, 0);
  eng_game_free (res.game);
  eng_record_free (rec);
  eng_card_set_free (set);
}

/* ---- record lines and deals -------------------------------------------- */

Test (kittens, unseen_cards_in_a_dealt_hand_come_out_of_the_cards_left)
{
  GameTest t;
  gt_new (&t, "game kittens\nplayer Ana\nplayer Bea\ndeal Ana hand ? ? 28\n");
  const KitState *s = kx_state (&t);
  cr_assert_eq (s->hand_n[0], 3);
  cr_assert_eq (s->hand_n[1], 8);
  cr_assert_eq (s->pile_n + s->box_n + 11, 56);
  EngVerdict v;
  cr_assert_eq (eng_game_check_conservation (t.game, &v), ENG_OK, "%s", v.reason);
  gt_ok (&t, "Ana play 28");
  gt_ok (&t, "Ana play 20");       /* an unseen card of Ana's, now face up */
  cr_assert_eq (kx_state (&t)->hand_n[0], 1);
  gt_free (&t);

  gt_new (&t, "game kittens\nplayer Ana\nplayer Bea\nseed 4\ndeal Ana hand ? ? 16\n");
  cr_assert_eq (kx_state (&t)->hand_n[0], 3);
  cr_assert_neq (kx_state (&t)->hand[0][0], KIT_UNKNOWN, "a seeded deal knows them");
  cr_assert_eq (eng_game_check_conservation (t.game, &v), ENG_OK, "%s", v.reason);
  gt_free (&t);
}

Test (kittens, a_kitten_is_never_dealt_to_a_hand_nor_a_card_twice)
{
  GameTest t;
  cr_assert_eq (gt_try_new_set (&t, TWO "deal Ana hand 1 5\n", kx_load_set (NULL, 0)),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_str_eq (t.why.rule, "E2");
  eng_record_free (t.rec);
  eng_card_set_free (t.set);
  cr_assert_eq (gt_try_new_set (&t, TWO "deal discard 1\n", kx_load_set (NULL, 0)),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_str_eq (t.why.rule, "E2");
  eng_record_free (t.rec);
  eng_card_set_free (t.set);
  cr_assert_eq (gt_try_new_set (&t, TWO "deal Ana hand 16 5\ndeal pile 16\n",
                                kx_load_set (NULL, 0)), ENG_ERR_CONSERVATION);
  eng_record_free (t.rec);
  eng_card_set_free (t.set);
  cr_assert_eq (gt_try_new_set (&t, TWO "deal pile 1 2\n", kx_load_set (NULL, 0)),
                ENG_ERR_INVALID_ARGUMENT, "two players: one kitten in the pile (E2)");
  cr_assert_str_eq (t.why.rule, "E2");
  eng_record_free (t.rec);
  eng_card_set_free (t.set);
}

Test (kittens, a_move_line_needs_its_verbs_arguments)
{
  GameTest t;
  gt_new (&t, TWO);
  static const char *const bad[] = {
    "Ana pair 37 Bea", "Ana pair 37 38", "Ana trio 37 38 39 Bea", "Ana five 37 41 45 49",
    "Ana five 37 41 45 49 53 Bea", "Ana play", "Ana nope 11 Bea", "Ana draw 5",
    "Ana replace 3", "Ana explode Bea", "Ana play 16 Bea 2", "Ana resolve show 1",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      EngMove m;
      EngParseError err = { 0 };
      cr_assert_neq (eng_record_parse_move (t.rec, bad[i], &m, &err), ENG_OK, "'%s'", bad[i]);
      cr_assert_gt (strlen (err.reason), 0);
    }
  static const char *const good[] = {
    "Ana pair 37 38 Bea", "Ana trio 37 38 39 5 Bea", "Ana five 37 41 45 49 53", "Ana play 24 Bea",
    "Ana draw show 1", "Bea give ?", "Bea give", "Ana take 16", "Ana resolve",
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    {
      EngMove m;
      EngParseError err = { 0 };
      cr_assert_eq (eng_record_parse_move (t.rec, good[i], &m, &err), ENG_OK, "'%s': %s",
                    good[i], err.reason);
    }
  gt_free (&t);
}

/* ---- the cards not covered above ----------------------------------------- */

Test (kittens, e01_shuffle_reorders_the_pile_and_a_live_table_forgets_its_order)
{
  GameTest t;
  gt_new (&t, TWO "deal pile 40 44 48 52 53 54\ndeal Ana hand 28 5\ndeal Bea hand 6\n");
  KitState before = *kx_state (&t);
  gt_ok (&t, "Ana play 28");
  gt_ok (&t, "Ana resolve");
  const KitState *s = kx_state (&t);
  cr_assert_eq (s->pile_n, before.pile_n);
  cr_assert_neq (memcmp (s->pile, before.pile, s->pile_n), 0, "the order changed");
  uint8_t a[KIT_MAX_CARDS], b[KIT_MAX_CARDS];
  memcpy (a, s->pile, s->pile_n);
  memcpy (b, before.pile, s->pile_n);
  for (int i = 0; i < s->pile_n; i++)
    for (int j = i + 1; j < s->pile_n; j++)
      {
        if (a[j] < a[i]) { uint8_t x = a[i]; a[i] = a[j]; a[j] = x; }
        if (b[j] < b[i]) { uint8_t x = b[i]; b[i] = b[j]; b[j] = x; }
      }
  cr_assert_eq (memcmp (a, b, s->pile_n), 0, "the same cards");
  cr_assert_eq (kx_state (&t)->pile_kittens, 1);
  gt_free (&t);

  gt_new (&t, "game kittens\nplayer Ana\nplayer Bea\ndeal pile 40 44\n");
  cr_assert_eq (kx_state (&t)->pile[kx_state (&t)->pile_n - 1], idx (&t, 40));
  gt_ok (&t, "Ana play 28");
  gt_ok (&t, "Ana resolve");
  for (int i = 0; i < kx_state (&t)->pile_n; i++)
    cr_assert_eq (kx_state (&t)->pile[i], KIT_UNKNOWN, "a live referee forgets the order");
  gt_free (&t);
}

Test (kittens, e16_see_the_future_x5_and_alter_the_future_5_look_at_five)
{
  static const char *const edits[] = { "see-the-future-5 1", "alter-the-future-5 1" };
  GameTest t;
  gt_new_set (&t, TWO "deal pile 40 44 48 52 53\ndeal Ana hand 57 58 5\ndeal Bea hand 6\n",
              kx_load_set (edits, 2));
  cr_assert_eq (kx_rules (&t)->cards[idx (&t, 57)].depth, 5);
  cr_assert_eq (kx_rules (&t)->cards[idx (&t, 58)].kind, KIT_KIND_ALTER);
  gt_ok (&t, "Ana play 57");
  gt_ok (&t, "Ana play 58");
  bool told = false;
  for (size_t i = 0; i < t.events.n; i++)
    told = told || strstr (t.storage[i].text, "top 5 cards") != NULL;
  cr_assert (told, "See the Future x5 looks at five");
  gt_ok (&t, "Ana resolve");
  const KitState *s = kx_state (&t);
  int found = 0;
  static const unsigned top[] = { 40, 44, 48, 52, 53 };
  for (int i = s->pile_n - 5; i < s->pile_n; i++)
    for (int j = 0; j < 5; j++)
      found += s->pile[i] == idx (&t, top[j]);
  cr_assert_eq (found, 5, "Alter the Future (5) keeps the same five on top");
  char which[256];
  cr_assert (!kx_names_hidden (kx_rules (&t), s, &t.events, which, sizeof which), "%s", which);
  gt_free (&t);
}
