/* tablero-cli bench history [--games N] [--db FILE]: fills a history with
 * N games (10,000 by default) played by a family of eight, then measures
 * what the table waits for: writing a finished game (refereed again from
 * its record, then one durable transaction), the History page's query
 * (the newest games with the count, unfiltered and filtered by player and
 * game), a player's page, and opening the file.  One JSON line of
 * figures in milliseconds: the median and worst of the runs as the clock
 * on the wall sees them, and the median of this thread's CPU time (what
 * the work costs, whatever else the machine is doing; a write also waits
 * for the disk). */
#include "cli.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eng-data.h"
#include "eng-rule-docs.h"
#include "hst-stats.h"
#include "hst-store.h"

#define RUNS 25
#define PAGE 200

static const char *const family[] = { "Ana", "Bea", "Cai", "Dídac", "Eun-ji", "Fátima", "Guo", "Hélène" };

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* {"median":M,"max":X,"cpu_median":C} of `n` wall and CPU times (sorted
 * here). */
static void
add_figures (GString *out, const char *name, double *ms, double *cpu, size_t n)
{
  qsort (ms, n, sizeof *ms, compare_double);
  qsort (cpu, n, sizeof *cpu, compare_double);
  g_string_append_printf (out, ",\"%s\":{\"median\":%.3f,\"max\":%.3f,\"cpu_median\":%.3f}", name, ms[n / 2],
                          ms[n - 1], cpu[n / 2]);
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static double
cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* The demo game of the registry's first game, refereed from its record:
 * what is put N times. */
static EngRecord *
load_demo (void)
{
  g_autofree char *rel = g_strdup_printf ("games/demo-%s.rec", cli_default_game ());
  char *path = eng_data_path (rel);
  EngRecord *record = NULL;
  EngParseError err = { "" };
  if (path == NULL || eng_record_load_file (path, &record, &err) != ENG_OK)
    cli_say ("bench history", "%s:%u: %s", err.source, err.line, err.reason);
  free (path);
  return record;
}

/* The model's game and the registry's next one, which every third game
 * names (the History page filters by game); two rule ids of the model's
 * game for its refusals. */
typedef struct {
  const char *game[2];
  char rule[2][8];
} Kinds;

static void
kinds_of (const HstGame *model, Kinds *k)
{
  k->game[0] = k->game[1] = model->game;
  for (size_t i = 0; i < eng_game_class_count (); i++)
    if (strcmp (eng_game_class_get (i)->name, model->game) == 0)
      k->game[1] = eng_game_class_get ((i + 1) % eng_game_class_count ())->name;
  g_strlcpy (k->rule[0], "?", sizeof k->rule[0]);
  g_strlcpy (k->rule[1], "?", sizeof k->rule[1]);
  EngRuleDocs *docs = eng_rule_docs_load_game (model->game);
  for (size_t i = 0; docs != NULL && i < 2 && i < eng_rule_docs_count (docs); i++)
    g_strlcpy (k->rule[i], eng_rule_docs_get (docs, i)->id, sizeof k->rule[i]);
  eng_rule_docs_free (docs);
}

/* N games over about three years, two to four of the family each. */
static gboolean
fill (HstStore *store, const HstGame *model, long games, GError **error)
{
  Kinds kinds;
  kinds_of (model, &kinds);
  hst_store_set_durable (store, FALSE);
  gint64 start = g_get_real_time () / G_USEC_PER_SEC - 3 * 365 * 24 * 3600;
  for (long i = 0; i < games; i++)
    {
      g_autoptr (HstGame) g = hst_game_new ();
      g->uid = g_strdup_printf ("bench-%ld", i);
      g->game = g_strdup (kinds.game[i % 3 == 0]);
      g->started = start + i * 9000;
      g->ended = g->started + 1500;
      g->finished = i % 10 != 0;
      g->scored = TRUE;
      g->n_moves = model->n_moves;
      g->record = g_strdup (model->record);
      g->n_seats = 2 + (guint) (i % 3);
      for (guint p = 0; p < g->n_seats; p++)
        {
          g_strlcpy (g->seats[p].name, family[(i + p * 3) % G_N_ELEMENTS (family)], ENG_NAME_MAX);
          g->seats[p].score = (int) ((i * 7 + p * 5) % 9);
          g->seats[p].won = g->finished && p == (guint) (i % g->n_seats);
          g->seats[p].first = p == 0;
        }
      g_array_append_vals (g->checkpoints, model->checkpoints->data, model->checkpoints->len);
      hst_game_add_refusals (g, (int) (i % g->n_seats), kinds.rule[i % 2], 1 + (guint) (i % 3));
      if (!hst_store_put_game (store, g, NULL, error))
        return FALSE;
    }
  hst_store_set_durable (store, TRUE);
  return TRUE;
}

enum { Q_PAGE, Q_BY_PLAYER, Q_BY_GAME, Q_PLAYER, N_QUERIES };

/* One run of query `q`; FALSE with `error`. */
static gboolean
run_query (HstStore *store, int q, GError **error)
{
  HstFilter filters[] = { { .limit = PAGE }, { .player = "Ana", .limit = PAGE },
                          { .game = cli_default_game (), .limit = PAGE } };
  if (q == Q_PLAYER)
    {
      g_autoptr (HstPlayerStats) s = hst_store_player_stats (store, "Ana", 10, error);
      return s != NULL;
    }
  guint total;
  g_autoptr (GPtrArray) games = hst_store_list (store, &filters[q], &total, error);
  return games != NULL;
}

static gboolean
time_queries (HstStore *store, GString *out, GError **error)
{
  static const char *const names[N_QUERIES] = { "page_ms", "page_by_player_ms", "page_by_game_ms",
                                                "player_page_ms" };
  for (int q = 0; q < N_QUERIES; q++)
    {
      double wall[RUNS], cpu[RUNS];
      for (int r = 0; r < RUNS; r++)
        {
          double t0 = now_ms (), c0 = cpu_ms ();
          if (!run_query (store, q, error))
            return FALSE;
          wall[r] = now_ms () - t0, cpu[r] = cpu_ms () - c0;
        }
      add_figures (out, names[q], wall, cpu, RUNS);
    }
  return TRUE;
}

static gboolean
time_writes (HstStore *store, const EngRecord *demo, GString *out, GError **error)
{
  double wall[RUNS], cpu[RUNS];
  EngRecord *record = (EngRecord *) demo;
  for (int r = 0; r < RUNS; r++)
    {
      g_autofree char *uid = g_strdup_printf ("bench-write-%d-%" G_GINT64_FORMAT, r, g_get_real_time ());
      eng_record_set_id (record, uid, g_get_real_time () / G_USEC_PER_SEC - 1200);
      double t0 = now_ms (), c0 = cpu_ms ();
      g_autoptr (HstGame) g = hst_game_from_record (record, g_get_real_time () / G_USEC_PER_SEC, error);
      if (g == NULL || !hst_store_put_game (store, g, NULL, error))
        return FALSE;
      wall[r] = now_ms () - t0, cpu[r] = cpu_ms () - c0;
    }
  add_figures (out, "write_game_ms", wall, cpu, RUNS);
  return TRUE;
}

int
cli_bench_history (int argc, char **argv)
{
  g_autofree char *games_arg = NULL, *db = NULL;
  const GOptionEntry entries[] = {
    { "games", 0, 0, G_OPTION_ARG_FILENAME, &games_arg, N_("Games in the history (default 10000)"), "N" },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, N_("Fill this new history file (default: a temporary one)"), N_("FILE") },
    G_OPTION_ENTRY_NULL
  };
  const char *cmd = "bench history";
  int rc = cli_parse_options (cmd, NULL, N_("Writes a finished game and runs the History page's queries on a "
                                            "history of N games.\n"), entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  long games = 10000;
  if (argc > 1)
    {
      cli_say (cmd, _("unexpected argument '%s'"), argv[1]);
      return 2;
    }
  if (games_arg != NULL && !cli_parse_long (cmd, "--games", games_arg, 1, 10000000, &games))
    return 2;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = db == NULL ? g_dir_make_tmp ("tablero-bench-XXXXXX", &error) : NULL;
  if (db == NULL && dir == NULL)
    {
      cli_say (cmd, "%s", error->message);
      return 2;
    }
  g_autofree char *path = db != NULL ? g_strdup (db) : g_build_filename (dir, "history.db", NULL);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      cli_say (cmd, _("%s exists: the bench fills a new history"), path);
      return 2;
    }
  EngRecord *demo = load_demo ();
  if (demo == NULL)
    return 2;
  int code = 2;
  g_autoptr (HstStore) store = hst_store_open (path, NULL, &error);
  g_autoptr (HstGame) model = store != NULL ? hst_game_from_record (demo, 1, &error) : NULL;
  GString *out = g_string_new ("{\"bench\":\"history\"");
  double t0 = now_ms ();
  if (model != NULL && fill (store, model, games, &error))
    {
      g_string_append_printf (out, ",\"games\":%ld,\"fill_s\":%.1f", games, (now_ms () - t0) / 1000.0);
      g_clear_pointer (&store, hst_store_free);
      double t1 = now_ms ();
      store = hst_store_open (path, NULL, &error);
      g_string_append_printf (out, ",\"open_ms\":%.3f", now_ms () - t1);
      if (store != NULL && time_queries (store, out, &error) && time_writes (store, demo, out, &error))
        {
          GStatBuf st;
          g_string_append_printf (out, ",\"file_bytes\":%lld}", g_stat (path, &st) == 0 ? (long long) st.st_size : -1LL);
          printf ("%s\n", out->str);
          code = 0;
        }
    }
  if (code != 0)
    cli_say (cmd, "%s", error != NULL ? error->message : "?");
  g_string_free (out, TRUE);
  eng_record_free (demo);
  g_clear_pointer (&store, hst_store_free);
  if (dir != NULL)
    {
      const char *suffixes[] = { "", "-wal", "-shm" };
      for (size_t i = 0; i < G_N_ELEMENTS (suffixes); i++)
        {
          g_autofree char *file = g_strconcat (path, suffixes[i], NULL);
          g_unlink (file);
        }
      g_rmdir (dir);
    }
  return code;
}
