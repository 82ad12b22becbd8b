/* Escoba's rules, one test per ruling (escoba.md S1-S12), at a live table
 * (no seed): the referee knows only what the table shows, so a test may lay
 * any card nobody has seen.  Serials (data/cards/escoba.set): oros 1-10,
 * copas 11-20, espadas 21-30, bastos 31-40; in a suit the ace to the seven,
 * then the sota (8), the caballo (9) and the rey (10): card 7 is the siete
 * de oros, 18 the sota de copas. */
#include "escoba.h"
#include "eng-view.h"
#include "game-test.h"

#define TWO "game escoba\nplayer Ana\nplayer Bea\n"
#define THREE "game escoba\nplayer Ana\nplayer Bea\nplayer Cai\n"

static const EscState *
es (const GameTest *t)
{
  return eng_game_state (t->game);
}

static void
okf (GameTest *t, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static void
okf (GameTest *t, const char *fmt, ...)
{
  char line[128];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  gt_ok (t, line);
}

/* Whether the referee has seen card `serial` (table or a pile). */
static bool
seen (const GameTest *t, unsigned serial)
{
  return eng_game_card_public (t->game, serial);
}

/* Plays out the round: each player in turn lays the lowest card nobody
 * has seen, taking nothing, until the round is counted. */
static void
play_out_round (GameTest *t)
{
  unsigned round = es (t)->round;
  while (es (t)->round == round && !eng_game_is_over (t->game))
    {
      unsigned k = 1;
      while (k <= 40 && seen (t, k))
        k++;
      cr_assert_leq (k, 40, "no unseen card left but the round goes on");
      okf (t, "%s play %u", eng_game_setup (t->game)->names[es (t)->active], k);
    }
}

/* Round 1 of two players where Ana takes the siete de oros, two sevens
 * and an escoba, and the last cards (S7): 5 points to nothing. */
static void
ana_takes_the_round (GameTest *t)
{
  gt_ok (t, "Bea deal 8 18 28 2");
  gt_ok (t, "Ana play 7 8");        /* the siete de oros and the sota de oros */
  gt_ok (t, "Bea play 17 18");      /* a seven */
  gt_ok (t, "Ana play 27 28");      /* a seven, and Ana's */
  gt_ok (t, "Bea play 13");         /* laid: it takes nothing */
  cr_assert_eq (es (t)->table_n, 2);
  gt_ok (t, "Ana play 40 13 2");    /* 10 + 3 + 2: an escoba */
  play_out_round (t);
}

static const EngEvent *
score_of (const GameTest *t, int player)
{
  for (size_t i = 0; i < t->events.n; i++)
    if (t->storage[i].kind == ENG_EVENT_SCORE && t->storage[i].player == player)
      return &t->storage[i];
  return NULL;
}

Test (escoba, s01_the_dealer_deals_then_play_goes_to_the_right)
{
  GameTest t;
  gt_new (&t, THREE);
  /* Ana plays first, so the dealer is the player she sits at the right of */
  cr_assert_eq (es (&t)->dealer, 1);
  cr_assert_eq (es (&t)->active, 0);
  for (unsigned p = 0; p < 3; p++)
    cr_assert_eq (es (&t)->hand_n[p], 3, "three cards each");
  cr_assert_eq (es (&t)->deck_n, 40 - 9, "the table's four wait on the deck");
  gt_refused (&t, "Ana deal 1 2 3 4", ENG_ERR_ILLEGAL, "S1");
  gt_refused (&t, "Ana play 5", ENG_ERR_ILLEGAL, "S1");
  gt_ok (&t, "Bea deal 1 2 3 4");
  cr_assert_eq (es (&t)->table_n, 4);
  gt_refused (&t, "Bea play 11", ENG_ERR_ILLEGAL, "S1");
  cr_assert_str_eq (t.why.reason, "It is Ana's turn");
  gt_ok (&t, "Ana play 20");
  /* to the right: counter-clockwise, so after Ana the last seat */
  cr_assert_eq (es (&t)->active, 2);
  gt_ok (&t, "Cai play 30");
  cr_assert_eq (es (&t)->active, 1);
  play_out_round (&t);
  /* the deal passes to the right: Ana deals, Cai plays first */
  cr_assert_eq (es (&t)->round, 2);
  cr_assert_eq (es (&t)->dealer, 0);
  cr_assert_eq (es (&t)->active, 2);
  gt_free (&t);
}

Test (escoba, s02_a_deal_of_15_or_30_is_the_dealers_escoba)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 9");          /* 1 + 2 + 3 + 9 */
  const EngEvent *e = gt_event (&t, ENG_EVENT_TAKEN, "S2");
  cr_assert_not_null (e);
  cr_assert_str_eq (e->text, "Dealer's escoba: Bea takes the four table cards (1 escoba)");
  cr_assert_eq (es (&t)->table_n, 0);
  cr_assert_eq (es (&t)->taken[1].escobas, 1);
  cr_assert_eq (es (&t)->taken[1].cards, 4);
  gt_free (&t);

  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 10 5 20 15");       /* 10 + 5, 10 + 5 */
  cr_assert_eq (es (&t)->taken[1].escobas, 2);
  gt_free (&t);

  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 10 20 9 1");        /* 30, but no group of 15 */
  cr_assert_null (gt_event (&t, ENG_EVENT_TAKEN, "S2"));
  cr_assert_eq (es (&t)->table_n, 4);
  gt_free (&t);
}

Test (escoba, s03_a_card_takes_table_cards_that_make_15_with_it)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  gt_refused (&t, "Ana play 19 3", ENG_ERR_ILLEGAL, "S3");   /* 9 + 3 */
  cr_assert_str_eq (t.why.reason, "These make 12, not 15: the knight of copas and the three of oros");
  gt_refused (&t, "Ana play 5 30", ENG_ERR_ILLEGAL, "S3");   /* not on the table */
  gt_ok (&t, "Ana play 5 20");                               /* 5 + 10 */
  const EngEvent *e = gt_event (&t, ENG_EVENT_TAKEN, "S3");
  cr_assert_not_null (e);
  cr_assert_str_eq (e->text, "Ana takes 15: the five of oros and the king of copas");
  cr_assert_eq (e->value, 5);
  cr_assert_eq (es (&t)->taken[0].cards, 2);
  cr_assert_eq (es (&t)->table_n, 3);
  /* the player chooses: 9 + 1 + 2 + 3 or nothing at all */
  gt_ok (&t, "Bea play 19");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_SHOWN, "S3"));
  cr_assert_eq (es (&t)->table_n, 4, "a card that takes nothing stays on the table");
  gt_free (&t);
}

Test (escoba, s04_capture_required_is_a_switch)
{
  GameTest t;
  gt_new (&t, TWO "option capture_required yes\n");
  gt_ok (&t, "Bea deal 1 2 3 20");
  gt_refused (&t, "Ana play 5", ENG_ERR_ILLEGAL, "S4");
  cr_assert_str_eq (t.why.reason, "Ana can make 15 with the five of oros and must take it");
  gt_ok (&t, "Ana play 28");               /* 8 needs 7: nothing to take */
  gt_free (&t);
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  gt_ok (&t, "Ana play 5");                /* by default the choice is Ana's */
  gt_free (&t);
}

Test (escoba, s05_a_capture_that_empties_the_table_is_an_escoba)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  gt_ok (&t, "Ana play 19 1 2 3");         /* 9 + 1 + 2 + 3 = 15, the rey stays */
  cr_assert_null (gt_event (&t, ENG_EVENT_NOTE, "S5"));
  gt_ok (&t, "Bea play 5 20");             /* the table is empty */
  const EngEvent *e = gt_event (&t, ENG_EVENT_NOTE, "S5");
  cr_assert_not_null (e);
  cr_assert_str_eq (e->text, "Escoba! Bea clears the table");
  cr_assert_eq (es (&t)->taken[1].escobas, 1);
  cr_assert_eq (es (&t)->taken[1].marks[0], 4, "the five of oros lies across the pile");
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert_eq (v.players[1].places[0].cards[0].serial, 5, "the escoba's card shows");
  gt_free (&t);
}

Test (escoba, s06_three_more_cards_each_while_the_deck_lasts)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  static const char *const plays[] = { "Ana play 31", "Bea play 32", "Ana play 33",
                                       "Bea play 34", "Ana play 35" };
  for (size_t i = 0; i < 5; i++)
    {
      gt_ok (&t, plays[i]);
      cr_assert_null (gt_event (&t, ENG_EVENT_DEALT, NULL));
    }
  gt_ok (&t, "Bea play 36");
  const EngEvent *e = gt_event (&t, ENG_EVENT_DEALT, "S6");
  cr_assert_not_null (e, "the sixth card ends the hands");
  cr_assert_str_eq (e->text, "Bea: deal three more cards to each player");
  cr_assert (e->counts[0][0] == 3 && e->counts[1][0] == 3);
  cr_assert_eq (es (&t)->hand_n[0], 3);
  cr_assert_eq (es (&t)->deck_n, 40 - 4 - 12);
  cr_assert_eq (es (&t)->table_n, 10, "none to the table");
  gt_free (&t);
}

Test (escoba, s07_the_last_table_cards_go_to_the_last_capturer)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  gt_ok (&t, "Ana play 5 20");
  play_out_round (&t);
  /* nobody took anything after Ana: every card on the table is hers */
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NEED, "S7"));
  const EngEvent *a = score_of (&t, 0);
  cr_assert_not_null (a);
  cr_assert_not_null (strstr (a->text, "most cards (40)"), "%s", a->text);
  cr_assert_null (strstr (a->text, "escoba"), "the last cards are no escoba: %s", a->text);
  gt_free (&t);
}

Test (escoba, s08_a_round_scores_escobas_cards_oros_the_siete_de_oros_and_sevens)
{
  GameTest t;
  gt_new (&t, TWO);
  ana_takes_the_round (&t);
  /* Ana: 1 escoba, the siete de oros, 2 sevens to Bea's 1 and then the
   * the table's 31 go to Ana, the last capturer: most cards and oros */
  const EngEvent *a = score_of (&t, 0), *b = score_of (&t, 1);
  cr_assert_not_null (a);
  cr_assert_not_null (b);
  cr_assert_str_eq (a->text, "Ana: 1 escoba, most cards (38), most oros (10), siete de oros, "
                             "most sevens (3): 5 points");
  cr_assert_eq (a->delta, 5);
  cr_assert_str_eq (b->text, "Bea: no points this round");
  cr_assert_eq (eng_game_score (t.game, 0), 5);
  cr_assert_eq (eng_game_score (t.game, 1), 0);
  gt_free (&t);
}

/* The panel titled `title` of the game's public view, or NULL. */
static const EngViewPanel *
panel_of (const EngView *v, const char *title)
{
  for (unsigned i = 0; i < v->n_panels; i++)
    if (strcmp (v->panels[i].title, title) == 0)
      return &v->panels[i];
  return NULL;
}

/* While the next round is played, the table can read the last count back:
 * each side's points and why, as they were said. */
Test (escoba, s08_the_last_rounds_count_stays_on_the_scoreboard)
{
  GameTest t;
  gt_new (&t, TWO);
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert_null (panel_of (&v, "Last round's count"), "no count before the first round's end");
  ana_takes_the_round (&t);
  cr_assert_eq (es (&t)->round, 2);
  eng_game_public_view (t.game, &v);
  const EngViewPanel *last = panel_of (&v, "Last round's count");
  cr_assert_not_null (last);
  cr_assert_eq (last->n_rows, 2);
  cr_assert_str_eq (last->rows[0].label, "Ana");
  cr_assert_str_eq (last->rows[0].value, "5 points: 1 escoba, most cards (38), most oros (10), "
                                         "siete de oros, most sevens (3)");
  cr_assert_str_eq (last->rows[1].label, "Bea");
  cr_assert_str_eq (last->rows[1].value, "no points");
  gt_free (&t);
}

Test (escoba, s08_a_tie_gives_the_point_to_nobody_and_primera_is_a_switch)
{
  GameTest t;
  gt_new (&t, TWO "option sevens primera\n");
  gt_ok (&t, "Bea deal 8 18 28 38");
  gt_ok (&t, "Ana play 7 8");
  gt_ok (&t, "Bea play 17 18");
  gt_ok (&t, "Ana play 27 28");
  gt_ok (&t, "Bea play 37 38");      /* sevens 2 each; Bea last to capture */
  play_out_round (&t);
  const EngEvent *b = score_of (&t, 1);
  cr_assert_not_null (b);
  /* Bea takes the table: most cards and oros, and the best card of every
   * suit; the sevens' point is the primera */
  cr_assert_not_null (strstr (b->text, "primera ("), "%s", b->text);
  cr_assert_null (strstr (b->text, "sevens"), "%s", b->text);
  gt_free (&t);
}

Test (escoba, s09_all_four_sevens_score_three_with_the_switch)
{
  GameTest t;
  gt_new (&t, TWO "option all_sevens yes\n");
  gt_ok (&t, "Bea deal 8 18 28 38");
  gt_ok (&t, "Ana play 7 8");
  gt_ok (&t, "Bea play 11");
  gt_ok (&t, "Ana play 17 18");
  gt_ok (&t, "Bea play 21");
  gt_ok (&t, "Ana play 27 28");
  gt_ok (&t, "Bea play 31");
  gt_ok (&t, "Ana play 37 38");      /* all four sevens */
  play_out_round (&t);
  const EngEvent *a = score_of (&t, 0);
  cr_assert_not_null (a);
  cr_assert_not_null (strstr (a->text, "all four sevens"), "%s", a->text);
  gt_free (&t);
}

Test (escoba, s10_the_game_ends_at_the_round_that_reaches_the_target)
{
  GameTest t;
  gt_new (&t, TWO "option target 5\n");
  ana_takes_the_round (&t);
  cr_assert (eng_game_is_over (t.game));
  const EngEvent *e = gt_event (&t, ENG_EVENT_GAME_OVER, "S10");
  cr_assert_not_null (e);
  cr_assert_str_eq (e->text, "Game over: Ana wins with 5 points");
  cr_assert_eq (eng_game_winners (t.game, NULL), 1u);
  gt_refused (&t, "Ana play 1", ENG_ERR_STATE, "S10");
  gt_free (&t);
  /* below the target: the next round */
  gt_new (&t, TWO "option target 6\n");
  gt_ok (&t, "Bea deal 8 18 28 2");
  gt_ok (&t, "Ana play 7 8");
  play_out_round (&t);
  cr_assert_not (eng_game_is_over (t.game));
  cr_assert_eq (es (&t)->round, 2);
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NEED, "S1"));
  gt_free (&t);
}

Test (escoba, s10_pairs_score_together)
{
  GameTest t;
  gt_new (&t, "game escoba\nplayer Ana\nplayer Bea\nplayer Cai\nplayer Dani\noption pairs yes\n");
  gt_ok (&t, "Bea deal 8 18 28 2");
  gt_ok (&t, "Ana play 7 8");        /* Ana and Cai */
  cr_assert_eq (es (&t)->active, 3);
  gt_ok (&t, "Dani play 17 18");     /* Bea and Dani */
  gt_ok (&t, "Cai play 27 28");
  cr_assert_eq (es (&t)->taken[0].sevens, 2, "Cai's sevens count with Ana's");
  cr_assert_eq (eng_game_score (t.game, 0), eng_game_score (t.game, 2));
  gt_free (&t);
  cr_assert_neq (gt_try_new (&t, TWO "option pairs yes\n"), ENG_OK, "pairs need four");
  gt_free (&t);
}

Test (escoba, s11_hands_and_the_deck_are_never_named)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  /* a card the table saw cannot come from a hand */
  gt_refused (&t, "Ana play 20", ENG_ERR_CONSERVATION, "S11");
  for (unsigned k = 4; k <= 40; k++)
    if (k != 20)
      cr_assert_not (eng_game_card_public (t.game, k), "card %u is in a hand or the deck", k);
  gt_ok (&t, "Ana play 5 20");
  cr_assert (eng_game_card_public (t.game, 20), "a captured card was seen by everyone");
  EngView v;
  eng_game_public_view (t.game, &v);
  cr_assert_eq (v.players[0].hand, 2);
  cr_assert_eq (v.players[1].hand, 3);
  const EngViewPlace *deck = &v.shared[1];
  for (unsigned i = 0; i < deck->n_cards; i++)
    cr_assert_eq (deck->cards[i].serial, 0, "the deck shows backs only");
  for (unsigned i = 0; i < v.players[0].places[0].n_cards; i++)
    cr_assert_eq (v.players[0].places[0].cards[i].serial, 0, "a pile lies face down");
  EngVerdict why;
  cr_assert_eq (eng_game_check_conservation (t.game, &why), ENG_OK, "%s", why.reason);
  gt_free (&t);
}

Test (escoba, s12_what_a_slip_would_record_is_refused)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Bea deal 1 2 3 20");
  gt_refused (&t, "Ana play 19 20", ENG_ERR_ILLEGAL, "S3");  /* 19: not 15 */
  gt_refused (&t, "Bea play 11", ENG_ERR_ILLEGAL, "S1");     /* out of turn */
  gt_refused (&t, "Ana play 20 1", ENG_ERR_CONSERVATION, "S11");
  gt_refused (&t, "Bea deal 5 6 7 8", ENG_ERR_ILLEGAL, "S1"); /* dealt once a round */
  gt_free (&t);
}
