/* tablero-cli bench latency: from a card coming to rest to the referee's
 * announcement, on the demo game rendered at 30 fps (docs/e2e.md).
 *
 * The scene comes from a snapshot script (cal-scene-gen.h), which knows when
 * every change is complete on the table (the card lies still and the hand
 * has left it).  The frames go through the same observer and interpreter as
 * `tablero-cli watch`; a change is announced by the first interpreter event
 * at or after its rest time and before the next change's.  Changes the
 * referee takes in silently (a card put on the discard pile as asked) count
 * only in the commit figures.  `--changes` lists each change's delays
 * ("nan": none before the next change). */
#include "cli.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prt-store.h"
#include "cal-scene-gen.h"
#include "eng-live-script.h"
#include "eng-session.h"

#define MAX_FRAMES 20000

typedef struct {
  double t[MAX_FRAMES];
  bool changed[MAX_FRAMES];
  bool announced[MAX_FRAMES];
  size_t n;
} Timeline;

static void
on_frame (void *user, double t_s, const EngSnapshot *snapshot, bool changed,
          const EngEvents *events)
{
  (void) snapshot;
  Timeline *tl = user;
  if (tl->n == MAX_FRAMES)
    return;
  tl->t[tl->n] = t_s;
  tl->changed[tl->n] = changed;
  tl->announced[tl->n] = events->n > 0;
  tl->n++;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
percentile (const double *sorted, size_t n, double p)
{
  if (n == 0)
    return NAN;
  size_t i = (size_t) ceil (p * (double) n) - 1;
  return sorted[i < n ? i : n - 1];
}

/* Delay (ms) from each rest to the first frame in [rest, next rest) with
 * the property, NAN for none, into `each` (one per rest); the delays found,
 * sorted, into `sorted`; returns how many there are. */
static size_t
delays (const CalSceneResult *scene, const Timeline *tl, const bool *has, double *each,
        double *sorted)
{
  size_t n = 0;
  for (size_t r = 0; r < scene->n_rests; r++)
    {
      double from = scene->rests[r].t_s;
      double to = r + 1 < scene->n_rests ? scene->rests[r + 1].t_s : 1e18;
      each[r] = NAN;
      for (size_t f = 0; f < tl->n; f++)
        if (tl->t[f] >= from - 1e-9 && tl->t[f] < to && has[f])
          {
            each[r] = (tl->t[f] - from) * 1000.0;
            sorted[n++] = each[r];
            break;
          }
    }
  qsort (sorted, n, sizeof *sorted, compare_doubles);
  return n;
}

/* What the steps of one latency run share. */
typedef struct {
  const char *script_path;
  EngLiveScript *script;
  double fps;
  EngCardSet *set;
  CalZones *zones;
  CalSceneResult *scene;   /* the script filmed: a render scene and its rests */
  Timeline *tl;            /* when each change was committed and announced */
  EngSession *session;
  CalRefereeStats stats;
} LatencyBench;

/* The script laid out on the game's zones as a render scene, with hands
 * and every degradation, filmed at `fps` (and `width` x `height` when
 * given). */
static EngStatus
film_the_script (LatencyBench *b, const char *set_path, const char *zones_path, int width, int height,
                 EngParseError *err)
{
  EngStatus st = eng_card_set_load_file (set_path, &b->set, err);
  if (st == ENG_OK)
    st = cal_zones_load_file (zones_path, b->zones, err);
  if (st != ENG_OK)
    return st;
  CalSceneOptions opts;
  cal_scene_options_init (&opts);
  opts.fps = b->fps;
  opts.width = width;
  opts.height = height;
  opts.hands = true;
  opts.degrade = CAL_SCENE_DEGRADE_ALL;
  return cal_scene_generate (b->script, b->set, b->zones, &opts, b->scene, err);
}

static void
print_latency_report (const LatencyBench *b, gboolean each_change)
{
  const CalSceneResult *scene = b->scene;
  size_t nr = scene->n_rests + 1;
  double *announce = g_new (double, nr), *announce_each = g_new (double, nr);
  double *commit = g_new (double, nr), *commit_each = g_new (double, nr);
  size_t n_announce = delays (scene, b->tl, b->tl->announced, announce_each, announce);
  size_t n_commit = delays (scene, b->tl, b->tl->changed, commit_each, commit);
  EngGame *game = eng_session_game (b->session);
  printf ("scene: %s at %.0f fps, %dx%d, %u frames, %zu changes\n", b->script_path, b->fps,
          scene->width, scene->height, b->stats.frames, scene->n_rests);
  printf ("moves applied: %zu, game over: %s\n",
          eng_interpreter_record (eng_session_interpreter (b->session))->n_moves,
          eng_game_is_over (game) ? "yes" : "no");
  printf ("rest -> announcement (scene time): %zu changes announced, median %.0f ms, "
          "p95 %.0f ms, max %.0f ms\n", n_announce, percentile (announce, n_announce, 0.5),
          percentile (announce, n_announce, 0.95), percentile (announce, n_announce, 1.0));
  printf ("rest -> snapshot commit (scene time): %zu changes, median %.0f ms, p95 %.0f ms\n",
          n_commit, percentile (commit, n_commit, 0.5), percentile (commit, n_commit, 0.95));
  printf ("pipeline wall time per frame (observer + interpreter): %.2f ms; render %.2f ms\n",
          b->stats.pipeline_ms / b->stats.frames, b->stats.render_ms / b->stats.frames);
  for (size_t r = 0; each_change && r < scene->n_rests; r++)
    printf ("change %zu (script line %u) at rest %.3f s: commit %.0f ms, announcement %.0f ms\n",
            r + 1, scene->rests[r].line, scene->rests[r].t_s, commit_each[r], announce_each[r]);
  g_free (announce);
  g_free (announce_each);
  g_free (commit);
  g_free (commit_each);
}

/* Films the script, referees the film and reports; 0, or 2 after saying
 * what failed. */
static int
measure (LatencyBench *b, const char *game_name, const char *set_path, const char *zones_path, int width,
         int height, gboolean each_change)
{
  EngParseError err = { "" };
  char why[256] = "";
  g_autoptr (GError) perror = NULL;
  EngPrinting *printing = NULL;
  int rc = 2;
  EngStatus st = film_the_script (b, set_path, zones_path, width, height, &err);
  if (st != ENG_OK)
    fprintf (stderr, "tablero-cli bench latency: %s:%u: %s\n", err.source, err.line,
             err.reason[0] ? err.reason : eng_status_to_string (st));
  else if ((st = eng_session_new (game_name, eng_live_script_setup (b->script),
                                  eng_live_script_options (b->script), 1, &b->session, why,
                                  sizeof why)) != ENG_OK)
    fprintf (stderr, "tablero-cli bench latency: %s\n", why);
  else if ((printing = prt_store_printing (b->set, &perror)) == NULL)
    cli_say ("bench latency", "%s", perror->message);
  else if ((st = cal_scene_referee (b->scene->text, strlen (b->scene->text), b->session, printing, zones_path,
                                    on_frame, b->tl, &b->stats, &err)) != ENG_OK)
    fprintf (stderr, "tablero-cli bench latency: %s:%u: %s\n", err.source, err.line,
             err.reason[0] ? err.reason : eng_status_to_string (st));
  else
    {
      print_latency_report (b, each_change);
      rc = 0;
    }
  eng_printing_free (printing);
  return rc;
}

int
cli_bench_latency (int argc, char **argv)
{
  g_autofree char *script_arg = NULL, *fps_arg = NULL, *size_arg = NULL;
  gboolean each_change = FALSE;
  const GOptionEntry entries[] = {
    { "script", 0, 0, G_OPTION_ARG_FILENAME, &script_arg,
      N_("Snapshot script (default: the first game's demo, data/games/demo-GAME.script)"),
      N_("FILE") },
    { "fps", 0, 0, G_OPTION_ARG_FILENAME, &fps_arg, N_("Render rate (default 30)"), "F" },
    { "changes", 0, 0, G_OPTION_ARG_NONE, &each_change, N_("Also list every change's delays"), NULL },
    { "size", 0, 0, G_OPTION_ARG_FILENAME, &size_arg,
      N_("Film the table with a camera of this frame size (default: the layout's own)"), N_("WxH") },
    G_OPTION_ENTRY_NULL
  };
  int prc = cli_parse_options ("bench latency", NULL,
                               N_("Card at rest -> announcement, on a scripted game rendered at F fps.\n"),
                               entries, &argc, &argv);
  if (prc >= 0)
    return prc;
  double fps = 30;
  if (argc > 1)
    {
      cli_say ("bench latency", _("unexpected argument '%s'"), argv[1]);
      cli_try_help ("bench latency");
      return 2;
    }
  if (fps_arg != NULL && !cli_parse_double ("bench latency", "--fps", fps_arg, 1, 120, &fps))
    return 2;
  int width = 0, height = 0;
  if (size_arg != NULL && !cli_parse_frame_size ("bench latency", size_arg, &width, &height))
    return 2;
  g_autofree char *default_rel = g_strdup_printf ("games/demo-%s.script", cli_default_game ());
  g_autofree char *default_script = cli_data_path (default_rel);
  const char *script_path = script_arg != NULL ? script_arg : default_script;

  EngParseError err = { "" };
  EngLiveScript *script = NULL;
  if (eng_live_script_load_file (script_path, &script, &err) != ENG_OK)
    {
      fprintf (stderr, "tablero-cli bench latency: %s:%u: %s\n", err.source, err.line, err.reason);
      return 2;
    }
  const char *game_name = eng_live_script_game (script)->name;
  g_autofree char *set_path = cli_card_set_path (game_name);
  g_autofree char *zones_rel = g_strdup_printf ("zones/%s.zones", game_name);
  g_autofree char *zones_path = cli_data_path (zones_rel);
  if (set_path == NULL)
    {
      eng_live_script_free (script);
      return 2;
    }
  LatencyBench b = { .script_path = script_path, .script = script, .fps = fps,
                     .zones = g_new0 (CalZones, 1), .scene = g_new0 (CalSceneResult, 1),
                     .tl = g_new0 (Timeline, 1) };
  int rc = measure (&b, game_name, set_path, zones_path, width, height, each_change);
  eng_session_free (b.session);
  free (b.scene->text);
  g_free (b.scene);
  g_free (b.tl);
  g_free (b.zones);
  eng_live_script_free (script);
  eng_card_set_free (b.set);
  return rc;
}
