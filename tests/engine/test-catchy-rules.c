/* One or more tests per ruling C1-C12 (RULINGS.md), each on a small scenario
 * written as a game record: known deals where the rule needs identities,
 * unseen ("?") cards where it must work without them.
 *
 * Serials of data/cards/catchy.set (file order): green 1-5 (values 1-5),
 * orange 6-10, purple 11-15, wild 16, start 17, mood red 18, mood blue 19.
 * Cat positions: 0 Ana's arms, 1-5 the path (3 the centre), 6 Bea's arms.
 */
#include "catchy-test.h"

#define TWO "game catchy\nplayer Ana\nplayer Bea\n"
/* Path purple 1-3; Ana: start, green 1-5, orange 1; Bea: orange 2-5,
 * purple 4-5, the wild.  Ana swaps path card 1 (purple 1) into her hand. */
#define DEAL "deal path 11 12 13\ndeal Ana hand 17 1 2 3 4 5 6\n" \
             "deal Bea hand 7 8 9 10 14 15 16\n"
#define KNOWN TWO DEAL

/* ---- C1, C2: setup and the start card ----------------------------------- */

Test (catchy, c02_setup_deals_path_and_hands_of_seven)
{
  GameTest t;
  gt_new (&t, TWO "seed 7\n");
  const CatchyState *s = ct_state (&t);
  const CatchyRules *r = eng_game_rules (t.game);
  cr_assert_eq (s->phase, CATCHY_PHASE_SWAP);
  cr_assert_eq (s->hand_n[0], 7);
  cr_assert_eq (s->hand_n[1], 7);
  cr_assert_eq (s->cat, CATCHY_CENTRE, "the cat starts on the centre space");
  cr_assert_eq (s->mood, CATCHY_RED, "red side up");
  for (int i = 0; i < 3; i++)
    {
      cr_assert_lt (s->path[i], r->n_cards, "a seeded deal knows the path");
      cr_assert_neq (s->path[i], r->start, "the start card is shuffled in after the path");
    }
  cr_assert_neq (s->swapper, CATCHY_NONE, "the start card is in a hand");
  cr_assert_eq (eng_game_to_move (t.game), s->swapper);
  gt_free (&t);

  /* a live table knows nothing dealt */
  gt_new (&t, TWO);
  s = ct_state (&t);
  cr_assert_eq (s->path[0], CATCHY_UNKNOWN);
  cr_assert_eq (s->hand[1][6], CATCHY_UNKNOWN);
  cr_assert_eq (s->swapper, CATCHY_NONE);
  cr_assert_eq (eng_game_to_move (t.game), -1);
  gt_free (&t);
}

Test (catchy, c02_setup_refusals)
{
  GameTest t;
  gt_new (&t, TWO);
  EngSetup su = *eng_game_setup (t.game);
  su.n_players = 3;
  snprintf (su.names[2], ENG_NAME_MAX, "Cai");
  CatchyState s;
  EngRng rng;
  eng_rng_seed (&rng, 1);
  cr_assert_eq (catchy_game_class.setup (eng_game_rules (t.game), &su, &rng, &s, NULL, &t.why),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_str_eq (t.why.rule, "players");
  gt_free (&t);
  cr_assert_eq (gt_try_new (&t, TWO "deal path 17 1 2\n"), ENG_ERR_INVALID_ARGUMENT,
                "the start card is never a path card");
  cr_assert_str_eq (t.why.rule, "C2");
  gt_free (&t);
  cr_assert_eq (gt_try_new (&t, TWO "deal path 1 2 3\ndeal Ana hand 3\n"), ENG_ERR_CONSERVATION);
  gt_free (&t);
  cr_assert_eq (gt_try_new (&t, TWO "deal path 18\n"), ENG_ERR_INVALID_ARGUMENT,
                "the mood card is not dealt");
  gt_free (&t);
}

Test (catchy, c02_the_start_holder_swaps_and_leads)
{
  GameTest t;
  gt_new (&t, KNOWN);
  cr_assert_eq (ct_state (&t)->swapper, 0);
  gt_refused (&t, "Ana play 1", ENG_ERR_ILLEGAL, "C2");
  gt_refused (&t, "Bea swap Bea 1", ENG_ERR_ILLEGAL, "C2");
  gt_ok (&t, "Ana swap Ana 1");
  const CatchyState *s = ct_state (&t);
  const CatchyRules *r = eng_game_rules (t.game);
  cr_assert_eq (s->path[0], r->start, "the start card lies on the path");
  cr_assert_eq (s->hand_n[0], 7);
  bool has_p1 = false;
  for (int i = 0; i < s->hand_n[0]; i++)
    has_p1 = has_p1 || s->hand[0][i] == catchy_card_index (r, 11);
  cr_assert (has_p1, "the path card went to Ana's hand");
  cr_assert_eq (s->phase, CATCHY_PHASE_LEAD);
  cr_assert_eq (s->leader, 0, "the start card's holder leads the first trick");
  gt_refused (&t, "Ana swap Ana 2", ENG_ERR_ILLEGAL, "C2");
  gt_free (&t);

  /* path cards are counted from the named player's arms */
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Bea 1");
  cr_assert_eq (ct_state (&t)->path[2], catchy_card_index (eng_game_rules (t.game), 17));
  gt_free (&t);

  /* a live table: whoever shows to hold the start card swaps */
  gt_new (&t, TWO);
  gt_ok (&t, "Bea swap Bea 2");
  cr_assert_eq (ct_state (&t)->leader, 1);
  cr_assert_eq (ct_state (&t)->hand[1][6], CATCHY_UNKNOWN, "the path card stays unseen");
  gt_free (&t);
}

/* ---- C3: following colour, the wild ------------------------------------- */

Test (catchy, c03_follow_the_led_colour_when_able)
{
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 6");                     /* orange 1 */
  gt_refused (&t, "Bea play 14", ENG_ERR_ILLEGAL, "C3");   /* purple 4, holds orange */
  gt_refused (&t, "Ana play 1", ENG_ERR_ILLEGAL, "turn");
  gt_refused (&t, "Bea play 1", ENG_ERR_CONSERVATION, "C11");  /* in Ana's hand */
  gt_refused (&t, "Bea play 12", ENG_ERR_CONSERVATION, "C11");  /* face down on the path */
  cr_assert_not_null (strstr (t.why.reason, "a hidden place"), "%s", t.why.reason);
  cr_assert_null (strstr (t.why.reason, "path"), "never where a face-down card lies: %s",
                  t.why.reason);
  gt_ok (&t, "Bea play 16");                    /* the wild: always playable (default) */
  gt_free (&t);

  /* unable to follow: any card */
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 2");                     /* green 2: Bea has no green */
  gt_ok (&t, "Bea play 14");
  gt_free (&t);
}

Test (catchy, c03_option_the_wild_must_follow_too)
{
  GameTest t;
  gt_new (&t, KNOWN "option wild_always_playable no\n");
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 6");
  gt_refused (&t, "Bea play 16", ENG_ERR_ILLEGAL, "C3");
  gt_ok (&t, "Bea play 7");
  gt_free (&t);

  /* without a led colour in hand the wild is still fine */
  gt_new (&t, KNOWN "option wild_always_playable no\n");
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 2");
  gt_ok (&t, "Bea play 16");
  gt_free (&t);
}

Test (catchy, c03_a_led_wild_may_be_answered_with_anything)
{
  GameTest t;
  /* Bea holds the start card this time, and the wild */
  gt_new (&t, TWO "deal path 11 12 13\ndeal Bea hand 17 7 8 9 10 14 16\n"
              "deal Ana hand 1 2 3 4 5 6 15\n");
  gt_ok (&t, "Bea swap Bea 1");
  gt_ok (&t, "Bea play 16");
  EngMove moves[16];
  size_t n = eng_game_legal_moves (t.game, moves, 16);
  cr_assert_eq (n, 7, "every card of Ana's 7 answers a led wild");
  gt_ok (&t, "Ana play 15");
  gt_free (&t);
}

/* ---- C4, C10: who wins the trick ---------------------------------------- */

Test (catchy, c04_same_colour_higher_wins)
{
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 6");       /* orange 1 */
  gt_ok (&t, "Bea play 7");       /* orange 2 */
  const CatchyState *s = ct_state (&t);
  cr_assert_eq (s->tricks[0].winner, 1);
  cr_assert_eq (s->mood, CATCHY_RED, "an even card: no flip");
  cr_assert_eq (s->cat, 4, "red: toward the winner, Bea");
  cr_assert_eq (s->leader, 1, "the player the cat moved toward leads");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NOTE, "C4"));
  gt_free (&t);
}

Test (catchy, c10_off_colour_the_leader_wins_with_the_lower_card)
{
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 2");       /* green 2 */
  gt_ok (&t, "Bea play 15");      /* purple 5, higher but off colour */
  const CatchyState *s = ct_state (&t);
  cr_assert_eq (s->tricks[0].winner, 0);
  cr_assert_eq (s->cat, 2, "toward the trick's winner, not the higher number");
  cr_assert_eq (s->leader, 0);
  gt_free (&t);
}

Test (catchy, c04_a_wild_involved_higher_number_wins)
{
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 4");       /* green 4 */
  gt_ok (&t, "Bea play 16");      /* wild 3 */
  cr_assert_eq (ct_state (&t)->tricks[0].winner, 0, "4 beats the wild's 3");
  cr_assert_eq (ct_state (&t)->cat, 2);
  gt_free (&t);

  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 2");       /* green 2 */
  gt_ok (&t, "Bea play 16");
  cr_assert_eq (ct_state (&t)->tricks[0].winner, 1, "the wild's 3 beats a 2 of any colour");
  cr_assert_eq (ct_state (&t)->cat, 4);
  gt_free (&t);
}

Test (catchy, c04_wild_and_a_three_flip_without_moving)
{
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 3");       /* green 3 */
  gt_ok (&t, "Bea play 16");
  const CatchyState *s = ct_state (&t);
  cr_assert_eq (s->tricks[0].winner, CATCHY_NONE);
  cr_assert_eq (s->mood, CATCHY_BLUE, "the mood flips");
  cr_assert_eq (s->cat, CATCHY_CENTRE, "the cat does not move");
  cr_assert_eq (s->leader, 0, "the leader leads again");
  cr_assert_eq (s->phase, CATCHY_PHASE_LEAD);
  gt_free (&t);

  /* the exception flips even when the wild does not count as odd */
  gt_new (&t, KNOWN "option wild_is_odd no\n");
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 3");
  gt_ok (&t, "Bea play 16");
  cr_assert_eq (ct_state (&t)->mood, CATCHY_BLUE);
  cr_assert_eq (ct_state (&t)->cat, CATCHY_CENTRE);
  gt_free (&t);
}

/* ---- C5, C9: the mood and the cat --------------------------------------- */

Test (catchy, c05_two_odd_cards_flip_and_blue_goes_to_the_loser)
{
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 1");       /* green 1, odd */
  gt_ok (&t, "Bea play 15");      /* purple 5, odd: Ana wins off colour */
  const CatchyState *s = ct_state (&t);
  cr_assert_eq (s->tricks[0].winner, 0);
  cr_assert_eq (s->mood, CATCHY_BLUE);
  cr_assert_eq (s->cat, 4, "blue: toward the loser, Bea");
  cr_assert_eq (s->leader, 1, "the player the cat moved toward leads");
  gt_free (&t);
}

Test (catchy, c09_option_wild_is_odd)
{
  /* green 5 against the wild: Ana wins; with the wild odd the mood flips
   * and the cat goes to the loser */
  GameTest t;
  gt_new (&t, KNOWN);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 5");
  gt_ok (&t, "Bea play 16");
  cr_assert_eq (ct_state (&t)->mood, CATCHY_BLUE);
  cr_assert_eq (ct_state (&t)->cat, 4);
  gt_free (&t);

  gt_new (&t, KNOWN "option wild_is_odd no\n");
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 5");
  gt_ok (&t, "Bea play 16");
  cr_assert_eq (ct_state (&t)->mood, CATCHY_RED);
  cr_assert_eq (ct_state (&t)->cat, 2);
  gt_free (&t);
}

/* ---- C6: the end of a hand and its score --------------------------------- */

/* Three tricks: Ana wins twice (red, toward her), then loses a trick of two
 * odd cards (blue, toward the loser): the cat reaches her arms. */
#define TO_ANAS_ARMS "Ana swap Ana 1", "Ana play 2", "Bea play 7", "Ana play 4", \
                     "Bea play 9", "Ana play 6", "Bea play 8"

static void
play_lines (GameTest *t, const char *const *lines, size_t n)
{
  for (size_t i = 0; i < n; i++)
    gt_ok (t, lines[i]);
}

Test (catchy, c06_the_cat_in_a_players_arms_ends_the_hand_for_three)
{
  GameTest t;
  gt_new (&t, KNOWN);
  static const char *const lines[] = { TO_ANAS_ARMS };
  play_lines (&t, lines, 6);
  cr_assert_eq (ct_state (&t)->cat, 1);
  gt_ok (&t, lines[6]);
  const CatchyState *s = ct_state (&t);
  cr_assert_eq (eng_game_score (t.game, 0), 3);
  cr_assert_eq (eng_game_score (t.game, 1), 0);
  cr_assert_eq (s->hand_no, 2, "a new hand after 3 tricks");
  cr_assert_eq (s->phase, CATCHY_PHASE_SWAP);
  cr_assert_eq (s->cat, CATCHY_CENTRE);
  cr_assert_eq (s->mood, CATCHY_RED);
  cr_assert_eq (s->hand_n[0], 7, "dealt afresh");
  cr_assert_eq (s->path[1], CATCHY_UNKNOWN, "a live table does not know the new deal");
  const EngEvent *e = gt_event (&t, ENG_EVENT_SCORE, "C6");
  cr_assert_not_null (e);
  cr_assert_eq (e->delta, 3);
  cr_assert (!eng_game_is_over (t.game));
  gt_free (&t);
}

/* Seven tricks ending on the centre: 1 point each. */
static const char *const TO_CENTRE[] = {
  "Ana swap Ana 1",
  "Ana play 2", "Bea play 7",      /* Ana wins off colour: cat 2 */
  "Ana play 6", "Bea play 9",      /* Bea follows orange and wins: 3 */
  "Bea play 8", "Ana play 4",      /* Bea leads, Ana cannot follow: 4 */
  "Bea play 10", "Ana play 1",     /* both odd: blue, toward Ana: 3 */
  "Ana play 3", "Bea play 16",     /* wild + 3: red, stays, Ana again */
  "Ana play 5", "Bea play 15",     /* both odd: blue, toward Bea: 4 */
  "Bea play 14", "Ana play 11",    /* Bea wins, blue: toward Ana: 3 */
};

Test (catchy, c06_seven_tricks_on_the_centre_score_one_each)
{
  GameTest t;
  gt_new (&t, KNOWN);
  play_lines (&t, TO_CENTRE, 14);
  cr_assert_eq (ct_state (&t)->n_tricks, 6);
  cr_assert_eq (ct_state (&t)->cat, 4);
  gt_ok (&t, TO_CENTRE[14]);
  cr_assert_eq (eng_game_score (t.game, 0), 1);
  cr_assert_eq (eng_game_score (t.game, 1), 1);
  cr_assert_eq (ct_state (&t)->hand_no, 2);
  gt_free (&t);
}

Test (catchy, c06_seven_tricks_off_centre_score_two_for_the_nearer)
{
  GameTest t;
  gt_new (&t, KNOWN);
  play_lines (&t, TO_CENTRE, 11);
  gt_ok (&t, "Ana play 5");
  gt_ok (&t, "Bea play 14");       /* Ana wins, even: red toward Ana: 2 */
  gt_ok (&t, "Ana play 11");
  gt_ok (&t, "Bea play 15");       /* Bea wins, both odd: blue toward Ana: 1 */
  cr_assert_eq (eng_game_score (t.game, 0), 2);
  cr_assert_eq (eng_game_score (t.game, 1), 0);
  gt_free (&t);
}

/* ---- C1, C7: the game's end and ties ------------------------------------ */

Test (catchy, c01_the_game_ends_at_the_winning_score)
{
  GameTest t;
  gt_new (&t, KNOWN "option winning_score 3\n");
  static const char *const lines[] = { TO_ANAS_ARMS };
  play_lines (&t, lines, 7);
  cr_assert (eng_game_is_over (t.game));
  const char *tb = NULL;
  cr_assert_eq (eng_game_winners (t.game, &tb), 1u);
  cr_assert_str_eq (tb, "score");
  gt_refused (&t, "Bea swap Bea 1", ENG_ERR_STATE, "C1");
  gt_free (&t);
}

Test (catchy, c07_a_tie_at_the_winning_score_plays_another_hand)
{
  GameTest t;
  gt_new (&t, KNOWN "option winning_score 1\n");
  play_lines (&t, TO_CENTRE, 15);
  cr_assert (!eng_game_is_over (t.game), "1-1 at the winning score: not over");
  cr_assert_eq (ct_state (&t)->hand_no, 2);
  const EngEvent *e = gt_event (&t, ENG_EVENT_NOTE, "C7");
  cr_assert_not_null (e);
  /* one point is singular (C6's score words too) */
  cr_assert_str_eq (e->text, "Tied at 1 point: another hand decides");
  e = gt_event (&t, ENG_EVENT_SCORE, "C6");
  cr_assert_not_null (e);
  cr_assert_not_null (strstr (e->text, "and now has 1 point"), "%s", e->text);
  cr_assert_null (strstr (e->text, "1 points"), "%s", e->text);
  gt_free (&t);
}

Test (catchy, c07_option_a_tie_is_shared)
{
  GameTest t;
  gt_new (&t, KNOWN "option winning_score 1\noption tie_at_seven shared\n");
  play_lines (&t, TO_CENTRE, 15);
  cr_assert (eng_game_is_over (t.game));
  const char *tb = NULL;
  cr_assert_eq (eng_game_winners (t.game, &tb), 3u);
  cr_assert_str_eq (tb, "shared");
  gt_free (&t);
}

Test (catchy, c07_scores_go_past_seven_and_the_higher_wins)
{
  /* seeded games play on to the end; the winner has the higher score, at
   * least the winning score, and scores are never capped at 7 (C10) */
  EngCardSet *set = gt_load_set ("catchy");
  EngOptions opts;
  gt_load_options ("catchy", &opts);
  void *rv = NULL;
  EngParseError err;
  cr_assert_eq (catchy_game_class.rules_new (set, &opts, &rv, &err), ENG_OK, "%s", err.reason);
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 2;
  su.has_seed = true;
  snprintf (su.names[0], ENG_NAME_MAX, "Ana");
  snprintf (su.names[1], ENG_NAME_MAX, "Bea");
  int above = 0, ties_replayed = 0;
  for (uint64_t seed = 1; seed <= 400; seed++)
    {
      CatchyState s;
      EngRng rng, pol;
      eng_rng_seed (&rng, seed);
      eng_rng_seed (&pol, seed * 7);
      cr_assert_eq (catchy_game_class.setup (rv, &su, &rng, &s, NULL, NULL), ENG_OK);
      bool tied = false;
      while (!catchy_game_class.is_over (rv, &s))
        {
          EngMove m;
          cr_assert (eng_game_class_random_move (&catchy_game_class, rv, &s, &pol, &m));
          cr_assert_eq (eng_game_class_apply (&catchy_game_class, rv, NULL, &s, &m, NULL, NULL),
                                              ENG_OK);
          tied = tied || (s.score[0] == s.score[1] && s.score[0] >= 7 && s.phase != CATCHY_PHASE_OVER);
        }
      unsigned w = catchy_game_class.winners (rv, &s, NULL);
      int wp = w == 1 ? 0 : 1;
      cr_assert (w == 1 || w == 2);
      cr_assert_gt (s.score[wp], s.score[1 - wp]);
      cr_assert_geq (s.score[wp], 7);
      above += s.score[wp] > 7;
      ties_replayed += tied;
    }
  cr_assert_gt (above, 0, "some games end above 7");
  cr_assert_gt (ties_replayed, 0, "some games tie at 7+ and play on");
  catchy_game_class.rules_free (rv);
  eng_card_set_free (set);
}

/* ---- C8, C11: the late revoke and hidden cards -------------------------- */

/* Ana's hand is known; Bea's and the path are unseen (a live table). */
#define LIVE TWO "deal Ana hand 17 1 2 3 4 5 6\n"

Test (catchy, c08_a_revoke_is_flagged_when_a_later_card_proves_it)
{
  GameTest t;
  gt_new (&t, LIVE);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 6");                /* orange 1 led */
  gt_ok (&t, "Bea play 14");               /* purple 4: cannot be judged now */
  cr_assert_null (gt_event (&t, ENG_EVENT_NOTE, "C8"), "nothing is proven yet (C11)");
  cr_assert (ct_state (&t)->tricks[0].revoke);
  cr_assert (!ct_state (&t)->tricks[0].flagged);
  gt_ok (&t, "Ana play 2");                /* green 2 led */
  gt_ok (&t, "Bea play 16");               /* the wild wins: proves nothing */
  cr_assert_null (gt_event (&t, ENG_EVENT_NOTE, "C8"));
  cr_assert_eq (ct_state (&t)->leader, 1);
  gt_ok (&t, "Bea play 7");                /* orange 2: Bea held it in trick 1 */
  const EngEvent *e = gt_event (&t, ENG_EVENT_NOTE, "C8");
  cr_assert_not_null (e, "the revoke is flagged now");
  cr_assert_eq (e->player, 1);
  cr_assert_not_null (strstr (e->text, "trick 1"), "names the trick: %s", e->text);
  cr_assert_null (strstr (e->text, "trick 2"), "%s", e->text);
  cr_assert (ct_state (&t)->tricks[0].flagged);
  cr_assert_eq (ct_state (&t)->revokes[1], 1);
  cr_assert_eq (eng_game_score (t.game, 0), 0, "a flag is not a penalty");
  gt_free (&t);
}

Test (catchy, c08_following_is_no_revoke)
{
  GameTest t;
  gt_new (&t, LIVE);
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 6");
  gt_ok (&t, "Bea play 7");                /* followed orange, and wins */
  gt_ok (&t, "Bea play 8");                /* orange again: nothing to prove */
  cr_assert_null (gt_event (&t, ENG_EVENT_NOTE, "C8"), "trick 1 was followed");
  cr_assert (!ct_state (&t)->tricks[0].revoke);
  cr_assert_eq (ct_state (&t)->revokes[1], 0);
  gt_free (&t);
}

Test (catchy, c11_face_down_cards_are_never_named)
{
  GameTest t;
  gt_new (&t, TWO "seed 11\n");
  const CatchyState *s = ct_state (&t);
  const CatchyRules *r = eng_game_rules (t.game);
  char hidden[3][48];
  for (int i = 0; i < 3; i++)
    catchy_game_class.card_name (r, r->cards[s->path[i]].serial, false, hidden[i], sizeof hidden[i]);
  EngView v;
  eng_game_public_view (t.game, &v);
  const EngViewPlace *path = &v.shared[0];
  cr_assert_eq (path->n_cards, 7);
  for (int i = 0; i < path->n_cards; i++)
    cr_assert_eq (path->cards[i].serial, 0, "the path lies face down (C11)");
  cr_assert_eq (path->marker, CATCHY_CENTRE);
  cr_assert_eq (v.shared[1].cards[0].serial, 18, "the mood card shows its red side");
  cr_assert_eq (v.deciding, -1, "who holds the start card is not shown before the swap");
  const EngEvent *need = gt_event (&t, ENG_EVENT_NEED, "C2");
  cr_assert_not_null (need);
  cr_assert_eq (need->player, -1, "%s", need->text);
  cr_assert_null (strstr (need->text, s->names[s->swapper]), "%s", need->text);
  char line[32];
  snprintf (line, sizeof line, "%s swap %s 2", s->names[s->swapper], s->names[s->swapper]);
  gt_ok (&t, line);
  for (size_t i = 0; i < t.events.n; i++)
    for (int k = 0; k < 3; k++)
      cr_assert_null (strstr (t.storage[i].text, hidden[k]), "event names a face-down card: %s",
                      t.storage[i].text);
  gt_free (&t);
}

/* ---- C12: the played pile ------------------------------------------------ */

Test (catchy, c12_played_cards_stay_face_up_on_one_pile)
{
  GameTest t;
  gt_new (&t, KNOWN);
  play_lines (&t, TO_CENTRE, 6);
  EngView v;
  eng_game_public_view (t.game, &v);
  const EngViewPlace *pile = NULL, *trick = NULL;
  for (int i = 0; i < v.n_shared; i++)
    {
      if (strcmp (v.shared[i].label, "Played pile") == 0)
        pile = &v.shared[i];
      if (strcmp (v.shared[i].label, "Trick") == 0)
        trick = &v.shared[i];
    }
  cr_assert_not_null (pile);
  cr_assert_not_null (trick);
  cr_assert_eq (pile->count, 4);
  uint16_t want[] = { 2, 7, 6, 9 };
  for (int i = 0; i < 4; i++)
    cr_assert_eq (pile->cards[i].serial, want[i]);
  cr_assert_eq (trick->n_cards, 1);
  cr_assert_eq (trick->cards[0].serial, 8, "the led card of the open trick");
  cr_assert_eq (v.deciding, 0, "Ana answers");
  cr_assert_eq (v.players[0].hand, 5);
  gt_free (&t);
}

/* ---- options and names ------------------------------------------------- */

Test (catchy, options_are_checked)
{
  EngCardSet *set = gt_load_set ("catchy");
  EngOptions o = { .n = 0 };
  void *rv = NULL;
  EngParseError err;
  eng_options_set (&o, "wild_is_odd", "maybe");
  cr_assert_eq (catchy_game_class.rules_new (set, &o, &rv, &err), ENG_ERR_SYNTAX);
  o.n = 0;
  eng_options_set (&o, "tie_at_seven", "coin");
  cr_assert_eq (catchy_game_class.rules_new (set, &o, &rv, &err), ENG_ERR_SYNTAX);
  o.n = 0;
  eng_options_set (&o, "quick_start", "yes");
  cr_assert_eq (catchy_game_class.rules_new (set, &o, &rv, &err), ENG_ERR_UNKNOWN_ATTRIBUTE);
  cr_assert_null (rv);
  /* the shipped file names every switch with the rulings' defaults */
  gt_load_options ("catchy", &o);
  cr_assert_str_eq (eng_options_get (&o, "wild_always_playable"), "yes");
  cr_assert_str_eq (eng_options_get (&o, "wild_is_odd"), "yes");
  cr_assert_str_eq (eng_options_get (&o, "tie_at_seven"), "another-hand");
  cr_assert_eq (catchy_game_class.rules_new (set, &o, &rv, &err), ENG_OK);
  const CatchyRules *r = rv;
  cr_assert (r->wild_always_playable && r->wild_is_odd);
  cr_assert_eq (r->winning_score, 7);
  char name[48];
  catchy_game_class.card_name (r, 9, false, name, sizeof name);
  cr_assert_str_eq (name, "orange 4");
  catchy_game_class.card_name (r, 16, true, name, sizeof name);
  cr_assert_str_eq (name, "the wild 3");
  catchy_game_class.rules_free (rv);
  eng_card_set_free (set);
}

Test (catchy, moves_need_their_arguments)
{
  GameTest t;
  gt_new (&t, KNOWN);
  EngMove m;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_parse_move (t.rec, "Ana swap 17", &m, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_record_parse_move (t.rec, "Ana play", &m, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_record_parse_move (t.rec, "Ana play 3 4", &m, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_record_parse_move (t.rec, "Ana play 3", &m, &err), ENG_OK);
  gt_ok (&t, "Ana swap Ana 3");
  gt_refused (&t, "Ana play ?", ENG_ERR_ILLEGAL, "C11");
  gt_refused (&t, "Ana play 17", ENG_ERR_ILLEGAL, "C2");
  gt_refused (&t, "Ana play 19", ENG_ERR_ILLEGAL, "C2");
  gt_free (&t);
}

/* C5 in the public view: the "Cat" row says how far the cat stands on
 * whose side, so that a space short of the arms never reads as the arms. */
static const char *
cat_row (const GameTest *t)
{
  static EngView v;
  eng_game_public_view (t->game, &v);
  for (unsigned p = 0; p < v.n_panels; p++)
    for (unsigned i = 0; i < v.panels[p].n_rows; i++)
      if (strcmp (v.panels[p].rows[i].label, "Cat") == 0)
        return v.panels[p].rows[i].value;
  cr_assert_fail ("no Cat row");
  return NULL;
}

Test (catchy, c05_the_view_says_where_the_cat_stands)
{
  GameTest t;
  gt_new (&t, KNOWN);
  static const char *const lines[] = { TO_ANAS_ARMS };
  cr_assert_str_eq (cat_row (&t), "centre");
  play_lines (&t, lines, 3);
  cr_assert_eq (ct_state (&t)->cat, 2);
  cr_assert_str_eq (cat_row (&t), "the second path space from Ana");
  gt_free (&t);
  /* the game over with the cat in the arms */
  gt_new (&t, KNOWN "option winning_score 3\n");
  play_lines (&t, lines, 7);
  cr_assert (eng_game_is_over (t.game));
  cr_assert_str_eq (cat_row (&t), "Ana's arms");
  gt_free (&t);
  gt_new (&t, KNOWN);
  play_lines (&t, TO_CENTRE, 7);
  cr_assert_eq (ct_state (&t)->cat, 4);
  cr_assert_str_eq (cat_row (&t), "the second path space from Bea");
  gt_free (&t);
}
