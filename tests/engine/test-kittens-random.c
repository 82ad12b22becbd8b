/* Property test: seeded random legal Exploding Kittens games of 2 to 5
 * players.  After every move: card conservation; every game ends with one
 * player left.  Every listed legal move of some games is checked legal;
 * some games run on the EngGame object and undo moves, which must restore
 * the identical state; some are written as records, read back and
 * replayed to the identical state; some run with events, whose texts must
 * never name a card lying face down; some run beside a live-table shadow
 * that knows no hidden card and is told only what the table shows, and
 * must referee the same game to the same public state.  Arbitrary moves
 * (any verb, player and serials) on seeded and live tables are refused with
 * nothing changed, or keep every card accounted for.
 *
 * 10,000 games by default; TABLERO_SANITIZED=1 (the ASan CI run) plays 2,000,
 * TABLERO_ENGINE_GAMES=N overrides both. */
#include "kittens-test.h"

#include "eng-replay.h"

static long
games_to_play (void)
{
  const char *n = getenv ("TABLERO_ENGINE_GAMES");
  if (n != NULL && *n)
    return strtol (n, NULL, 10);
  const char *san = getenv ("TABLERO_SANITIZED");
  return (san != NULL && *san && strcmp (san, "0") != 0) ? 2000 : 10000;
}

/* The move as a live table reports it: a card passed face down under a
 * Favor is '?', a drawn card is shown only when it is a kitten. */
static EngMove
as_seen (const KitRules *r, const KitState *s, const EngMove *m)
{
  EngMove seen = *m;
  if (m->verb == KIT_GIVE && s->give_type == KIT_NONE)
    seen.card = ENG_SERIAL_UNKNOWN;
  if (m->verb == KIT_DRAW)
    {
      bool resolving_bottom = s->open == KIT_OPEN_CARD
                              && r->cards[s->open_cards[0]].kind == KIT_KIND_BOTTOM
                              && !(s->nopes & 1);
      unsigned pos = s->draw_bottom || resolving_bottom ? 0u : s->pile_n - 1u;
      uint8_t k = s->pile[pos];
      if (k < r->n_cards && r->cards[k].kind == KIT_KIND_KITTEN)
        seen.show = r->cards[k].serial;
    }
  return seen;
}

static void
assert_same_public_state (const KitState *a, const KitState *b, long g, int n)
{
  cr_assert_eq (a->phase, b->phase, "game %ld move %d: phase", g, n);
  cr_assert_eq (a->active, b->active, "game %ld move %d: active", g, n);
  cr_assert_eq (a->owed, b->owed, "game %ld move %d: owed", g, n);
  cr_assert_eq (a->under_attack, b->under_attack, "game %ld move %d: under attack", g, n);
  cr_assert_eq (a->alive, b->alive, "game %ld move %d: alive", g, n);
  cr_assert_eq (a->open, b->open, "game %ld move %d: open", g, n);
  cr_assert_eq (a->nopes, b->nopes, "game %ld move %d: nopes", g, n);
  cr_assert_eq (a->pile_n, b->pile_n, "game %ld move %d: pile", g, n);
  cr_assert_eq (a->pile_kittens, b->pile_kittens, "game %ld move %d: kittens", g, n);
  cr_assert_eq (a->discard_n, b->discard_n, "game %ld move %d: discard", g, n);
  cr_assert_eq (memcmp (a->discard, b->discard, a->discard_n), 0, "game %ld move %d", g, n);
  for (int p = 0; p < a->n_players; p++)
    cr_assert_eq (a->hand_n[p], b->hand_n[p], "game %ld move %d: hand of %d", g, n, p);
}

static bool
same_move (const EngMove *x, const EngMove *m)
{
  return x->verb == m->verb && x->player == m->player && x->card == m->card
         && x->target[0] == m->target[0] && x->n_cards == m->n_cards
         && memcmp (x->cards, m->cards, m->n_cards * sizeof m->cards[0]) == 0;
}

typedef struct {
  long games, moves, live, round_trips, undone, events_checked;
  long ended_players[KIT_MAX_PLAYERS + 1];
} Tally;

static void
play_one (const KitRules *r, const EngCardSet *set, const EngOptions *opts, EngSetup *su,
          long g, EngRng *policy, Tally *tally)
{
  EngRng rng;
  eng_rng_seed (&rng, su->seed);
  KitState s;
  cr_assert_eq (kittens_game_class.setup (r, su, &rng, &s, NULL, NULL), ENG_OK);
  bool live = g % 10 == 3, record = g % 200 == 0, list_all = g % 100 == 1;
  bool with_events = g % 25 == 2, undo = g % 50 == 5;
  KitState shadow;
  if (live)
    {
      EngSetup lsu = *su;
      lsu.has_seed = false;
      EngRng lrng;
      eng_rng_seed (&lrng, 0);
      cr_assert_eq (kittens_game_class.setup (r, &lsu, &lrng, &shadow, NULL, NULL), ENG_OK);
    }
  EngGame *game = NULL;
  if (undo)
    {
      EngVerdict v;
      cr_assert_eq (eng_game_new (&kittens_game_class, set, opts, su, &rng, NULL, &game, &v),
                    ENG_OK, "%s", v.reason);
      cr_assert_eq (memcmp (eng_game_state (game), &s, sizeof s), 0);
    }
  EngRecord *rec = record ? eng_record_new (&kittens_game_class, su, NULL) : NULL;
  EngMove moves[512];
  EngEvent storage[64];
  int n = 0;
  while (s.phase != KIT_PHASE_OVER)
    {
      cr_assert_lt (n, 3000, "game %ld does not end", g);
      EngMove m;
      cr_assert (kittens_random_move (r, &s, policy, &m), "game %ld move %d: no move", g, n);
      if (list_all)
        {
          size_t count = kittens_game_class.legal_moves (r, &s, moves, 512);
          cr_assert_leq (count, 512);
          bool found = false;
          for (size_t i = 0; i < count; i++)
            {
              EngVerdict v;
              cr_assert_eq (eng_game_class_check (&kittens_game_class, r, NULL, &s, &moves[i],
                                                  &v), ENG_OK,
                            "game %ld move %d: listed %s refused: %s %s", g, n,
                            kittens_game_class.verbs[moves[i].verb], v.rule, v.reason);
              found = found || same_move (&moves[i], &m);
            }
          cr_assert (found, "the random move is a listed one");
        }
      EngMove seen = as_seen (r, &s, &m);
      EngEvents ev;
      eng_events_init (&ev, storage, 64);
      EngVerdict why;
      KitState before = s;
      EngStatus st = eng_game_class_apply (&kittens_game_class, r, NULL, &s, &m,
                                           with_events ? &ev : NULL, &why);
      cr_assert_eq (st, ENG_OK, "game %ld move %d: %s refused: %s %s", g, n,
                    kittens_game_class.verbs[m.verb], why.rule, why.reason);
      cr_assert_eq (kittens_game_class.check_conservation (r, &s, &why), ENG_OK,
                    "game %ld move %d (%s): %s", g, n, kittens_game_class.verbs[m.verb],
                    why.reason);
      if (with_events)
        {
          char which[320];
          cr_assert (!kx_names_hidden (r, &s, &ev, which, sizeof which), "game %ld move %d: %s",
                     g, n, which);
          cr_assert_eq (ev.dropped, 0);
          tally->events_checked += (long) ev.n;
        }
      if (game != NULL)
        {
          cr_assert_eq (eng_game_apply (game, &m, NULL, &why), ENG_OK, "%s", why.reason);
          cr_assert_eq (memcmp (eng_game_state (game), &s, sizeof s), 0);
          if (n % 7 == 0)
            {
              cr_assert_eq (eng_game_undo (game), ENG_OK);
              cr_assert_eq (memcmp (eng_game_state (game), &before, sizeof s), 0,
                            "game %ld move %d: undo restores the state", g, n);
              cr_assert_eq (eng_game_apply (game, &m, NULL, &why), ENG_OK);
              cr_assert_eq (memcmp (eng_game_state (game), &s, sizeof s), 0, "redo");
              tally->undone++;
            }
        }
      if (rec != NULL)
        eng_record_append (rec, &m, 0);
      if (live)
        {
          st = eng_game_class_apply (&kittens_game_class, r, NULL, &shadow, &seen, NULL, &why);
          cr_assert_eq (st, ENG_OK, "game %ld move %d: the live shadow refused %s: %s %s", g, n,
                        kittens_game_class.verbs[m.verb], why.rule, why.reason);
          cr_assert_eq (kittens_game_class.check_conservation (r, &shadow, &why), ENG_OK,
                        "game %ld move %d: live conservation: %s", g, n, why.reason);
          assert_same_public_state (&s, &shadow, g, n);
        }
      n++;
    }
  const char *tb = NULL;
  unsigned w = kittens_game_class.winners (r, &s, &tb);
  cr_assert_eq (__builtin_popcount (w), 1, "game %ld: one winner", g);
  cr_assert_eq (w, s.alive, "the winner is the last player in");
  cr_assert_eq (kittens_game_class.score (r, &s, (unsigned) __builtin_ctz (w)), 1);
  if (rec != NULL)
    {
      char *text = eng_record_write (rec);
      cr_assert_not_null (text);
      EngRecord *back = NULL;
      EngParseError err;
      cr_assert_eq (eng_record_parse (text, strlen (text), "written", &back, &err), ENG_OK,
                    "line %u: %s", err.line, err.reason);
      cr_assert (eng_record_equal (rec, back), "record round trip");
      EngReplayResult res;
      EngVerdict v;
      cr_assert_eq (eng_replay (back, set, opts, false, true, NULL, NULL, &res, &v), ENG_OK);
      cr_assert_eq (res.illegal, 0);
      cr_assert (res.over);
      cr_assert_eq (memcmp (eng_game_state (res.game), &s, sizeof s), 0,
                    "replay reaches the same state");
      eng_game_free (res.game);
      eng_record_free (back);
      free (text);
      eng_record_free (rec);
      tally->round_trips++;
    }
  if (game != NULL)
    eng_game_free (game);
  tally->games++;
  tally->moves += n;
  tally->live += live;
  tally->ended_players[s.n_players]++;
}

static void
play_random_games (const char *const *overrides, EngCardSet *set, long games, uint64_t seed0)
{
  EngOptions opts;
  memset (&opts, 0, sizeof opts);
  gt_load_options ("kittens", &opts);
  for (int i = 0; overrides != NULL && overrides[i] != NULL; i += 2)
    cr_assert_eq (eng_options_set (&opts, overrides[i], overrides[i + 1]), ENG_OK);
  void *rules_v = NULL;
  EngParseError err;
  cr_assert_eq (kittens_game_class.rules_new (set, &opts, &rules_v, &err), ENG_OK, "%s",
                err.reason);
  EngRng policy;
  eng_rng_seed (&policy, 20261124);
  EngSetup su;
  eng_setup_init (&su);
  su.has_seed = true;
  const char *names[] = { "Ana", "Bea", "Cai", "Dan", "Eva" };
  for (int p = 0; p < 5; p++)
    snprintf (su.names[p], sizeof su.names[p], "%s", names[p]);
  Tally tally = { 0 };
  for (long g = 0; g < games; g++)
    {
      su.n_players = 2 + (unsigned) (g % 4);
      su.seed = seed0 + (uint64_t) g;
      su.first = (int) (g % su.n_players);
      play_one (rules_v, set, &opts, &su, g, &policy, &tally);
    }
  cr_assert_eq (tally.games, games);
  for (int p = 2; p <= 5 && games >= 8; p++)
    cr_assert_gt (tally.ended_players[p], 0, "games of %d players end", p);
  cr_log_info ("%ld games, %.1f moves/game, %ld live shadows, %ld round trips, %ld undos, "
               "%ld events checked", tally.games, (double) tally.moves / (double) games,
               tally.live, tally.round_trips, tally.undone, tally.events_checked);
  kittens_game_class.rules_free (rules_v);
  eng_card_set_free (set);
}

Test (kittens_random, random_games_keep_every_invariant, .timeout = 600)
{
  play_random_games (NULL, kx_load_set (NULL, 0), games_to_play (), 1000);
}

Test (kittens_random, every_card_and_option_variant_keeps_every_invariant, .timeout = 600)
{
  static const char *const full[] = {
    "targeted-attack 2", "triple-attack 2", "super-skip 2", "draw-from-bottom 2",
    "see-the-future-5 1", "alter-the-future-3 2", "alter-the-future-5 1", "reverse 2",
    "swap-top-bottom 2", "bury 2", "personal-attack 2", "feral-cat 3",
  };
  size_t n_full = sizeof full / sizeof full[0];
  long n = games_to_play () / 4;
  static const char *const reset[] = { "attack_stacking", "reset", "spare_defuses", "two",
                                       NULL };
  static const char *const strict[] = { "nope_on_combo", "no", "two_ferals_pair", "no", NULL };
  play_random_games (NULL, kx_load_set (full, n_full), n, 50000);
  play_random_games (reset, kx_load_set (full, n_full), n, 60000);
  play_random_games (strict, kx_load_set (full, n_full), n, 70000);
}

/* Arbitrary moves (any verb, player, target and serials, as a confused
 * table or a forged record could send) are refused with nothing changed,
 * or accepted with every card still accounted for. */
static void
play_arbitrary_moves (EngCardSet *set)
{
  EngOptions opts;
  memset (&opts, 0, sizeof opts);
  gt_load_options ("kittens", &opts);
  void *rules_v = NULL;
  EngParseError err;
  cr_assert_eq (kittens_game_class.rules_new (set, &opts, &rules_v, &err), ENG_OK);
  const KitRules *r = rules_v;
  EngRng fuzz;
  eng_rng_seed (&fuzz, 77);
  EngSetup su;
  eng_setup_init (&su);
  long accepted = 0, refused = 0, games = games_to_play () / 20;
  for (long g = 0; g < games; g++)
    {
      su.n_players = 2 + (unsigned) (g % 4);
      su.has_seed = g % 2 == 0;   /* seeded and live tables */
      su.seed = (uint64_t) g;
      EngRng rng;
      eng_rng_seed (&rng, su.seed);
      KitState s;
      cr_assert_eq (kittens_game_class.setup (r, &su, &rng, &s, NULL, NULL), ENG_OK);
      for (int n = 0; n < 400 && s.phase != KIT_PHASE_OVER; n++)
        {
          EngMove m;
          if (su.has_seed && eng_rng_below (&fuzz, 2) == 0)
            cr_assert (kittens_random_move (r, &s, &fuzz, &m));
          else
            {
              eng_move_init (&m, eng_rng_below (&fuzz, KIT_VERB_COUNT + 1),
                             (int) eng_rng_below (&fuzz, su.n_players));
              static const uint16_t serials[] = { 0, 1, 5, 11, 16, 20, 24, 28, 32, 37, 38, 39,
                                                  41, 45, 49, 53, 56, 57, 58, 59, 60,
                                                  61, 62, 63, 64, 65, 66, 67, 68, 999,
                                                  ENG_SERIAL_UNKNOWN };
              size_t ns = sizeof serials / sizeof serials[0];
              m.card = serials[eng_rng_below (&fuzz, (uint32_t) ns)];
              m.n_cards = (uint8_t) eng_rng_below (&fuzz, ENG_MOVE_MAX_CARDS + 1);
              for (int i = 0; i < m.n_cards; i++)
                m.cards[i] = serials[eng_rng_below (&fuzz, (uint32_t) ns)];
              m.target[0] = (int8_t) ((int) eng_rng_below (&fuzz, su.n_players + 2) - 1);
              if (eng_rng_below (&fuzz, 4) == 0)
                m.show = serials[eng_rng_below (&fuzz, (uint32_t) ns)];
            }
          KitState before = s;
          EngVerdict why;
          EngStatus st = eng_game_class_apply (&kittens_game_class, r, NULL, &s, &m, NULL, &why);
          if (st != ENG_OK)
            {
              cr_assert_eq (memcmp (&before, &s, sizeof s), 0, "a refused move changes nothing");
              cr_assert_gt (strlen (why.reason), 0);
              refused++;
              continue;
            }
          accepted++;
          cr_assert_eq (kittens_game_class.check_conservation (r, &s, &why), ENG_OK,
                        "game %ld move %d (%s): %s", g, n,
                        m.verb < KIT_VERB_COUNT ? kittens_game_class.verbs[m.verb] : "?",
                        why.reason);
        }
    }
  cr_assert_gt (accepted, 0);
  cr_assert_gt (refused, 0);
  cr_log_info ("%ld arbitrary moves accepted, %ld refused", accepted, refused);
  kittens_game_class.rules_free (rules_v);
  eng_card_set_free (set);
}

Test (kittens_random, arbitrary_moves_are_refused_or_keep_conservation, .timeout = 600)
{
  static const char *const full[] = {
    "targeted-attack 1", "triple-attack 1", "super-skip 1", "draw-from-bottom 1",
    "see-the-future-5 1", "alter-the-future-3 1", "alter-the-future-5 1", "reverse 1",
    "swap-top-bottom 1", "bury 1", "personal-attack 1", "feral-cat 2",
  };
  play_arbitrary_moves (kx_load_set (NULL, 0));
  play_arbitrary_moves (kx_load_set (full, sizeof full / sizeof full[0]));
}
