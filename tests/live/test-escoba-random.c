/* test-escoba-random.c: random legal Escoba games played at a simulated
 * table and refereed by the live interpreter (as test-catchy-random does
 * for Catchy!), killed after a random look and resumed.
 *
 * A game dealt from a seed (the rules know every card) is played with
 * random legal moves; each move is written as what a table does: the
 * dealer's four cards laid face up; a card laid on a free place of the
 * table, then the cards it takes lifted with it (in one look or two, the
 * card laid last), an escoba's card put face up on the player's pile, a
 * card that takes nothing left by the next card or by End of turn (a card
 * or a key); at a round's end the last table cards taken, the piles
 * gathered and the next deal laid.  The referee, which knows no card in a
 * hand or the deck, must apply exactly the seeded game's moves and
 * complain about nothing.
 *
 * ESCOBA_SCRIPT_OUT=DIR keeps each game's script.  ESCOBA_FILM=2p:SEED
 * (4x:SEED: four in pairs) writes one game played greedily (the biggest
 * capture always taken) to ESCOBA_FILM_OUT.script and .rec, to film it. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escoba.h"
#include "eng-live-script.h"
#include "eng-record.h"
#include "live-fixture.h"

#define PLACES 12

typedef struct {
  GString *text;
  const EscRules *r;
  const char *const *names;
  uint16_t place[PLACES];          /* the face on each table place, 0 none */
  uint16_t extra[ESC_CARDS];       /* faces past the twelfth, on place 11 */
  unsigned n_extra;
  uint16_t pile_face[ESC_CARDS];   /* faces up on piles (escobas) */
  unsigned n_pile_face;
  uint16_t pile_back[ESC_PLAYERS]; /* the card lying as a back on this seat's pile, 0 none */
  EngRng *policy;
} Table;

static void
lay (Table *t, uint16_t serial)
{
  for (unsigned i = 0; i < PLACES; i++)
    if (t->place[i] == 0)
      {
        t->place[i] = serial;
        g_string_append_printf (t->text, "put %u face centre %u\n", serial, i);
        return;
      }
  t->extra[t->n_extra++] = serial;
  g_string_append_printf (t->text, "put %u face centre %u\n", serial, PLACES - 1);
}

static void
lift (Table *t, uint16_t serial)
{
  for (unsigned i = 0; i < PLACES; i++)
    if (t->place[i] == serial)
      t->place[i] = 0;
  for (unsigned i = 0; i < t->n_extra; i++)
    if (t->extra[i] == serial)
      t->extra[i] = t->extra[--t->n_extra];
  g_string_append_printf (t->text, "remove %u\n", serial);
}

/* The player's pile shows a back once they have taken cards. */
static void
pile_back (Table *t, unsigned player, uint16_t serial)
{
  if (t->pile_back[player] != 0)
    return;
  t->pile_back[player] = serial;
  g_string_append_printf (t->text, "put %u back capture %s\n", serial, t->names[player]);
}

/* The round is over: the last cards taken, the piles gathered. */
static void
gather (Table *t, unsigned n_players)
{
  for (unsigned i = 0; i < PLACES; i++)
    if (t->place[i] != 0)
      lift (t, t->place[i]);
  while (t->n_extra > 0)
    lift (t, t->extra[0]);
  g_string_append (t->text, "snap\n");
  for (unsigned i = 0; i < t->n_pile_face; i++)
    g_string_append_printf (t->text, "remove %u\n", t->pile_face[i]);
  t->n_pile_face = 0;
  for (unsigned p = 0; p < n_players; p++)
    if (t->pile_back[p] != 0)
      {
        g_string_append_printf (t->text, "remove %u\n", t->pile_back[p]);
        t->pile_back[p] = 0;
      }
}

static void
write_deal (Table *t, const EngMove *m, const EscState *a, const char *expects)
{
  lay (t, m->card);
  for (unsigned i = 0; i < 3; i++)
    lay (t, m->cards[i]);
  g_string_append (t->text, "snap\n");
  g_string_append (t->text, expects);
  if (a->table_n == 0)
    {
      /* the dealer's escoba: the four into the pile, one face up */
      lift (t, m->card);
      for (unsigned i = 0; i < 3; i++)
        lift (t, m->cards[i]);
      g_string_append (t->text, "snap\n");
    }
}

static void
write_play (Table *t, const EngMove *m, const EscState *b, const EscState *a, bool last)
{
  bool could = escoba_can_capture (t->r, b, eng_card_table_index (&t->r->table, m->card));
  bool escoba = m->n_cards > 0 && b->table_n == m->n_cards;
  /* a quick hand: the card laid and the cards it takes in one look (the
   * card staying on the table, or an escoba's going straight across the
   * pile); otherwise laid first, then lifted in one look or two */
  unsigned hand = m->n_cards > 0 ? eng_rng_below (t->policy, escoba ? 3 : 2) : 0;
  if (hand != 2)
    lay (t, m->card);
  if (hand == 0)
    g_string_append (t->text, "snap\n");
  if (m->n_cards == 0)
    {
      /* it takes nothing: End of turn, or the next card says so */
      if (could && (last || eng_rng_below (t->policy, 2)))
        g_string_append (t->text, eng_rng_below (t->policy, 2) ? "command end-turn\n"
                                                                : "key end-turn\n");
      return;
    }
  unsigned first = hand == 0 && m->n_cards > 1 && eng_rng_below (t->policy, 2) ? 1 : 0;
  for (unsigned i = 0; i < first; i++)
    lift (t, m->cards[i]);
  if (first > 0)
    g_string_append (t->text, "snap\n");   /* the laid card goes last */
  for (unsigned i = first; i < m->n_cards; i++)
    lift (t, m->cards[i]);
  if (hand == 1)
    g_string_append (t->text, "snap\n");   /* the laid card lifted in the next look */
  if (hand != 2)
    lift (t, m->card);
  if (escoba)
    {
      g_string_append_printf (t->text, "put %u face capture %s\n", m->card, t->names[m->player]);
      t->pile_face[t->n_pile_face++] = m->card;
    }
  g_string_append (t->text, "snap\n");
  (void) a;
}

/* The greedy policy of a film: the capture taking the most cards, else a
 * random card laid. */
static void
greedy (const EngGame *g, EngRng *policy, EngMove *out)
{
  static EngMove moves[2048];
  size_t n = eng_game_legal_moves (g, moves, 2048);
  size_t best = n;
  for (size_t i = 0; i < n && i < 2048; i++)
    if (moves[i].n_cards > 0 && (best == n || moves[i].n_cards > moves[best].n_cards))
      best = i;
  if (best == n)
    best = eng_rng_below (policy, (uint32_t) (n < 2048 ? n : 2048));
  *out = moves[best];
}

/* One seeded game as a script; returns the rules' moves. */
static EngRecord *
play_game (const EngCardSet *set, unsigned n, bool pairs, uint64_t seed, bool film,
           GString *text)
{
  static const char *const names[] = { "Ana", "Bea", "Cai", "Dani" };
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = n;
  for (unsigned p = 0; p < n; p++)
    snprintf (su.names[p], sizeof su.names[p], "%s", names[p]);
  su.has_seed = true;
  su.seed = seed;
  EngOptions opts = { 0 };
  if (pairs)
    eng_options_set (&opts, "pairs", "yes");
  EngRng rng, policy;
  eng_rng_seed (&rng, seed);
  eng_rng_seed (&policy, seed ^ 0x5eedu);
  EngGame *g = NULL;
  EngVerdict why;
  cr_assert_eq (eng_game_new (&escoba_game_class, set, &opts, &su, &rng, NULL, &g, &why), ENG_OK,
                "%s", why.reason);
  const EscState *s = eng_game_state (g);
  EngSetup live = su;   /* the record of a live table: no seed */
  live.has_seed = false;
  live.seed = 0;
  EngRecord *rec = eng_record_new (&escoba_game_class, &live, &opts);
  Table t = { .text = text, .r = eng_game_rules (g), .names = names, .policy = &policy };
  g_string_append (text, "game escoba\nplayers");
  for (unsigned p = 0; p < n; p++)
    g_string_append_printf (text, " %s", names[p]);
  g_string_append (text, pairs ? "\noption pairs yes\n" : "\n");
  for (int moves = 0; !eng_game_is_over (g); moves++)
    {
      cr_assert_lt (moves, 5000, "seed %llu: the game does not end", (unsigned long long) seed);
      EngMove m;
      if (film)
        greedy (g, &policy, &m);
      else
        cr_assert (eng_game_class_random_move (&escoba_game_class, eng_game_rules (g), s, &policy,
                                               &m));
      EscState before = *s;
      EngEvent storage[64];
      EngEvents ev;
      eng_events_init (&ev, storage, 64);
      cr_assert_eq (eng_game_apply (g, &m, film ? &ev : NULL, &why), ENG_OK, "%s", why.reason);
      bool round_over = s->round != before.round || eng_game_is_over (g);
      /* a film says what the referee must say: the dealer's escobas and
       * every round's count, after the look that makes the move */
      GString *expects = g_string_new (NULL);
      for (size_t i = 0; film && i < ev.n; i++)
        if (storage[i].kind == ENG_EVENT_SCORE
            || (storage[i].kind == ENG_EVENT_TAKEN && strcmp (storage[i].rule, "S2") == 0))
          g_string_append_printf (expects, "expect say %s %s\n",
                                  eng_event_kind_to_string (storage[i].kind), storage[i].text);
      if (m.verb == ESC_DEAL)
        write_deal (&t, &m, s, expects->str);
      else
        {
          write_play (&t, &m, &before, s, round_over);
          g_string_append (text, expects->str);
        }
      g_string_free (expects, TRUE);
      if (m.verb == ESC_DEAL && s->table_n == 0)
        pile_back (&t, before.dealer, m.card);
      else if (m.verb == ESC_PLAY && m.n_cards > 0)
        pile_back (&t, (unsigned) m.player, m.cards[0]);
      eng_record_append (rec, &m, 0);
      if (film && round_over && getenv ("ESCOBA_FILM_ROUNDS") != NULL
          && before.round >= (unsigned) atoi (getenv ("ESCOBA_FILM_ROUNDS")))
        break;
      if (round_over && !eng_game_is_over (g))
        gather (&t, n);
    }
  if (film && eng_game_is_over (g))
    {
      g_string_append (text, "expect over\nexpect winner");
      for (unsigned p = 0; p < n; p++)
        if ((eng_game_winners (g, NULL) >> p) & 1)
          g_string_append_printf (text, " %s", names[p]);
      g_string_append (text, "\n");
    }
  eng_game_free (g);
  return rec;
}

static void
referee_games (unsigned n, bool pairs, unsigned games)
{
  const EngCardSet *set = live_fixture_set_of ("escoba");
  size_t moves = 0, looks = 0;
  for (unsigned i = 1; i <= games; i++)
    {
      uint64_t seed = 7777u * i + n + (pairs ? 100u : 0u);
      GString *text = g_string_new (NULL);
      EngRecord *want = play_game (set, n, pairs, seed, false, text);
      if (getenv ("ESCOBA_SCRIPT_OUT") != NULL)
        {
          char out[1024];
          snprintf (out, sizeof out, "%s/escoba-random-%u%s-%llu.script",
                    getenv ("ESCOBA_SCRIPT_OUT"), n, pairs ? "pairs" : "p",
                    (unsigned long long) seed);
          g_file_set_contents (out, text->str, (gssize) text->len, NULL);
        }
      looks += live_fixture_referee (text->str, text->len, set, want, (unsigned long long) seed);
      moves += want->n_moves;
      eng_record_free (want);
      g_string_free (text, TRUE);
    }
  cr_log_info ("escoba random %u%s: %u games, %zu moves, %zu looks", n, pairs ? " in pairs" : "",
               games, moves, looks);
  cr_assert_gt (moves, (size_t) games * 37);
}

TestSuite (escoba_random, .init = live_fixture_load_set, .fini = live_fixture_free_set,
           .timeout = 600);

static unsigned
games_per_count (void)
{
  return getenv ("TABLERO_SANITIZED") ? 3 : 12;
}

Test (escoba_random, two_players) { referee_games (2, false, games_per_count ()); }
Test (escoba_random, three_players) { referee_games (3, false, games_per_count ()); }
Test (escoba_random, four_players) { referee_games (4, false, games_per_count ()); }
Test (escoba_random, four_in_pairs) { referee_games (4, true, games_per_count ()); }

/* ESCOBA_FILM=2p:SEED ESCOBA_FILM_OUT=PATH: one greedy game to film. */
Test (escoba_random, film)
{
  const char *spec = getenv ("ESCOBA_FILM"), *out = getenv ("ESCOBA_FILM_OUT");
  if (spec == NULL || out == NULL)
    return;
  unsigned n = 0;
  unsigned long long seed = 0;
  char p = 0;
  cr_assert (sscanf (spec, "%u%c:%llu", &n, &p, &seed) == 3, "ESCOBA_FILM=2p:SEED or 4x:SEED");
  GString *text = g_string_new (NULL);
  EngRecord *rec = play_game (live_fixture_set_of ("escoba"), n, p == 'x', seed, true, text);
  char *path = g_strdup_printf ("%s.script", out);
  g_file_set_contents (path, text->str, (gssize) text->len, NULL);
  g_free (path);
  char *rtext = eng_record_write (rec);
  path = g_strdup_printf ("%s.rec", out);
  g_file_set_contents (path, rtext, -1, NULL);
  g_free (path);
  free (rtext);
  eng_record_free (rec);
  g_string_free (text, TRUE);
}
