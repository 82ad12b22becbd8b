/* tablero-cli bench engine [--game GAME] [--games N] [--players N|mixed] [--seed S]:
 * plays random complete games of any registered game on one core and
 * reports games per second and the bytes of one game state, as one JSON
 * line. */
#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eng-cardset.h"
#include "eng-game.h"

/* CPU time of this thread: the engine runs on one core, and a loaded
 * machine (CI shares its 2 cores) must not make it look slower than it is. */
static double
thread_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* The game's bundled card set and rules with its options file; false
 * after saying why. */
static bool
load_rules (const EngGameClass *k, EngCardSet **set, void **rules)
{
  g_autofree char *set_path = cli_card_set_path (k->name);
  g_autofree char *opt_rel = g_strdup_printf ("rules/%s.options", k->name);
  g_autofree char *opt_path = cli_data_path (opt_rel);
  EngParseError err = { 0 };
  if (set_path == NULL || eng_card_set_load_file (set_path, set, &err) != ENG_OK)
    {
      fprintf (stderr, "tablero-cli bench engine: %s:%u: %s\n", err.source, err.line, err.reason);
      return false;
    }
  EngOptions opts = { 0 };
  if (eng_options_load_file (opt_path, &opts, &err) != ENG_OK)
    {
      fprintf (stderr, "tablero-cli bench engine: %s:%u: %s\n", err.source, err.line, err.reason);
      return false;
    }
  if (eng_game_class_rules_new (k, *set, &opts, rules, &err) != ENG_OK)
    {
      fprintf (stderr, "tablero-cli bench engine: %s\n", err.reason);
      return false;
    }
  return true;
}

/* What the random games add up to. */
typedef struct {
  unsigned long long moves, unfinished;
} EnginePlay;

/* `games` random games, by `players` players (0: from the fewest to the
 * most in turn), each seeded from `seed`, one state reused for all; 0, or
 * 1 after saying the rules failed. */
static int
play_games (const EngGameClass *k, void *rules, long games, long players, guint64 seed, EnginePlay *play)
{
  EngSetup su;
  eng_setup_init (&su);
  su.has_seed = true;
  for (int p = 0; p < ENG_MAX_PLAYERS; p++)
    snprintf (su.names[p], sizeof su.names[p], "P%d", p + 1);
  unsigned span = k->max_players - k->min_players + 1;
  g_autofree void *state = g_malloc0 (k->state_size);
  EngRng policy;
  eng_rng_seed (&policy, seed ^ 0x5eed);
  for (long g = 0; g < games; g++)
    {
      su.n_players = players ? (unsigned) players : k->min_players + (unsigned) (g % span);
      su.seed = seed + (guint64) g;
      EngRng rng;
      eng_rng_seed (&rng, su.seed);
      if (k->setup (rules, &su, &rng, state, NULL, NULL) != ENG_OK)
        {
          cli_say ("bench engine", "%s", _("setup failed"));
          return 1;
        }
      int guard = 0;
      EngMove m;
      while (!eng_game_class_is_over (k, rules, state) && guard++ < 20000
             && eng_game_class_random_move (k, rules, state, &policy, &m))
        {
          if (eng_game_class_apply (k, rules, &su, state, &m, NULL, NULL) != ENG_OK)
            {
              cli_say ("bench engine", "%s", _("a listed move was refused"));
              return 1;
            }
          play->moves++;
        }
      if (!eng_game_class_is_over (k, rules, state))
        play->unfinished++;
    }
  return 0;
}

int
cli_bench_engine (int argc, char **argv)
{
  g_autofree char *game_arg = NULL, *games_arg = NULL, *players_arg = NULL, *seed_arg = NULL;
  const GOptionEntry entries[] = {
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &game_arg, N_("The game (default: the first one Tablero lists)"), N_("GAME") },
    { "games", 0, 0, G_OPTION_ARG_FILENAME, &games_arg, N_("How many random games (default 20000)"), "N" },
    { "players", 0, 0, G_OPTION_ARG_FILENAME, &players_arg, N_("Players a game (default mixed)"), "N|mixed" },
    { "seed", 0, 0, G_OPTION_ARG_FILENAME, &seed_arg, N_("Random seed (default 1)"), "S" },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("bench engine", NULL, N_("Plays random games through the rules and reports "
                                                     "moves a second and memory.\n"), entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc > 1)
    {
      cli_say ("bench engine", _("unexpected argument '%s'"), argv[1]);
      cli_try_help ("bench engine");
      return 2;
    }
  long games = 20000, players = 0;
  guint64 seed = 1;
  const char *game = game_arg != NULL ? game_arg : cli_default_game ();
  if ((games_arg != NULL && !cli_parse_long ("bench engine", "--games", games_arg, 1, 100000000, &games))
      || (players_arg != NULL && strcmp (players_arg, "mixed") != 0
          && !cli_parse_long ("bench engine", "--players", players_arg, 1, ENG_MAX_PLAYERS, &players))
      || (seed_arg != NULL && !cli_parse_uint64 ("bench engine", "--seed", seed_arg, &seed)))
    return 2;
  const EngGameClass *k = cli_game_class (game);
  if (k == NULL)
    return 2;
  if (games < 1 || games > 100000000 || players < 0
      || (players != 0 && ((unsigned long) players < k->min_players
                           || (unsigned long) players > k->max_players)))
    {
      cli_say ("bench engine", _("--players: %s is played by %u to %u players, not %ld"), k->name,
               k->min_players, k->max_players, players);
      return 2;
    }
  EngCardSet *set = NULL;
  void *rules = NULL;
  if (!load_rules (k, &set, &rules))
    {
      eng_card_set_free (set);
      return 2;
    }
  EnginePlay play = { 0 };
  gint64 t0 = g_get_monotonic_time ();
  double c0 = thread_seconds ();
  rc = play_games (k, rules, games, players, seed, &play);
  double secs = (double) (g_get_monotonic_time () - t0) / 1e6;
  double cpu = thread_seconds () - c0;
  eng_game_class_rules_free (k, rules);
  eng_card_set_free (set);
  if (rc != 0)
    return rc;
  char players_text[16];
  snprintf (players_text, sizeof players_text, "%ld", players);
  printf ("{\"bench\":\"engine\",\"game\":\"%s\",\"games\":%ld,\"players\":\"%s\","
          "\"cpu_seconds\":%.3f,\"wall_seconds\":%.3f,\"games_per_second\":%.0f,"
          "\"games_per_wall_second\":%.0f,\"moves_per_game\":%.1f,"
          "\"state_bytes\":%zu,\"unfinished\":%llu,\"target_games_per_second\":20000,"
          "\"target_state_bytes\":4096}\n",
          k->name, games, players ? players_text : "mixed",
          cpu, secs, cpu > 0 ? (double) games / cpu : 0.0, secs > 0 ? (double) games / secs : 0.0,
          (double) play.moves / (double) games,
          k->state_size, play.unfinished);
  return play.unfinished ? 1 : 0;
}
