/* The plumbing the core does once for every game (eng-play.h,
 * eng-card-table.h, eng_options_read, eng_view_fill_common, the live
 * question helpers), tried on a toy game: players take turns adding 1 or 2
 * to a count, and whoever reaches 5 wins. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-card-table.h"
#include "eng-data.h"
#include "eng-live.h"
#include "eng-play.h"
#include "eng-view.h"

typedef struct {
  uint8_t n_players, active, count, winner;
  int16_t score[ENG_MAX_PLAYERS];
} ToyState;

static const char *const toy_verbs[] = { "add" };

static EngStatus
toy_play (EngPlay *p, const EngMove *m)
{
  ToyState *s = p->state;
  if (s->winner != ENG_CARD_NONE)
    return eng_play_refuse (p, ENG_ERR_STATE, "T3", "the game is over");
  if (m->player != s->active)
    return ENG_ILLEGAL (p, "T1", "%s adds next", eng_play_name (p, s->active));
  ENG_SAY (p, ENG_EVENT_NOTE, m->player, "T2", "%s adds %d", eng_play_name (p, m->player),
           m->slot[0]);
  s->count = (uint8_t) (s->count + m->slot[0]);   /* changed before the refusal below */
  if (m->slot[0] < 1 || m->slot[0] > 2)
    return ENG_ILLEGAL (p, "T2", "add 1 or 2, not %d", m->slot[0]);
  if (s->count >= 5)
    {
      s->winner = (uint8_t) m->player;
      s->score[m->player] = 1;
      eng_play_score (p, m->player, 1, 1, "T3");
      eng_play_game_over (p, 1u << m->player, 1, "score", "T3");
    }
  s->active = (uint8_t) ((s->active + 1) % s->n_players);
  return ENG_OK;
}

static int toy_score (const void *r, const void *st, unsigned p)
{ (void) r; return ((const ToyState *) st)->score[p]; }
static bool toy_over (const void *r, const void *st)
{ (void) r; return ((const ToyState *) st)->winner != ENG_CARD_NONE; }
static unsigned toy_winners (const void *r, const void *st, const char **tb)
{ (void) r; (void) tb; return toy_over (r, st) ? 1u << ((const ToyState *) st)->winner : 0; }
static int toy_to_move (const void *r, const void *st)
{ return toy_over (r, st) ? -1 : ((const ToyState *) st)->active; }

static const EngGameClass toy_class = {
  .name = "toy", .title = "Toy", .min_players = 2, .max_players = 3,
  .state_size = sizeof (ToyState), .verbs = toy_verbs, .n_verbs = 1,
  .play = toy_play, .score = toy_score, .is_over = toy_over, .winners = toy_winners,
  .to_move = toy_to_move,
};

static EngSetup
toy_setup (void)
{
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 2;
  snprintf (su.names[0], ENG_NAME_MAX, "Ana");
  snprintf (su.names[1], ENG_NAME_MAX, "Bea");
  return su;
}

static EngMove
add (int player, int n)
{
  EngMove m;
  eng_move_init (&m, 0, player);
  m.slot[0] = (int8_t) n;
  return m;
}

Test (play, a_refused_move_changes_nothing_and_says_why_once)
{
  EngSetup su = toy_setup ();
  ToyState s = { .n_players = 2, .winner = ENG_CARD_NONE };
  EngEvent storage[16];
  EngEvents ev;
  eng_events_init (&ev, storage, 16);
  EngVerdict why;
  EngMove bad = add (0, 3);
  ToyState before = s;
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, &su, &s, &bad, &ev, &why), ENG_ERR_ILLEGAL);
  cr_assert_eq (memcmp (&before, &s, sizeof s), 0, "the scratch copy was changed, not the state");
  cr_assert_eq (ev.n, 1, "the move's own events are dropped: only the refusal stays");
  cr_assert_eq (storage[0].kind, ENG_EVENT_ILLEGAL);
  cr_assert_eq (storage[0].player, 0);
  cr_assert_str_eq (storage[0].rule, "T2");
  /* said as a sentence; the verdict's reason is the rule's words as given */
  cr_assert_str_eq (storage[0].text, "Add 1 or 2, not 3");
  cr_assert_str_eq (why.reason, "add 1 or 2, not 3");
  EngMove wrong = add (1, 1);
  cr_assert_eq (eng_game_class_check (&toy_class, NULL, &su, &s, &wrong, &why), ENG_ERR_ILLEGAL);
  cr_assert_str_eq (why.reason, "Ana adds next", "the names come from the setup");
  EngMove ok = add (0, 2);
  cr_assert_eq (eng_game_class_check (&toy_class, NULL, &su, &s, &ok, &why), ENG_OK);
  cr_assert_eq (memcmp (&before, &s, sizeof s), 0, "check applies to a copy");
  eng_events_init (&ev, storage, 16);
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, &su, &s, &ok, &ev, &why), ENG_OK);
  cr_assert_eq (s.count, 2);
  cr_assert_eq (ev.n, 2);
  cr_assert_eq (storage[0].kind, ENG_EVENT_ACCEPTED);
  cr_assert_str_eq (storage[1].text, "Ana adds 2");
  /* no events, no verdict: the simulation path */
  EngMove next = add (1, 2);
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, NULL, &s, &next, NULL, NULL), ENG_OK);
  cr_assert_eq (s.count, 4);
}

Test (play, players_and_verbs_outside_the_table_are_refused)
{
  EngSetup su = toy_setup ();
  ToyState s = { .n_players = 2, .winner = ENG_CARD_NONE };
  EngVerdict why;
  EngMove m = add (2, 1);
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, &su, &s, &m, NULL, &why), ENG_ERR_ILLEGAL);
  cr_assert_str_eq (why.rule, "turn");
  m = add (0, 1);
  m.target[0] = 5;
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, &su, &s, &m, NULL, &why), ENG_ERR_ILLEGAL);
  m = add (0, 1);
  m.verb = 1;
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, &su, &s, &m, NULL, &why), ENG_ERR_ILLEGAL);
  cr_assert_str_eq (why.reason, "unknown move");
}

Test (play, score_and_game_over_name_the_winners)
{
  EngSetup su = toy_setup ();
  ToyState s = { .n_players = 2, .count = 4, .winner = ENG_CARD_NONE };
  EngEvent storage[16];
  EngEvents ev;
  eng_events_init (&ev, storage, 16);
  EngMove m = add (0, 1);
  cr_assert_eq (eng_game_class_apply (&toy_class, NULL, &su, &s, &m, &ev, NULL), ENG_OK);
  cr_assert_eq (ev.n, 4);
  cr_assert_eq (storage[2].kind, ENG_EVENT_SCORE);
  cr_assert_str_eq (storage[2].text, "Ana scores 1 (now 1 point)");
  cr_assert_eq (storage[2].value, 1);
  cr_assert_eq (storage[3].kind, ENG_EVENT_GAME_OVER);
  cr_assert_str_eq (storage[3].text, "Game over: Ana wins with 1 point");
  cr_assert_eq (storage[3].winners, 1);
  cr_assert_str_eq (storage[3].tiebreak, "score");
  EngPlay p = { NULL, &s, &su, &ev, &(EngVerdict) { "", "" } };
  const EngEvent *e = eng_play_game_over (&p, 3, 21, "score", "S10");
  cr_assert_str_eq (e->text, "Game over: Ana and Bea win with 21 points");
  p.setup = NULL;
  cr_assert_str_eq (eng_play_name (&p, 0), "?");
  p.events = NULL;
  cr_assert_null (eng_play_score (&p, 0, 2, 1, "T3"), "no text on the simulation path");
}

Test (play, move_lists_count_past_their_room_and_leaders_share_ties)
{
  EngMove out[2];
  EngMoveList l = eng_move_list (out, 2);
  for (int i = 0; i < 5; i++)
    {
      EngMove m = add (0, i);
      eng_move_list_push (&l, &m);
    }
  cr_assert_eq (l.n, 5);
  cr_assert_eq (out[1].slot[0], 1);
  int16_t scores[4] = { 3, 7, 7, -1 };
  cr_assert_eq (eng_scores_leaders (scores, 4), 6u);
  int16_t neg[2] = { -2, -5 };
  cr_assert_eq (eng_scores_leaders (neg, 2), 1u, "the highest, even below zero");
}

Test (play, options_read_defaults_values_and_refusals)
{
  static const EngOptionSpec specs[] = {
    { "strict", ENG_OPTION_YESNO, NULL, 0, 0, 0 },
    { "count", ENG_OPTION_CHOICE, "most primera", 0, 0, 0 },
    { "target", ENG_OPTION_NUMBER, NULL, 21, 1, 100 },
  };
  int v[3];
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_options_read (NULL, specs, 3, "Toy", v, &err), ENG_OK);
  cr_assert (v[0] == 0 && v[1] == 0 && v[2] == 21);
  EngOptions o = { 0 };
  eng_options_set (&o, "strict", "yes");
  eng_options_set (&o, "count", "primera");
  eng_options_set (&o, "target", "31");
  cr_assert_eq (eng_options_read (&o, specs, 3, "Toy", v, &err), ENG_OK);
  cr_assert (v[0] == 1 && v[1] == 1 && v[2] == 31);
  eng_options_set (&o, "target", "0");
  cr_assert_eq (eng_options_read (&o, specs, 3, "Toy", v, &err), ENG_ERR_SYNTAX);
  cr_assert_not_null (strstr (err.reason, "target"), "%s", err.reason);
  eng_options_set (&o, "target", "21");
  eng_options_set (&o, "count", "prime");
  cr_assert_eq (eng_options_read (&o, specs, 3, "Toy", v, &err), ENG_ERR_SYNTAX);
  eng_options_set (&o, "count", "most");
  eng_options_set (&o, "strict", "maybe");
  cr_assert_eq (eng_options_read (&o, specs, 3, "Toy", v, &err), ENG_ERR_SYNTAX);
  eng_options_set (&o, "strict", "no");
  eng_options_set (&o, "speed", "fast");
  cr_assert_eq (eng_options_read (&o, specs, 3, "Toy", v, &err), ENG_ERR_UNKNOWN_ATTRIBUTE);
  cr_assert_not_null (strstr (err.reason, "speed"), "%s", err.reason);
}

static EngCardSet *
load_set (const char *game)
{
  char rel[64];
  snprintf (rel, sizeof rel, "cards/%s.set", game);
  char *path = eng_data_path (rel);
  cr_assert_not_null (path);
  EngCardSet *set = NULL;
  cr_assert_eq (eng_card_set_load_file (path, &set, NULL), ENG_OK);
  free (path);
  return set;
}

Test (play, card_tables_and_tallies_count_every_card_once)
{
  const EngGameClass *k = eng_game_class_get (0);
  EngCardSet *set = load_set (k->name);
  EngCardTable t;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_table_init (&t, set, &toy_class, 250, &err), ENG_ERR_INVALID_ARGUMENT,
                "another game's set");
  cr_assert_eq (eng_card_table_init (&t, set, k, 3, &err), ENG_ERR_LIMIT);
  cr_assert_eq (eng_card_table_init (&t, set, k, 250, &err), ENG_OK, "%s", err.reason);
  cr_assert_eq (t.n, eng_card_set_n_cards (set));
  for (unsigned i = 0; i < t.n; i++)
    {
      cr_assert_eq (eng_card_table_index (&t, t.serial[i]), i);
      cr_assert_eq (eng_card_table_card (&t, i)->serial, t.serial[i]);
    }
  cr_assert_eq (eng_card_table_index (&t, 0), ENG_CARD_NONE);
  cr_assert_eq (eng_card_table_index (&t, 5000), ENG_CARD_NONE);
  uint8_t hand[3] = { 0, ENG_CARD_UNKNOWN, 2 }, pile[2] = { 1, 2 };
  EngTally tally;
  EngVerdict why;
  eng_tally_init (&tally);
  eng_tally_add (&tally, &t, hand, 3, true);
  cr_assert_eq (eng_tally_check (&tally, &t, 3, "X1", &why), ENG_OK);
  cr_assert_eq (eng_tally_check (&tally, &t, 4, "X1", &why), ENG_ERR_CONSERVATION);
  cr_assert_str_eq (why.reason, "cards lost or invented: 2 known + 1 unseen of 4");
  eng_tally_add (&tally, &t, pile, 2, false);
  cr_assert_eq (eng_tally_check (&tally, &t, 4, "X1", &why), ENG_ERR_CONSERVATION);
  cr_assert_str_eq (why.rule, "X1");
  char want[64];
  snprintf (want, sizeof want, "card %u is in two places", t.serial[2]);
  cr_assert_str_eq (why.reason, want);
  eng_tally_init (&tally);
  eng_tally_add (&tally, &t, hand, 3, false);
  cr_assert_eq (eng_tally_check (&tally, &t, 3, "X1", NULL), ENG_ERR_CONSERVATION,
                "an unseen card where every card is known");
  const EngCard *c = eng_card_set_card (set, 0);
  cr_assert_eq (eng_card_attr_index (c, "no-such-key", "a b"), -1);
  if (c->n_attrs > 0)
    {
      char values[80];
      snprintf (values, sizeof values, "zz %s", c->attrs[0].value);
      cr_assert_eq (eng_card_attr_index (c, c->attrs[0].key, values), 1);
    }
  eng_card_set_free (set);
}

Test (play, the_view_says_scores_turn_and_winners_the_same_way_for_every_game)
{
  ToyState s = { .n_players = 2, .active = 1, .winner = ENG_CARD_NONE, .score = { 0, 3 } };
  EngView v;
  eng_view_init (&v);
  v.n_players = 2;
  eng_view_fill_common (&v, &toy_class, NULL, &s);
  cr_assert (v.scored && !v.over);
  cr_assert_eq (v.active, 1);
  cr_assert_eq (v.deciding, 1);
  cr_assert_eq (v.players[1].score, 3);
  cr_assert (v.players[1].flags & ENG_VIEW_PLAYER_ACTIVE);
  s.winner = 0;
  eng_view_init (&v);
  v.n_players = 2;
  eng_view_fill_common (&v, &toy_class, NULL, &s);
  cr_assert (v.over);
  cr_assert_eq (v.active, -1);
  cr_assert_eq (v.winners, 1);
  cr_assert (v.players[0].flags & ENG_VIEW_PLAYER_WINNER);
  cr_assert_not (v.players[1].flags & ENG_VIEW_PLAYER_WINNER);
}

Test (play, a_question_names_one_candidate_and_cancel_names_the_next)
{
  int cand[3] = { 2, 0, 1 };
  cr_assert_eq (eng_live_ask_named (cand, 3, 0), 0);
  cr_assert_eq (eng_live_ask_named (cand, 3, 5), 2, "not a candidate: the first");
  cr_assert_eq (eng_live_ask_next (cand, 3, 0), 1);
  cr_assert_eq (eng_live_ask_next (cand, 3, 1), 2, "wrapping round");
  cr_assert_eq (eng_live_ask_named (cand, 0, 1), -1);
  EngLiveChoice choice;
  cr_assert (eng_live_ask_choice (cand, 3, 1, &choice));
  cr_assert_eq (choice.n, 3);
  cr_assert (choice.player[0] == 1 && choice.player[1] == 2 && choice.player[2] == 0);
  cr_assert_not (eng_live_ask_choice (cand, 0, 1, &choice));
}

/* A class that leaves its queries to the core keeps an EngPlayHeader
 * first in its state; its verbs' shapes are data. */
typedef struct {
  EngPlayHeader h;
  uint8_t count;
} HeadedState;

static const EngVerbShape headed_shapes[] = { { 1, 3, 0, false, false, false } };
static const EngGameClass headed_class = {
  .name = "headed", .title = "Headed", .min_players = 2, .max_players = 2,
  .state_size = sizeof (HeadedState), .verbs = toy_verbs, .n_verbs = 1, .shapes = headed_shapes,
};

Test (play, the_core_reads_the_header_and_the_verb_shapes)
{
  HeadedState s = { .h = { .to_move = 1, .score = { 4, 7 } } };
  cr_assert_eq (eng_game_class_score (&headed_class, NULL, &s, 1), 7);
  cr_assert_eq (eng_game_class_to_move (&headed_class, NULL, &s), 1);
  cr_assert_not (eng_game_class_is_over (&headed_class, NULL, &s));
  const char *tb = "x";
  cr_assert_eq (eng_game_class_winners (&headed_class, NULL, &s, &tb), 0u);
  cr_assert_null (tb);
  s.h.over = 1;
  s.h.winners = 2;
  cr_assert_eq (eng_game_class_winners (&headed_class, NULL, &s, &tb), 2u);
  cr_assert_str_eq (tb, "score");
  cr_assert_eq (eng_game_class_to_move (&headed_class, NULL, &s), -1);
  EngMove m;
  eng_move_init (&m, 0, 0);
  char why[96];
  cr_assert_not (eng_game_class_move_shape_ok (&headed_class, &m, why, sizeof why), "no card");
  cr_assert_str_eq (why, "'add' takes 1 to 3 cards, no player");
  m.card = 5;
  cr_assert (eng_game_class_move_shape_ok (&headed_class, &m, why, sizeof why), "%s", why);
  m.cards[m.n_cards++] = ENG_SERIAL_UNKNOWN;
  cr_assert_not (eng_game_class_move_shape_ok (&headed_class, &m, NULL, 0), "'?' not taken");
  m.n_cards = 0;
  m.target[0] = 1;
  cr_assert_not (eng_game_class_move_shape_ok (&headed_class, &m, NULL, 0), "no player taken");
}

Test (play, card_lists_attributes_and_journal_numbers)
{
  uint8_t cards[5] = { 9, 4, 7, 4, 2 }, n = 5;
  cr_assert_eq (eng_cards_find (cards, n, 4), 1);
  cr_assert_eq (eng_cards_find (cards, n, 8), -1);
  eng_cards_remove_at (cards, &n, 1);
  cr_assert_eq (n, 4);
  cr_assert (cards[0] == 9 && cards[1] == 7 && cards[2] == 4 && cards[3] == 2);
  uint16_t serials[4] = { 30, 2, 17, 2 };
  eng_serials_sort (serials, 4);
  cr_assert (serials[0] == 2 && serials[1] == 2 && serials[2] == 17 && serials[3] == 30);

  const EngGameClass *k = eng_game_class_get (0);
  EngCardSet *set = load_set (k->name);
  EngCardTable t;
  cr_assert_eq (eng_card_table_init (&t, set, k, 250, NULL), ENG_OK);
  uint8_t out[ENG_CARD_TABLE_MAX];
  int8_t values[ENG_CARD_TABLE_MAX];
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_table_enum (&t, "no-such-key", "a b", out, &err), ENG_ERR_INCONSISTENT);
  cr_assert_not_null (strstr (err.reason, "no-such-key"), "%s", err.reason);
  cr_assert_eq (eng_card_table_int (&t, "no-such-key", 0, 9, values, &err), ENG_ERR_INCONSISTENT);
  eng_card_set_free (set);

  char line[] = "g 3 0 12";
  char *words[4] = { line, line + 2, line + 4, line + 6 };
  line[1] = line[3] = line[5] = '\0';
  long v[4];
  cr_assert_eq (eng_live_notes_parse_numbers (words, 4, "g", 0, 20, v, 4), 3);
  cr_assert (v[0] == 3 && v[1] == 0 && v[2] == 12);
  cr_assert_eq (eng_live_notes_parse_numbers (words, 4, "g", 0, 10, v, 4), -1, "12 out of range");
  cr_assert_eq (eng_live_notes_parse_numbers (words, 4, "y", 0, 20, v, 4), -1, "another key");
  cr_assert_eq (eng_live_notes_parse_numbers (words, 4, "g", 0, 20, v, 2), -1, "too many");
}

/* Rules the core builds from specs: the set's faces, an enum and an
 * integer attribute per card, the switches into int fields, then the
 * class's own check. */
typedef struct {
  EngCardTable table;
  uint8_t colour[4];
  int8_t value[4];
  int strict, target;
} SpecRules;

static EngStatus
spec_check (void *rules, EngParseError *err)
{
  SpecRules *r = rules;
  if (r->target < 5)
    {
      eng_parse_error_set (err, "options", 0, "target below 5");
      return ENG_ERR_SYNTAX;
    }
  return ENG_OK;
}

static const EngAttrSpec spec_attrs[] = {
  { "colour", "red blue", 0, 0, offsetof (SpecRules, colour) },
  { "value", NULL, 1, 3, offsetof (SpecRules, value) },
};
static const EngOptionSpec spec_options[] = {
  { "strict", ENG_OPTION_YESNO, NULL, 0, 0, 0, offsetof (SpecRules, strict) },
  { "target", ENG_OPTION_NUMBER, NULL, 7, 1, 50, offsetof (SpecRules, target) },
};
static const EngGameClass spec_class = {
  .name = "spec", .title = "Spec", .rules_size = sizeof (SpecRules), .max_cards = 4,
  .attrs = spec_attrs, .n_attrs = 2, .options = spec_options, .n_options = 2,
  .rules_check = spec_check,
};

Test (play, rules_built_from_specs_and_words_joined)
{
  const char *text = "game spec P Spec\nset 01\ntitle Spec\nseats 2\nanchors 4\n"
                     "attr colour enum red blue\nattr value int 1 3\n"
                     "colour red word=red symbol=dot\ncolour blue word=blue symbol=ring\n"
                     "deck d total=3 label=D\n"
                     "card a deck=d count=2 name=A colour=blue value=3\n"
                     "card b deck=d count=1 name=B colour=red value=1\ncommand undo Undo\n";
  EngCardSet *set = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_parse (text, strlen (text), "spec", &set, &err), ENG_OK, "%s",
                err.reason);
  void *rules = NULL;
  cr_assert_eq (eng_game_class_rules_new (&spec_class, set, NULL, &rules, &err), ENG_OK, "%s",
                err.reason);
  const SpecRules *r = rules;
  cr_assert_eq (r->table.n, 3);
  cr_assert (r->colour[0] == 1 && r->colour[2] == 0);
  cr_assert (r->value[1] == 3 && r->value[2] == 1);
  cr_assert (r->strict == 0 && r->target == 7);
  eng_game_class_rules_free (&spec_class, rules);
  EngOptions o = { 0 };
  eng_options_set (&o, "target", "3");
  cr_assert_eq (eng_game_class_rules_new (&spec_class, set, &o, &rules, &err), ENG_ERR_SYNTAX);
  cr_assert_null (rules);
  cr_assert_str_eq (err.reason, "target below 5");
  eng_options_set (&o, "target", "9");
  eng_options_set (&o, "strict", "yes");
  cr_assert_eq (eng_game_class_rules_new (&spec_class, set, &o, &rules, &err), ENG_OK);
  cr_assert (((const SpecRules *) rules)->strict == 1 && ((const SpecRules *) rules)->target == 9);
  eng_game_class_rules_free (&spec_class, rules);
  eng_card_set_free (set);

  char list[64] = "";
  const char *items[] = { "Ana", "Bea", "Cai" };
  for (unsigned i = 0; i < 3; i++)
    eng_text_list_add (list, sizeof list, items[i], i, 3);
  cr_assert_str_eq (list, "Ana, Bea and Cai");
  char small[6] = "abc";
  eng_text_append (small, sizeof small, "defgh");
  cr_assert_str_eq (small, "abcde", "cut to fit");
}

/* One function per verb; after the end every move is refused for the
 * class (its header says over). */
static EngStatus
count_up (EngPlay *p, const EngMove *m)
{
  HeadedState *s = p->state;
  s->count = (uint8_t) (s->count + m->n_cards + 1);
  if (s->count >= 3)
    s->h.over = 1;
  return ENG_OK;
}

static EngStatus (*const count_plays[]) (EngPlay *, const EngMove *) = { count_up };
static const EngGameClass counting_class = {
  .name = "counting", .title = "Counting", .min_players = 2, .max_players = 2,
  .state_size = sizeof (HeadedState), .verbs = toy_verbs, .n_verbs = 1,
  .plays = count_plays, .over_rule = "T9",
};

Test (play, plays_by_verb_and_nothing_after_the_end)
{
  HeadedState s = { 0 };
  EngMove m;
  eng_move_init (&m, 0, 0);
  EngVerdict why;
  cr_assert_eq (eng_game_class_apply (&counting_class, NULL, NULL, &s, &m, NULL, &why), ENG_OK);
  cr_assert_eq (s.count, 1);
  m.cards[m.n_cards++] = 4;
  cr_assert_eq (eng_game_class_apply (&counting_class, NULL, NULL, &s, &m, NULL, &why), ENG_OK);
  cr_assert (s.h.over);
  cr_assert_eq (eng_game_class_apply (&counting_class, NULL, NULL, &s, &m, NULL, &why),
                ENG_ERR_STATE);
  cr_assert_str_eq (why.rule, "T9");
  cr_assert_str_eq (why.reason, "The game is over");
  cr_assert_eq (s.count, 3, "nothing changed");
}
