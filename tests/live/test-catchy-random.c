/* test-catchy-random.c: random legal Catchy! games played at a simulated
 * table and refereed by the live interpreter, as test-live-random does for
 * Katua.
 *
 * A game dealt from a seed (the rules know every card) is played with
 * random legal moves; each move is written as what a table does: the swap
 * as a path card lifted and the start card put in its place, then the
 * swapper named with command cards; a card laid face up in its player's
 * play area; after a trick both cards to the played pile, the mood card
 * turned over and moved (in one look or two); a new hand's table laid
 * afresh.  The script goes to the referee, which knows no hidden card: it
 * must apply exactly the seeded game's moves, complain about nothing, and
 * give the same record when killed after a random look and resumed. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catchy.h"
#include "eng-live-script.h"
#include "eng-record.h"
#include "live-fixture.h"

typedef struct {
  GString *text;
  const CatchyRules *r;
  uint16_t on_table[64];         /* serials lying on the table */
  size_t n_on_table;
  bool mood_red_up;
} Table;

static void
table_put (Table *t, uint16_t serial)
{
  t->on_table[t->n_on_table++] = serial;
}

static uint16_t
serial_of (const CatchyRules *r, uint8_t card)
{
  return r->cards[card].serial;
}

/* A hand's table: path cards face down on 1, 3, 5, the cat red on 3. */
static void
lay_hand (Table *t, const CatchyState *s)
{
  for (int i = 0; i < CATCHY_PATH_CARDS; i++)
    {
      uint16_t serial = serial_of (t->r, s->path[i]);
      g_string_append_printf (t->text, "put %u back centre %d\n", serial, 2 * i + 1);
      table_put (t, serial);
    }
  g_string_append_printf (t->text, "put %u face centre %d\n", serial_of (t->r, t->r->mood[0]),
                          CATCHY_CENTRE);
  table_put (t, serial_of (t->r, t->r->mood[0]));
  t->mood_red_up = true;
  g_string_append (t->text, "snap\n");
}

static void
clear_table (Table *t)
{
  for (size_t i = 0; i < t->n_on_table; i++)
    g_string_append_printf (t->text, "remove %u\n", t->on_table[i]);
  t->n_on_table = 0;
}

/* The swap: the path card lifted, then the start card put in its place;
 * done in one look the camera cannot tell which path card it was, and the
 * referee names none (*seen false). */
static void
write_swap (Table *t, const CatchyState *b, const EngMove *m, const char *const *names,
            EngRng *policy, bool *seen)
{
  int pos = m->target[0] == 0 ? m->slot[0] : CATCHY_PATH_CARDS - 1 - m->slot[0];
  uint16_t taken = serial_of (t->r, b->path[pos]);
  uint16_t start = serial_of (t->r, t->r->start);
  g_string_append_printf (t->text, "remove %u\n", taken);
  *seen = eng_rng_below (policy, 2);
  if (*seen)
    g_string_append (t->text, "snap\n");   /* lifted, then put down in a later look */
  g_string_append_printf (t->text, "put %u back centre %d\nsnap\n", start, 2 * pos + 1);
  for (size_t i = 0; i < t->n_on_table; i++)
    if (t->on_table[i] == taken)
      t->on_table[i] = start;
  /* the question names Ana first: cancel moves to Bea */
  if (m->player == 1)
    g_string_append (t->text, "command cancel\n");
  g_string_append (t->text, eng_rng_below (policy, 2) ? "command confirm\n" : "key confirm\n");
  (void) names;
}

static void
write_play (Table *t, const CatchyState *b, const CatchyState *a, const EngMove *m,
            const char *const *names, EngRng *policy)
{
  g_string_append_printf (t->text, "put %u face play %s\nsnap\n", m->card, names[m->player]);
  table_put (t, m->card);
  if (b->phase != CATCHY_PHASE_FOLLOW)
    return;   /* a lead: the trick waits for its answer */
  if (a->phase == CATCHY_PHASE_OVER)
    return;
  if (a->hand_no != b->hand_no)
    {
      clear_table (t);
      lay_hand (t, a);
      return;
    }
  /* the trick tidied: both cards to the pile, the cat turned and moved */
  uint16_t mood = serial_of (t->r, t->r->mood[0]);
  uint16_t lead = serial_of (t->r, b->lead);
  bool split = eng_rng_below (policy, 2);
  g_string_append_printf (t->text, "move %u discard\nmove %u discard\n", lead, m->card);
  if (split)
    g_string_append (t->text, "snap\n");
  if (a->mood != b->mood)
    {
      g_string_append_printf (t->text, "flip %u\n", mood);
      t->mood_red_up = !t->mood_red_up;
    }
  if (a->cat != b->cat)
    g_string_append_printf (t->text, "move %u centre %d\n", mood, a->cat);
  g_string_append (t->text, "snap\n");
}

/* One seeded game played out as a script; returns the moves applied. */
static EngRecord *
play_game (const CatchyRules *r, const EngCardSet *set, uint64_t seed, GString *text)
{
  static const char *const names[] = { "Ana", "Bea" };
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 2;
  for (int p = 0; p < 2; p++)
    snprintf (su.names[p], sizeof su.names[p], "%s", names[p]);
  su.has_seed = true;
  su.seed = seed;
  EngRng rng, policy;
  eng_rng_seed (&rng, seed);
  eng_rng_seed (&policy, seed ^ 0x5eedu);
  CatchyState s;
  EngVerdict why;
  cr_assert_eq (catchy_game_class.setup (r, &su, &rng, &s, NULL, &why), ENG_OK, "%s",
                why.reason);
  EngRecord *rec = eng_record_new (&catchy_game_class, &su, NULL);
  Table t = { .text = text, .r = r };
  g_string_append (text, "game catchy\nplayers Ana Bea\n");
  lay_hand (&t, &s);
  for (int n = 0; s.phase != CATCHY_PHASE_OVER; n++)
    {
      cr_assert_lt (n, 2000, "seed %llu: the game does not end", (unsigned long long) seed);
      EngMove m;
      cr_assert (eng_game_class_random_move (&catchy_game_class, r, &s, &policy, &m));
      /* a path card is named from Ana's arms, as the referee names it */
      if (m.verb == CATCHY_SWAP && m.target[0] == 1)
        {
          m.target[0] = 0;
          m.slot[0] = (int8_t) (CATCHY_PATH_CARDS - 1 - m.slot[0]);
        }
      CatchyState before = s;
      cr_assert_eq (eng_game_class_apply (&catchy_game_class, r, NULL, &s, &m, NULL, &why),
                                          ENG_OK, "%s", why.reason);
      if (m.verb == CATCHY_SWAP)
        {
          bool seen;
          write_swap (&t, &before, &m, names, &policy, &seen);
          if (!seen)
            m.target[0] = m.slot[0] = -1;
        }
      else
        write_play (&t, &before, &s, &m, names, &policy);
      eng_record_append (rec, &m, 0);
    }
  (void) set;
  return rec;
}

Test (catchy_random, random_games_refereed_exactly_and_resumed_after_a_kill, .timeout = 300)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir);
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/catchy.set", dir);
  EngCardSet *set = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  EngOptions opts = { 0 };
  void *rules = NULL;
  cr_assert_eq (catchy_game_class.rules_new (set, &opts, &rules, &err), ENG_OK, "%s", err.reason);
  size_t moves = 0, looks = 0, kills = 0;
  for (uint64_t seed = 1; seed <= 200; seed++)
    {
      GString *text = g_string_new (NULL);
      EngRecord *want = play_game (rules, set, seed * 7777u, text);
      /* CATCHY_SCRIPT_OUT=DIR keeps each game's script (to film one) */
      if (getenv ("CATCHY_SCRIPT_OUT") != NULL)
        {
          char out[1024];
          snprintf (out, sizeof out, "%s/catchy-random-%llu.script", getenv ("CATCHY_SCRIPT_OUT"),
                    (unsigned long long) seed);
          g_file_set_contents (out, text->str, (gssize) text->len, NULL);
        }
      EngLiveScript *sc = NULL;
      cr_assert_eq (eng_live_script_parse (text->str, text->len, "random", &sc, &err), ENG_OK,
                    "seed %llu: line %u: %s\n%s", (unsigned long long) seed, err.line, err.reason,
                    text->str);
      char complaint[256] = "";
      EngLiveScriptResult res;
      cr_assert_eq (eng_live_script_run (sc, set, NULL, live_fixture_complaint_sink, complaint, &res, &err),
                    ENG_OK, "%s", err.reason);
      EngRecord *got = NULL;
      cr_assert_eq (eng_record_parse (res.record, strlen (res.record), "referee", &got, &err),
                    ENG_OK, "%s", err.reason);
      char why[512];
      cr_assert (live_fixture_same_moves (want, got, why, sizeof why), "seed %llu: %s\n%s",
                 (unsigned long long) seed, why, text->str);
      cr_assert_str_empty (complaint, "seed %llu: %s\n%s", (unsigned long long) seed, complaint,
                           text->str);
      cr_assert (res.over, "seed %llu: the referee's game is not over", (unsigned long long) seed);
      /* killed after a random look, resumed from the journal */
      size_t k = 1 + (size_t) (seed * 2654435761u % (res.snapshots - 1));
      EngLiveScriptResult killed;
      cr_assert_eq (eng_live_script_run_killed (sc, set, NULL, k, NULL, NULL, &killed, &err),
                    ENG_OK, "%s", err.reason);
      cr_assert_str_eq (killed.record, res.record, "seed %llu: killed after look %zu",
                        (unsigned long long) seed, k);
      moves += want->n_moves;
      looks += res.snapshots;
      kills++;
      free (killed.record);
      free (res.record);
      eng_record_free (got);
      eng_record_free (want);
      eng_live_script_free (sc);
      g_string_free (text, TRUE);
    }
  cr_log_info ("catchy random: 200 games, %zu moves, %zu looks, %zu kills", moves, looks, kills);
  cr_assert_gt (moves, 200 * 20);
  catchy_game_class.rules_free (rules);
  eng_card_set_free (set);
}
