/* One or more tests per ruling K1-K21 (RULINGS.md), each on a small scenario
 * written as a game record: known deals where the rule needs identities,
 * unseen ("?") cards where it must work without them.
 *
 * Serials of data/cards/katua.set (file order): cats red-1 1-3, red-2 4-5,
 * red-3 6, blue-1 7-9, blue-2 10-11, blue-3 12, yellow-1 13-15, yellow-2
 * 16-17, yellow-3 18, tricolor-1 19-22, tricolor-2 23-25, tricolor-3 26-28,
 * fake-1 29-32, fake-2 33-34; UFOs red 35-46, blue 47-58, yellow 59-70,
 * tricolor 71-76, Hook 77-82, Shield 83-88, Replicator 89-94, Teleporter
 * 95-100, X-Ray 101-105, Stampede 106-108.
 */
#include "kat-test.h"

#define TWO "game katua\nplayer Ana\nplayer Bea\nfirst Ana\n"
#define THREE "game katua\nplayer Ana\nplayer Bea\nplayer Cai\nfirst Ana\n"

/* Ana: red-1, blue-2, tricolor-1 / Bea: red-2, blue-3, fake-1 */
#define SLOTS2 "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\n"
/* plain low cats, for scenarios that fill capture areas */
#define SLOTS_LOW "deal Ana slots 1 2 3\ndeal Bea slots 10 11 14\n"

/* ---- K1 ---------------------------------------------------------------- */

Test (katua, k01_scores_the_value_the_set_gives_each_physical_card)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 47 72\ndeal Bea hand 60 61 62\n");
  gt_ok (&t, "Ana attack 72 Bea 3");   /* tricolor beam at the fake-1 */
  gt_ok (&t, "Bea hit");
  cr_assert_eq (eng_game_score (t.game, 0), -1, "fake-1 is worth -1 in the set");
  gt_free (&t);

  /* an edited set (red-1 worth 3) changes the score: values are data */
  char *path = gt_data_path ("cards/katua.set");
  FILE *f = fopen (path, "rb");
  cr_assert_not_null (f);
  static char text[65536];
  size_t n = fread (text, 1, sizeof text - 1, f);
  fclose (f);
  free (path);
  text[n] = '\0';
  char *line = strstr (text, "kind=cat colour=red value=1");
  cr_assert_not_null (line, "katua.set lists red cats worth 1");
  line[strlen ("kind=cat colour=red value=")] = '3';
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_parse (text, n, "edited", &set, &err), ENG_OK, "%s", err.reason);
  EngRecord *rec = NULL;
  const char *hdr = TWO SLOTS2 "deal Ana hand 35 47 72\ndeal Bea hand 60 61 62\n"
                    "Bea pass\n";
  cr_assert_eq (eng_record_parse (hdr, strlen (hdr), "k1", &rec, &err), ENG_OK);
  EngGame *g = NULL;
  EngVerdict why;
  cr_assert_eq (eng_game_new (rec->klass, set, NULL, &rec->setup, NULL, NULL, &g, &why), ENG_OK);
  EngMove m;
  cr_assert_eq (eng_record_parse_move (rec, "Ana pass", &m, &err), ENG_OK);
  cr_assert_eq (eng_game_apply (g, &m, NULL, NULL), ENG_OK);
  cr_assert_eq (eng_record_parse_move (rec, "Bea attack 60 Ana 1", &m, &err), ENG_OK);
  cr_assert_eq (eng_game_apply (g, &m, NULL, NULL), ENG_OK);  /* yellow at red-1: escapes */
  cr_assert_eq (eng_record_parse_move (rec, "Ana hit", &m, &err), ENG_OK);
  cr_assert_eq (eng_game_apply (g, &m, NULL, NULL), ENG_OK);
  cr_assert_eq (eng_game_score (g, 1), 0);
  eng_game_free (g);
  eng_record_free (rec);
  eng_card_set_free (set);
}

Test (katua, k01_red_one_worth_edited_value)
{
  /* same scenario with a capture: the red-1 counts 1 in the default set */
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 47 72\ndeal Bea hand 36 61 62\n");
  gt_ok (&t, "Ana pass");
  gt_ok (&t, "Bea attack 36 Ana 1");
  gt_ok (&t, "Ana hit");
  cr_assert_eq (eng_game_score (t.game, 1), 1);
  gt_free (&t);
}

/* ---- K2 ---------------------------------------------------------------- */

Test (katua, k02_hand_limit_three_and_draws_only_at_end_of_turn)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 95 96\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana teleport 95 Ana 1 Bea 1");
  gt_ok (&t, "Ana teleport 96 Ana 2 Bea 2");
  cr_assert_eq (kt_state (&t)->hand_n[0], 1, "no draw during the turn");
  gt_ok (&t, "Ana end");
  cr_assert_eq (kt_state (&t)->hand_n[0], 3, "refilled to the limit at the end");
  const EngEvent *e = gt_event (&t, ENG_EVENT_DEALT, "K15");
  cr_assert_not_null (e);
  cr_assert_eq (e->counts[0][1], 2);
  cr_assert_eq (e->counts[1][1], 0);
  for (int p = 0; p < 2; p++)
    cr_assert_leq (kt_state (&t)->hand_n[p], 3);
  gt_free (&t);
}

/* ---- K3 ---------------------------------------------------------------- */

Test (katua, k03_one_abduction_card_per_turn)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 71\ndeal Bea hand 60 61 62\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Bea hit");
  gt_refused (&t, "Ana attack 36 Bea 2", ENG_ERR_ILLEGAL, "K3");
  gt_free (&t);
}

Test (katua, k03_hook_counts_as_the_abduction_card)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 77 36 71\ndeal Bea hand 60 61 62\n");
  gt_ok (&t, "Ana hook 77 Ana 1");
  gt_ok (&t, "Ana flip");
  gt_refused (&t, "Ana attack 36 Bea 2", ENG_ERR_ILLEGAL, "K3");
  gt_free (&t);
}

Test (katua, k03_replicator_is_not_an_abduction_card)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 89 90\ndeal Bea hand 60 61 62\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 2");
  gt_ok (&t, "Ana replicate 90 Bea 3");
  cr_assert_eq (kt_state (&t)->n_att, 3);
  gt_free (&t);
}

Test (katua, k03_discard_ends_the_turn_and_pass_plays_nothing)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 95 96\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana discard 35 96");
  cr_assert_eq (kt_state (&t)->active, 1, "discarding ends the turn");
  cr_assert_eq (kt_state (&t)->discard_n, 2);
  gt_ok (&t, "Bea pass");
  gt_ok (&t, "Ana teleport 95 Ana 1 Bea 1");
  gt_refused (&t, "Ana pass", ENG_ERR_ILLEGAL, "K3");
  gt_refused (&t, "Ana discard 35", ENG_ERR_ILLEGAL, "K3");
  gt_free (&t);
}

/* ---- K4 ---------------------------------------------------------------- */

Test (katua, k04_colour_beam_attracts_its_colour_tricolor_and_fakes)
{
  /* red beam: red-2 yes */
  GameTest t;
  gt_new (&t, TWO "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\n"
              "deal Ana hand 35 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Bea hit");
  cr_assert_eq (kt_state (&t)->captured_n[0], 1, "red beam takes a red cat");
  gt_ok (&t, "Ana end");
  /* blue beam at Ana's tricolor-1: yes */
  gt_ok (&t, "Bea attack 47 Ana 3");
  gt_ok (&t, "Ana hit");
  cr_assert_eq (kt_state (&t)->captured_n[1], 1, "any beam takes a tricolor cat");
  gt_ok (&t, "Bea end");
  /* red beam at Bea's fake: yes */
  gt_ok (&t, "Ana attack 36 Bea 3");
  gt_ok (&t, "Bea hit");
  cr_assert_eq (kt_state (&t)->captured_n[0], 2, "any beam takes a fake");
  cr_assert_eq (eng_game_score (t.game, 0), 2 - 1);
  gt_free (&t);
}

Test (katua, k04_colour_beam_misses_other_colours)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana attack 35 Bea 2");  /* red at blue-3 */
  gt_ok (&t, "Bea hit");
  cr_assert_eq (kt_state (&t)->captured_n[0], 0);
  cr_assert_not_null (gt_event (&t, ENG_EVENT_STAYED, "K11"));
  gt_free (&t);
}

Test (katua, k04_tricolor_beam_attracts_every_cat)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 71 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana attack 71 Bea 2");  /* tricolor at blue-3 */
  gt_ok (&t, "Bea hit");
  cr_assert_eq (eng_game_score (t.game, 0), 3);
  gt_free (&t);
}

/* ---- K5 ---------------------------------------------------------------- */

Test (katua, k05_mono_beam_neutralised_by_same_colour_or_tricolor_target_stays_hidden)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 38 72 49\n");
  gt_ok (&t, "Ana attack 35 Bea 2");
  gt_refused (&t, "Bea neutralise 49", ENG_ERR_ILLEGAL, "K5");
  gt_ok (&t, "Bea neutralise 38");
  cr_assert_null (gt_event (&t, ENG_EVENT_SHOWN, NULL), "the target stays hidden");
  cr_assert_eq (kt_state (&t)->face_up[1][1], 0);
  cr_assert_eq (kt_state (&t)->discard_n, 2, "both UFOs discarded");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_TURN);
  gt_free (&t);
}

Test (katua, k05_tricolor_neutralised_by_target_colour_forces_show)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 71 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana attack 71 Bea 2");  /* tricolor at blue-3 */
  gt_ok (&t, "Bea neutralise 47");     /* blue UFO: the blue cat is shown */
  const EngEvent *e = gt_event (&t, ENG_EVENT_SHOWN, "K5");
  cr_assert_not_null (e, "forced show");
  cr_assert_eq (e->value, 12);
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NEED, "K5"), "then turned face down again");
  cr_assert_eq (kt_state (&t)->face_up[1][1], 0);
  gt_free (&t);
}

Test (katua, k05_tricolor_beam_wrong_colour_refused)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 71 36 37\ndeal Bea hand 38 48 49\n");
  gt_ok (&t, "Ana attack 71 Bea 2");   /* blue-3 target */
  gt_refused (&t, "Bea neutralise 38", ENG_ERR_ILLEGAL, "K5");
  gt_free (&t);
}

Test (katua, k05_tricolor_or_fake_target_only_by_tricolor_ufo)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 71 36 37\ndeal Bea hand 38 72 49\n");
  gt_ok (&t, "Ana attack 71 Bea 3");   /* fake */
  gt_refused (&t, "Bea neutralise 38", ENG_ERR_ILLEGAL, "K5");
  gt_ok (&t, "Bea neutralise 72");
  cr_assert_null (gt_event (&t, ENG_EVENT_SHOWN, NULL), "tricolor defence: no show");
  gt_free (&t);
}

Test (katua, k05_unseen_target_needs_the_show_on_a_live_table)
{
  GameTest t;
  gt_new (&t, TWO);  /* nothing known */
  gt_ok (&t, "Ana attack 71 Bea 2");
  gt_refused (&t, "Bea neutralise 47", ENG_ERR_ILLEGAL, "K5");
  gt_refused (&t, "Bea neutralise 47 show 4", ENG_ERR_ILLEGAL, "K5"); /* red cat, blue UFO */
  gt_ok (&t, "Bea neutralise 47 show 12");
  cr_assert_eq (kt_slot_serial (&t, 1, 1), 12, "the referee learnt the face");
  cr_assert_eq (katua_public_slot (eng_game_rules (t.game), kt_state (&t), 1, 1), 0,
                "but never shows it again (K20)");
  gt_free (&t);
}

/* ---- K6 ---------------------------------------------------------------- */

Test (katua, k06_only_the_owner_of_the_target_defends)
{
  GameTest t;
  gt_new (&t, THREE "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\ndeal Cai hand 39 84 97\n");
  gt_ok (&t, "Ana attack 35 Bea 2");
  gt_refused (&t, "Cai neutralise 39", ENG_ERR_ILLEGAL, "K6");
  gt_refused (&t, "Ana end", ENG_ERR_ILLEGAL, "K6");
  gt_ok (&t, "Bea neutralise 38");
  gt_free (&t);
}

Test (katua, k06_xray_is_not_a_defence_card)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 101 48 49\n");
  gt_ok (&t, "Ana attack 35 Bea 2");
  gt_refused (&t, "Bea xray 101 Ana 1", ENG_ERR_ILLEGAL, "K6");
  gt_free (&t);
}

/* ---- K7 ---------------------------------------------------------------- */

Test (katua, k07_shield_redirects_and_capture_goes_to_defender)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 83 48 49\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Bea shield 83 Ana 1");   /* back at Ana's red-1 */
  cr_assert_eq (kt_state (&t)->att[0].player, 0, "Ana now defends");
  gt_ok (&t, "Ana hit");
  cr_assert_eq (kt_state (&t)->captured_n[1], 1, "Bea captures with Ana's beam");
  cr_assert_eq (eng_game_score (t.game, 1), 1);
  gt_free (&t);
}

Test (katua, k07_shield_chain_and_only_back_at_the_attacker)
{
  GameTest t;
  gt_new (&t, THREE "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\ndeal Cai slots 6 7 8\n"
              "deal Ana hand 35 84 37\ndeal Bea hand 83 48 49\ndeal Cai hand 39 40 41\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_refused (&t, "Bea shield 83 Cai 1", ENG_ERR_ILLEGAL, "K7");
  gt_ok (&t, "Bea shield 83 Ana 3");
  gt_ok (&t, "Ana shield 84 Bea 2");   /* the chain goes on */
  cr_assert_eq (kt_state (&t)->att[0].launcher, 0, "Ana launches again");
  gt_ok (&t, "Bea hit");               /* red at blue-3: escapes */
  cr_assert_eq (kt_state (&t)->captured_n[0], 0);
  gt_free (&t);
}

/* ---- K8 ---------------------------------------------------------------- */

Test (katua, k08_teleporter_swaps_keeping_face_state)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 101 95 37\ndeal Bea hand 83 48 49\n");
  gt_ok (&t, "Ana xray 101 Bea 2");
  cr_assert_eq (kt_state (&t)->face_up[1][1], 1);
  gt_ok (&t, "Ana teleport 95 Bea 2 Ana 1");
  cr_assert_eq (kt_slot_serial (&t, 0, 0), 12);
  cr_assert_eq (kt_state (&t)->face_up[0][0], 1, "face up stays face up");
  cr_assert_eq (kt_slot_serial (&t, 1, 1), 1);
  cr_assert_eq (kt_state (&t)->face_up[1][1], 0, "face down stays face down");
  gt_free (&t);
}

Test (katua, k08_teleporter_in_defence_beam_hits_new_cat_in_slot)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 95 48 49\n");
  gt_ok (&t, "Ana attack 35 Bea 1");        /* red at red-2 */
  gt_ok (&t, "Bea teleport 95 Bea 1 Ana 2"); /* swap in Ana's blue-2 */
  gt_ok (&t, "Bea hit");
  cr_assert_eq (kt_state (&t)->captured_n[0], 0, "blue-2 escapes the red beam");
  cr_assert_eq (kt_slot_serial (&t, 1, 0), 10);
  gt_free (&t);
}

/* ---- K9 ---------------------------------------------------------------- */

Test (katua, k09_stampede_replaces_cats_and_shuffles_them_back)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 106 36 37\ndeal Bea hand 83 48 49\n"
              "deal cat-deck 13 14 15\n");
  unsigned deck = kt_state (&t)->cat_deck_n;
  gt_ok (&t, "Ana stampede 106 Bea");
  cr_assert_eq (kt_slot_serial (&t, 1, 0), 13, "placed left to right from the top");
  cr_assert_eq (kt_slot_serial (&t, 1, 1), 14);
  cr_assert_eq (kt_slot_serial (&t, 1, 2), 15);
  cr_assert_eq (kt_state (&t)->cat_deck_n, deck, "3 out, 3 shuffled back in");
  gt_free (&t);
}

Test (katua, k09_stampede_in_defence_attack_goes_on_against_new_cat)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 106 48 49\n"
              "deal cat-deck 13 14 15\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_refused (&t, "Bea stampede 106 Ana", ENG_ERR_ILLEGAL, "K9");
  gt_ok (&t, "Bea stampede 106 Bea");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_ATTACK, "the attempt goes on");
  gt_ok (&t, "Bea hit");                   /* red beam at yellow-1: escapes */
  cr_assert_eq (kt_state (&t)->captured_n[0], 0);
  gt_free (&t);
}

Test (katua, k09_stampede_cannot_answer_xray_or_teleporter)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 101 95 37\ndeal Bea hand 106 48 49\n");
  gt_ok (&t, "Ana xray 101 Bea 1");
  gt_refused (&t, "Bea stampede 106 Bea", ENG_ERR_ILLEGAL, "K9");
  gt_ok (&t, "Ana teleport 95 Bea 1 Ana 1");
  gt_refused (&t, "Bea stampede 106 Bea", ENG_ERR_ILLEGAL, "K9");
  gt_free (&t);
}

/* ---- K10 --------------------------------------------------------------- */

Test (katua, k10_xray_and_teleporter_cannot_be_answered_by_default)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 101 95 37\ndeal Bea hand 83 96 38\n");
  gt_ok (&t, "Ana xray 101 Bea 1");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_TURN, "no answer phase");
  gt_refused (&t, "Bea teleport 96 Bea 1 Bea 2", ENG_ERR_ILLEGAL, "K10");
  gt_refused (&t, "Bea neutralise 38", ENG_ERR_ILLEGAL, "K10");
  gt_free (&t);
}

Test (katua, k10_option_is_a_documented_switch)
{
  GameTest t;
  EngStatus st = gt_try_new (&t, TWO "option xray_teleporter_answerable no\n");
  cr_assert_eq (st, ENG_OK);
  gt_free (&t);
  st = gt_try_new (&t, TWO "option xray_teleporter_answerable yes\n");
  cr_assert_eq (st, ENG_OK);
  gt_free (&t);
  st = gt_try_new (&t, TWO "option xray_teleporter_answerable maybe\n");
  cr_assert_neq (st, ENG_OK, "a bad value is refused");
  cr_assert_null (t.game);
  gt_free (&t);
}

Test (katua, k10_option_answerable_rival_teleports_before_the_xray_acts)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "option xray_teleporter_answerable yes\n"
              "deal Ana hand 101 95 37\ndeal Bea hand 106 96 38\n");
  gt_ok (&t, "Ana xray 101 Bea 1");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_ANSWER);
  cr_assert_eq (kt_state (&t)->face_up[1][0], 0, "nothing shown yet");
  gt_refused (&t, "Ana end", ENG_ERR_ILLEGAL, "K10");
  gt_refused (&t, "Bea stampede 106 Bea", ENG_ERR_ILLEGAL, "K9");
  gt_refused (&t, "Bea neutralise 38", ENG_ERR_ILLEGAL, "K10");
  gt_ok (&t, "Bea teleport 96 Bea 1 Bea 3");   /* the fake moves into slot 1 */
  gt_ok (&t, "Bea hit");                       /* the X-Ray acts on slot 1 */
  cr_assert_eq (kt_slot_serial (&t, 1, 0), 29);
  cr_assert_eq (kt_state (&t)->face_up[1][0], 1);
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_TURN);
  /* a held Teleporter acts when its rival lets it */
  gt_ok (&t, "Ana teleport 95 Ana 1 Bea 2");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_ANSWER);
  cr_assert_eq (kt_slot_serial (&t, 0, 0), 1, "not swapped yet");
  gt_ok (&t, "Bea hit");
  cr_assert_eq (kt_slot_serial (&t, 0, 0), 12);
  cr_assert_eq (kt_slot_serial (&t, 1, 1), 1);
  gt_free (&t);
}

/* ---- K11 --------------------------------------------------------------- */

Test (katua, k11_hidden_target_turned_up_escapes_back_to_previous_state)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana attack 35 Bea 2");       /* red at blue-3 */
  gt_ok (&t, "Bea hit");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_SHOWN, "K11"), "turned face up for all");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NEED, "K11"), "and face down again");
  cr_assert_eq (kt_state (&t)->face_up[1][1], 0);
  cr_assert_eq (kt_state (&t)->discard_n, 1, "the UFO is discarded");
  gt_free (&t);
}

Test (katua, k11_face_up_target_that_escapes_stays_face_up)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 101 35 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana xray 101 Bea 2");
  gt_ok (&t, "Ana attack 35 Bea 2");
  gt_ok (&t, "Bea hit");
  cr_assert_eq (kt_state (&t)->face_up[1][1], 1);
  cr_assert_null (gt_event (&t, ENG_EVENT_SHOWN, NULL), "already visible");
  gt_free (&t);
}

Test (katua, k11_match_captured_face_up_and_scored_fakes_subtract)
{
  GameTest t;
  EngStatus st = gt_try_new (&t, TWO "deal Ana slots 1 10 19\ndeal Bea slots 33 12 29\n"
                             "deal Ana hand 47 36 37\ndeal Bea hand 47 48 49\n");
  /* a card dealt twice is a conservation error, not absorbed */
  cr_assert_eq (st, ENG_ERR_CONSERVATION);
  cr_assert_null (t.game);
  gt_free (&t);
  gt_new (&t, TWO "deal Ana slots 1 10 19\ndeal Bea slots 33 12 29\n"
              "deal Ana hand 50 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana attack 50 Bea 1");        /* blue at fake-2 */
  gt_ok (&t, "Bea hit");
  cr_assert_eq (eng_game_score (t.game, 0), -2);
  const EngEvent *e = gt_event (&t, ENG_EVENT_SCORE, "K11");
  cr_assert_not_null (e);
  cr_assert_eq (e->delta, -2);
  cr_assert_eq (kt_state (&t)->slot[1][0], KAT_NONE, "the slot is empty until the end");
  gt_free (&t);
}

/* ---- K12 --------------------------------------------------------------- */

Test (katua, k12_hook_without_rival_captures_own_cat_even_fake)
{
  GameTest t;
  gt_new (&t, TWO "deal Ana slots 29 10 19\ndeal Bea slots 4 12 5\n"
              "deal Ana hand 77 36 37\ndeal Bea hand 47 48 49\n");
  gt_refused (&t, "Ana hook 77 Bea 1", ENG_ERR_ILLEGAL, "K12");
  gt_ok (&t, "Ana hook 77 Ana 1");
  gt_refused (&t, "Ana attack 36 Bea 1", ENG_ERR_ILLEGAL, "K12");
  gt_ok (&t, "Ana flip");
  cr_assert_eq (eng_game_score (t.game, 0), -1);
  gt_free (&t);
}

Test (katua, k12_first_interception_counts_others_return_to_hand)
{
  GameTest t;
  gt_new (&t, THREE "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\ndeal Cai slots 6 7 8\n"
              "deal Ana hand 77 36 37\ndeal Bea hand 38 48 49\ndeal Cai hand 71 50 51\n");
  gt_ok (&t, "Ana hook 77 Ana 1");          /* on red-1 */
  gt_ok (&t, "Bea intercept 38");           /* red: matches */
  gt_ok (&t, "Cai intercept 71");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_RETURN, "K12"));
  cr_assert_eq (kt_state (&t)->hand_n[2], 3, "Cai's card is back in hand");
  gt_refused (&t, "Bea intercept 48", ENG_ERR_ILLEGAL, "K12");
  gt_ok (&t, "Ana flip");
  cr_assert_eq (eng_game_score (t.game, 1), 1, "Bea takes the red cat");
  cr_assert_eq (eng_game_score (t.game, 0), 0);
  gt_free (&t);
}

Test (katua, k12_missing_rival_ufo_discarded_and_hook_player_captures)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 77 36 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana hook 77 Ana 1");          /* red-1 */
  gt_refused (&t, "Ana intercept 36", ENG_ERR_ILLEGAL, "K12");
  gt_ok (&t, "Bea intercept 47");           /* blue: misses */
  gt_ok (&t, "Ana flip");
  cr_assert_eq (eng_game_score (t.game, 0), 1);
  cr_assert_eq (kt_state (&t)->discard_n, 2, "Hook and Bea's UFO discarded");
  gt_free (&t);
}

Test (katua, k12_hook_cannot_be_replicated)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 77 89 37\ndeal Bea hand 47 48 49\n");
  gt_ok (&t, "Ana hook 77 Ana 1");
  gt_refused (&t, "Ana replicate 89 Ana 2", ENG_ERR_ILLEGAL, "K12");
  gt_ok (&t, "Ana flip");
  gt_refused (&t, "Ana replicate 89 Ana 2", ENG_ERR_ILLEGAL, "K13");
  gt_free (&t);
}

/* ---- K13 --------------------------------------------------------------- */

Test (katua, k13_double_attack_same_rival_different_cat)
{
  GameTest t;
  gt_new (&t, THREE "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\ndeal Cai slots 6 7 8\n"
              "deal Ana hand 35 89 90\ndeal Bea hand 38 48 49\ndeal Cai hand 39 40 41\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_refused (&t, "Ana replicate 89 Cai 1", ENG_ERR_ILLEGAL, "K13");
  gt_refused (&t, "Ana replicate 89 Bea 1", ENG_ERR_ILLEGAL, "K13");
  gt_ok (&t, "Ana replicate 89 Bea 3");
  gt_ok (&t, "Bea hit");                    /* red-2 taken */
  gt_refused (&t, "Ana replicate 90 Bea 2", ENG_ERR_ILLEGAL, "K13");
  gt_ok (&t, "Bea hit");                    /* fake taken */
  cr_assert_eq (eng_game_score (t.game, 0), 2 - 1);
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_TURN);
  gt_free (&t);
}

Test (katua, k13_triple_and_defender_replicator_copies_defence)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 89 90\ndeal Bea hand 38 91 49\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 2");
  gt_ok (&t, "Ana replicate 90 Bea 3");
  gt_ok (&t, "Bea neutralise 38");          /* red UFO vs red beam */
  gt_ok (&t, "Bea replicate 91");           /* copies it against the second attempt */
  cr_assert_eq (kt_state (&t)->n_att, 1);
  gt_ok (&t, "Bea hit");                    /* the third hits the fake */
  cr_assert_eq (eng_game_score (t.game, 0), -1);
  gt_free (&t);
}

/* Whether a legal move of the current state is `verb` by `player` aimed
 * at (target, slot). */
static bool
kt_listed (const GameTest *t, unsigned verb, int player, int target, int slot)
{
  EngMove moves[512];
  size_t n = eng_game_legal_moves (t->game, moves, 512);
  for (size_t i = 0; i < n && i < 512; i++)
    if (moves[i].verb == verb && moves[i].player == player && moves[i].target[0] == target
        && moves[i].slot[0] == slot)
      return true;
  return false;
}

/* K13 + K7 (K6 "Replicator with any of those"): against a double attack the
 * defender Shields the first beam and a Replicator copying that Shield
 * turns the second beam at another of the attacker's cats, chosen by the
 * defender; each beam then acts as the defender's (K7). */
Test (katua, k13_k07_replicator_copies_the_shield_against_the_second_attempt)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 89 37\ndeal Bea hand 83 91 49\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 3");
  gt_ok (&t, "Bea shield 83 Ana 1");            /* the first beam at Ana's red-1 */
  cr_assert (kt_listed (&t, KAT_REPLICATE, 1, 0, 2), "the copied Shield is a legal move");
  cr_assert (!kt_listed (&t, KAT_REPLICATE, 1, 0, 0), "slot 1 already has a beam");
  gt_refused (&t, "Bea replicate 91 Bea 2", ENG_ERR_ILLEGAL, "K7");
  gt_refused (&t, "Bea replicate 91 Ana 1", ENG_ERR_ILLEGAL, "K13");
  gt_ok (&t, "Bea replicate 91 Ana 3");         /* the second at Ana's tricolor-1 */
  const KatState *s = kt_state (&t);
  cr_assert_eq (s->n_att, 2);
  for (int i = 0; i < 2; i++)
    {
      cr_assert_eq (s->att[i].player, 0, "beam %d points at Ana", i);
      cr_assert_eq (s->att[i].launcher, 1, "beam %d is Bea's now", i);
      cr_assert_eq (s->att[i].colour, KAT_RED);
    }
  cr_assert_eq (s->att[0].slot, 0);
  cr_assert_eq (s->att[1].slot, 2);
  /* Ana defends each beam in turn: red-1 and tricolor-1 both go to Bea */
  gt_refused (&t, "Bea hit", ENG_ERR_ILLEGAL, "K6");
  gt_ok (&t, "Ana hit");
  cr_assert_eq (kt_state (&t)->captured_n[1], 1);
  gt_ok (&t, "Ana hit");
  cr_assert_eq (kt_state (&t)->captured_n[1], 2);
  cr_assert_eq (eng_game_score (t.game, 1), 2);
  cr_assert_eq (eng_game_score (t.game, 0), 0);
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_TURN);
  cr_assert_eq (kt_slot_serial (&t, 1, 2), 29, "Bea's fake was never hit");
  cr_assert_eq (kt_state (&t)->captured_n[0], 0);
  gt_free (&t);
}

/* What stays refused: a copied Shield with no second attempt at its
 * player, after the attacker has answered the turned beam, or by anyone
 * but the Shield's player; a triple takes two copies, each its own cat. */
Test (katua, k13_k07_copied_shield_needs_an_attempt_still_aimed_at_its_player)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 89 90\ndeal Bea hand 83 91 92\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Bea shield 83 Ana 1");
  gt_refused (&t, "Bea replicate 91 Ana 2", ENG_ERR_ILLEGAL, "K13");
  cr_assert (!kt_listed (&t, KAT_REPLICATE, 1, 0, 1));
  gt_free (&t);

  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 89 90\ndeal Bea hand 83 91 92\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 2");
  gt_ok (&t, "Bea shield 83 Ana 1");
  gt_refused (&t, "Ana replicate 90 Ana 2", ENG_ERR_ILLEGAL, "K13");
  gt_ok (&t, "Ana hit");                        /* the turned beam resolves first */
  gt_refused (&t, "Bea replicate 91 Ana 2", ENG_ERR_ILLEGAL, "K13");
  gt_free (&t);

  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 89 90\ndeal Bea hand 83 91 92\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 2");
  gt_ok (&t, "Ana replicate 90 Bea 3");
  gt_ok (&t, "Bea shield 83 Ana 2");
  gt_ok (&t, "Bea replicate 91 Ana 1");
  gt_refused (&t, "Bea replicate 92 Ana 1", ENG_ERR_ILLEGAL, "K13");
  gt_ok (&t, "Bea replicate 92 Ana 3");
  const KatState *s = kt_state (&t);
  cr_assert_eq (s->n_att, 3);
  for (int i = 0; i < 3; i++)
    cr_assert (s->att[i].player == 0 && s->att[i].launcher == 1, "beam %d turned", i);
  cr_assert_eq (s->att[0].slot + s->att[1].slot + s->att[2].slot, 0 + 1 + 2);
  gt_free (&t);
}

Test (katua, k13_replicated_action_has_its_own_target)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 101 89 37\ndeal Bea hand 38 91 49\n");
  gt_ok (&t, "Ana xray 101 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 2");
  cr_assert_eq (kt_state (&t)->face_up[1][0], 1);
  cr_assert_eq (kt_state (&t)->face_up[1][1], 1);
  gt_free (&t);
}

/* ---- K14 --------------------------------------------------------------- */

Test (katua, k14_xray_shows_a_rivals_hidden_cat_for_good)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 101 102 37\ndeal Bea hand 38 91 49\n");
  gt_refused (&t, "Ana xray 101 Ana 1", ENG_ERR_ILLEGAL, "K14");
  gt_ok (&t, "Ana xray 101 Bea 3");
  const EngEvent *e = gt_event (&t, ENG_EVENT_SHOWN, "K14");
  cr_assert_not_null (e);
  cr_assert_eq (e->value, 29);
  cr_assert_eq (katua_public_slot (eng_game_rules (t.game), kt_state (&t), 1, 2), 29);
  gt_refused (&t, "Ana xray 102 Bea 3", ENG_ERR_ILLEGAL, "K14");
  gt_ok (&t, "Ana end");
  cr_assert_eq (kt_state (&t)->face_up[1][2], 1, "stays face up");
  gt_free (&t);
}

/* ---- K15 --------------------------------------------------------------- */

Test (katua, k15_count_ends_the_game_at_seven)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana captured 6 18 26\ndeal Bea captured 27\n"
              "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n");
  cr_assert_eq (eng_game_score (t.game, 0), 9);
  gt_ok (&t, "Ana pass");
  cr_assert (eng_game_is_over (t.game));
  const EngEvent *e = gt_event (&t, ENG_EVENT_GAME_OVER, "K15");
  cr_assert_not_null (e);
  cr_assert_eq (e->winners, 1u);
  cr_assert_null (gt_event (&t, ENG_EVENT_DEALT, NULL), "no replenish after the count");
  gt_refused (&t, "Bea pass", ENG_ERR_STATE, "K15");
  gt_free (&t);
}

Test (katua, k15_replenish_then_draw_starting_with_active_player)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 71 89 37\ndeal Bea hand 38 48 49\n"
              "deal cat-deck 13 14 15\n");
  gt_ok (&t, "Ana attack 71 Bea 1");
  gt_ok (&t, "Ana replicate 89 Bea 2");
  gt_ok (&t, "Bea hit");
  gt_ok (&t, "Bea hit");
  gt_ok (&t, "Ana end");
  cr_assert_eq (kt_slot_serial (&t, 1, 0), 13, "Bea's empty slots filled from the top");
  cr_assert_eq (kt_slot_serial (&t, 1, 1), 14);
  const EngEvent *e = gt_event (&t, ENG_EVENT_DEALT, "K15");
  cr_assert_not_null (e);
  cr_assert_eq (e->counts[1][0], 2);
  cr_assert_eq (e->counts[0][0], 0);
  cr_assert_eq (e->counts[0][1], 2);
  cr_assert_eq (e->counts[1][1], 0);
  cr_assert_eq (kt_state (&t)->active, 1);
  gt_free (&t);
}

/* ---- K16 --------------------------------------------------------------- */

Test (katua, k16_game_ends_when_a_cat_cannot_be_replenished)
{
  /* deal every other cat to capture areas so the deck is empty */
  GameTest t;
  gt_new (&t, TWO "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\n"
              "option winning_score 100\n"
              "deal Ana captured 2 3 5 6 7\n"
              "deal Bea captured 8 9 11 13 14 15 16 17 18 20 21 22 23 24 25 26 27 28 30 31 "
              "32 33 34\n"
              "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n");
  cr_assert_eq (kt_state (&t)->cat_deck_n, 0);
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Bea hit");
  gt_ok (&t, "Ana end");
  const EngEvent *e = gt_event (&t, ENG_EVENT_GAME_OVER, "K16");
  cr_assert_not_null (e);
  cr_assert (eng_game_is_over (t.game));
  gt_free (&t);
}

Test (katua, k16_stampede_without_cats_ends_the_game)
{
  GameTest t;
  gt_new (&t, TWO "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\n"
              "deal Bea captured 2 3 5 7 8 9 11 13 14 15 16 17 18 20 21 22 23 24 25 26 27 "
              "28 30 31 32 33 34\noption winning_score 100\n"
              "deal Ana hand 106 36 37\ndeal Bea hand 38 48 49\n");
  cr_assert_eq (kt_state (&t)->cat_deck_n, 1);
  gt_ok (&t, "Ana stampede 106 Bea");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_GAME_OVER, "K16"));
  EngVerdict v;
  cr_assert_eq (eng_game_check_conservation (t.game, &v), ENG_OK, "%s", v.reason);
  gt_free (&t);
}

/* ---- K17 --------------------------------------------------------------- */

Test (katua, k17_tie_broken_by_highest_authentic_cats)
{
  GameTest t;
  gt_new (&t, TWO SLOTS_LOW "deal Ana captured 6 12 18 33\ndeal Bea captured 26 27 7 8 9\n"
              "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n");
  cr_assert_eq (eng_game_score (t.game, 0), 7);
  cr_assert_eq (eng_game_score (t.game, 1), 9);
  gt_free (&t);
  /* 7 each: Ana 3,3,3 (+fake -2) against Bea 3,3,1 */
  gt_new (&t, TWO SLOTS_LOW "deal Ana captured 6 12 18 33\ndeal Bea captured 26 27 7\n"
              "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n");
  gt_ok (&t, "Ana pass");
  const char *tb = NULL;
  cr_assert_eq (eng_game_winners (t.game, &tb), 1u);
  cr_assert_str_eq (tb, "authentic-ranks");
  gt_free (&t);
}

Test (katua, k17_then_fewest_fakes_then_shared)
{
  GameTest t;
  const char *tb = NULL;
  /* the same cats on both sides: shared victory */
  gt_new (&t, TWO SLOTS_LOW "deal Ana captured 6 18 16 13 30\n"
              "deal Bea captured 26 27 23 20 31\n"
              "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n");
  gt_ok (&t, "Ana pass");
  cr_assert_eq (eng_game_winners (t.game, &tb), 3u, "same ranks, same fakes: shared");
  cr_assert_str_eq (tb, "shared");
  gt_free (&t);
  /* equal scores and ranks: one fake-2 (Ana) against two fake-1 (Bea) */
  gt_new (&t, TWO SLOTS_LOW "deal Ana captured 6 18 16 33\n"      /* 3+3+2-2 = 6 */
              "deal Bea captured 26 27 23 30 31\n"               /* 3+3+2-1-1 = 6 */
              "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n"
              "option winning_score 6\n");
  gt_ok (&t, "Ana pass");
  cr_assert_eq (eng_game_winners (t.game, &tb), 1u, "Ana has fewer fakes");
  cr_assert_str_eq (tb, "fewest-fakes");
  gt_free (&t);
}

/* ---- K18 --------------------------------------------------------------- */

static void
k18_header (char *buf, size_t size, const char *option)
{
  /* every UFO but the 6 in hands and 1 in the deck is in the discard pile */
  size_t n = (size_t) snprintf (buf, size, TWO SLOTS2 "%s"
                                "deal Ana hand 35 36 37\ndeal Bea hand 38 39 40\n"
                                "deal ufo-deck 41\ndeal discard", option);
  for (int s = 42; s <= 108; s++)
    n += (size_t) snprintf (buf + n, size - n, " %d", s);
  snprintf (buf + n, size - n, "\n");
}

Test (katua, k18_empty_ufo_deck_reshuffles_discard_pile_and_says_so)
{
  char hdr[1024];
  k18_header (hdr, sizeof hdr, "");
  GameTest t;
  gt_new (&t, hdr);
  cr_assert_eq (kt_state (&t)->ufo_deck_n, 1);
  gt_ok (&t, "Ana discard 35 36");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_RESHUFFLE, "K18"));
  cr_assert_eq (kt_state (&t)->hand_n[0], 3);
  cr_assert_eq (kt_state (&t)->discard_n, 0);
  cr_assert_eq (kt_state (&t)->ufo_deck_n, 67 + 2 - 1);
  gt_free (&t);
}

Test (katua, k18_options_no_draw_and_end)
{
  char hdr[1024];
  k18_header (hdr, sizeof hdr, "option ufo_deck_out no-draw\n");
  GameTest t;
  gt_new (&t, hdr);
  gt_ok (&t, "Ana discard 35 36");
  cr_assert_eq (kt_state (&t)->hand_n[0], 2, "one drawn, then no more");
  cr_assert_null (gt_event (&t, ENG_EVENT_RESHUFFLE, NULL));
  cr_assert_not (eng_game_is_over (t.game));
  gt_free (&t);
  k18_header (hdr, sizeof hdr, "option ufo_deck_out end\n");
  gt_new (&t, hdr);
  gt_ok (&t, "Ana discard 35 36");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_GAME_OVER, "K18"));
  gt_free (&t);
}

/* ---- K19 --------------------------------------------------------------- */

Test (katua, k19_quick_start_each_player_shows_one_cat)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "option quick_start yes\n");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_QUICK_START);
  gt_refused (&t, "Ana pass", ENG_ERR_ILLEGAL, "K19");
  gt_refused (&t, "Ana reveal Bea 1", ENG_ERR_ILLEGAL, "K19");
  gt_ok (&t, "Bea reveal Bea 2");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_SHOWN, "K19"));
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NEED, "K19"), "turned face down again");
  gt_refused (&t, "Bea reveal Bea 1", ENG_ERR_ILLEGAL, "K19");
  gt_ok (&t, "Ana reveal Ana 3");
  cr_assert_eq (kt_state (&t)->phase, KAT_PHASE_TURN);
  cr_assert_eq (kt_state (&t)->active, 0);
  cr_assert_eq (kt_state (&t)->face_up[0][2], 0);
  gt_free (&t);
}

Test (katua, k19_quick_start_live_table_needs_the_face)
{
  GameTest t;
  gt_new (&t, TWO "option quick_start yes\n");
  gt_refused (&t, "Ana reveal Ana 1", ENG_ERR_ILLEGAL, "K19");
  gt_ok (&t, "Ana reveal Ana 1 show 20");
  gt_refused (&t, "Bea reveal Bea 1 show 20", ENG_ERR_CONSERVATION, "K19");
  gt_free (&t);
}

Test (katua, k19_total_memory_is_a_switch)
{
  GameTest t;
  gt_new (&t, TWO "option total_memory yes\n");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_NOTE, "K19"));
  gt_free (&t);
  gt_new (&t, TWO "option total_memory no\n");
  cr_assert_null (gt_event (&t, ENG_EVENT_NOTE, "K19"));
  gt_free (&t);
}

/* ---- K20 --------------------------------------------------------------- */

Test (katua, k20_hidden_cards_never_shown_and_not_needed)
{
  GameTest t;
  gt_new (&t, TWO);   /* a live table: the referee knows no hidden card */
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_ok (&t, "Bea neutralise 36");           /* red vs red: no identity needed */
  cr_assert_null (gt_event (&t, ENG_EVENT_SHOWN, NULL));
  gt_ok (&t, "Ana end");
  const EngEvent *e = gt_event (&t, ENG_EVENT_DEALT, NULL);
  cr_assert_not_null (e);
  cr_assert_null (strstr (e->text, "Cat,"), "refills name counts, never faces");
  for (int p = 0; p < 2; p++)
    for (int s = 0; s < 3; s++)
      cr_assert_eq (katua_public_slot (eng_game_rules (t.game), kt_state (&t), p, s), 0);
  gt_free (&t);
}

Test (katua, k20_observation_contradicting_places_is_reported)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\n");
  gt_refused (&t, "Ana attack 47 Bea 1", ENG_ERR_CONSERVATION, "K20");
  cr_assert_not_null (gt_event (&t, ENG_EVENT_CONSERVATION, "K20"));
  gt_free (&t);
  gt_new (&t, TWO "deal Ana slots 1 ? ?\n");
  gt_ok (&t, "Ana attack 35 Bea 1");
  gt_refused (&t, "Bea hit show 1", ENG_ERR_CONSERVATION, "K11");  /* 1 is Ana's */
  gt_ok (&t, "Bea hit show 7");
  gt_free (&t);
}

Test (katua, k20_refusals_never_name_a_hidden_card)
{
  GameTest t;
  gt_new (&t, TWO);
  gt_ok (&t, "Ana attack 71 Bea 2");
  gt_ok (&t, "Bea neutralise 47 show 12");   /* shown, then face down again */
  gt_ok (&t, "Ana end");
  gt_ok (&t, "Bea attack 48 Ana 1");
  gt_ok (&t, "Ana shield 83 Bea 2");         /* the beam turns to that hidden cat */
  gt_refused (&t, "Bea hit show 10", ENG_ERR_CONSERVATION, "K11");
  cr_assert_null (strstr (t.why.reason, "12"), "the remembered face stays unsaid: %s",
                  t.why.reason);
  gt_ok (&t, "Bea hit show 12");
  gt_free (&t);
}

/* ---- K21 --------------------------------------------------------------- */

Test (katua, k21_clockwise_turns_from_chosen_first_player)
{
  GameTest t;
  gt_new (&t, "game katua\nplayer Ana\nplayer Bea\nplayer Cai\nfirst Bea\n");
  cr_assert_eq (kt_state (&t)->active, 1);
  gt_refused (&t, "Ana pass", ENG_ERR_ILLEGAL, "K21");
  gt_ok (&t, "Bea pass");
  cr_assert_eq (kt_state (&t)->active, 2);
  gt_ok (&t, "Cai pass");
  cr_assert_eq (kt_state (&t)->active, 0);
  gt_free (&t);
}

Test (katua, k21_last_winner_starts_later_games)
{
  GameTest t;
  gt_new (&t, "game katua\nplayer Ana\nplayer Bea\nplayer Cai\nlast-winner Cai\n");
  cr_assert_eq (kt_state (&t)->active, 2);
  gt_free (&t);
  EngStatus st = gt_try_new (&t, "game katua\nplayer Ana\nplayer Bea\nfirst Ana\n"
                             "last-winner Bea\n");
  cr_assert_neq (st, ENG_OK);
  cr_assert_str_eq (t.why.rule, "K21");
  gt_free (&t);
}

/* ---- undo -------------------------------------------------------------- */

Test (katua, undo_restores_any_depth)
{
  GameTest t;
  gt_new (&t, TWO SLOTS2 "deal Ana hand 35 36 37\ndeal Bea hand 38 48 49\n");
  KatState s0 = *kt_state (&t);
  gt_ok (&t, "Ana attack 35 Bea 1");
  KatState s1 = *kt_state (&t);
  gt_ok (&t, "Bea hit");
  gt_ok (&t, "Ana end");
  cr_assert_eq (eng_game_history_depth (t.game), 3);
  cr_assert_eq (eng_game_undo (t.game), ENG_OK);
  cr_assert_eq (eng_game_undo (t.game), ENG_OK);
  cr_assert_eq (memcmp (&s1, kt_state (&t), sizeof s1), 0);
  cr_assert_eq (eng_game_undo (t.game), ENG_OK);
  cr_assert_eq (memcmp (&s0, kt_state (&t), sizeof s0), 0);
  cr_assert_eq (eng_game_undo (t.game), ENG_ERR_STATE);
  gt_free (&t);
}
