/* tablero-cli scene: a snapshot script (docs/snapshot-script-format.md)
 * turned into a render scene of the same game on its table
 * (cal-scene-gen.h, docs/e2e.md). */
#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal-scene-gen.h"
#include "cal-zones.h"
#include "eng-cardset.h"
#include "eng-live-script.h"

/* N_: translated by GOptionContext when --help prints it */
static const char *const description =
  N_("Lays the game of a snapshot script out on a rendered table: every change\n"
  "at a time on the timeline, cards at the centres of their zones\n"
  "(data/zones/GAME.zones), hands carrying them, optional degradations and a\n"
  "camera nudge at the first quiet moment after T seconds.  Render it with\n"
  "`tablero-cli render SCENE -o DIR` or referee it with\n"
  "`tablero-cli watch --source demo:SCENE`.\n");

static void
usage (void)
{
  fprintf (stderr, "%s tablero-cli scene SCRIPT -o SCENE [OPTION...]\n%s", _("usage:"), _(description));
  cli_try_help ("scene");
}

/* The degradations --degrade names, each one a flag. */
static const struct {
  const char *name;
  unsigned flags;
} degradations[] = {
  { "all", CAL_SCENE_DEGRADE_ALL },
  { "light", CAL_SCENE_DEGRADE_LIGHT },
  { "blur", CAL_SCENE_DEGRADE_BLUR },
  { "noise", CAL_SCENE_DEGRADE_NOISE },
  { "jpeg", CAL_SCENE_DEGRADE_JPEG },
};

static bool
parse_degrade (const char *spec, unsigned *out)
{
  *out = 0;
  if (strcmp (spec, "none") == 0)
    return true;
  g_auto (GStrv) parts = g_strsplit (spec, ",", -1);
  for (char **p = parts; *p; p++)
    {
      size_t i = 0;
      while (i < G_N_ELEMENTS (degradations) && strcmp (*p, degradations[i].name) != 0)
        i++;
      if (i == G_N_ELEMENTS (degradations))
        return false;
      *out |= degradations[i].flags;
    }
  return true;
}

/* The option values as typed, before they are checked. */
typedef struct {
  char *degrade, *nudge, *fps, *change, *seed, *size, *blur;
  gboolean no_hands;
} SceneArgs;

/* --degrade, --nudge, --fps, --change, --blur, --seed and --size into
 * *opts; false after saying what is wrong. */
static bool
read_scene_options (const SceneArgs *a, CalSceneOptions *opts)
{
  cal_scene_options_init (opts);
  opts->hands = !a->no_hands;
  opts->degrade = CAL_SCENE_DEGRADE_ALL;
  if (a->degrade != NULL && !parse_degrade (a->degrade, &opts->degrade))
    {
      cli_say ("scene", _("--degrade takes none, all or a list of light,blur,noise,jpeg, not '%s'"), a->degrade);
      return false;
    }
  guint64 seed_value = 0;
  if ((a->nudge != NULL && !cli_parse_double ("scene", "--nudge", a->nudge, 0, CLI_MAX_SECONDS, &opts->nudge_s))
      || (a->fps != NULL && !cli_parse_double ("scene", "--fps", a->fps, CLI_MIN_FPS, 120, &opts->fps))
      || (a->change != NULL && !cli_parse_double ("scene", "--change", a->change, 0.1, 60, &opts->change_s))
      || (a->blur != NULL && !cli_parse_double ("scene", "--blur", a->blur, 0.01, 20, &opts->blur_px))
      || (a->seed != NULL && !cli_parse_uint64 ("scene", "--seed", a->seed, &seed_value)))
    return false;
  if (a->seed != NULL)
    opts->seed = seed_value;
  return a->size == NULL || cli_parse_frame_size ("scene", a->size, &opts->width, &opts->height);
}

/* {"scene":PATH,"width":W,...} once the scene is written. */
static bool
write_scene (const char *out_path, const CalSceneResult *res)
{
  GError *error = NULL;
  if (!g_file_set_contents (out_path, res->text, -1, &error))
    {
      cli_say ("scene", _("cannot write %s: %s"), out_path, error->message);
      g_error_free (error);
      return false;
    }
  g_autoptr (GString) line = g_string_new ("{\"scene\":");
  cli_json_cstring (line, out_path);
  g_string_append_printf (line, ",\"width\":%d,\"height\":%d,\"px_per_mm\":%.3f,"
                          "\"duration\":%.3f,\"changes\":%zu}\n",
                          res->width, res->height, res->px_per_mm, res->duration_s,
                          res->n_rests);
  fputs (line->str, stdout);
  return true;
}

/* The script laid out on `game`'s table and written to `out_path`; 0, or
 * 2 after saying why not. */
static int
make_scene (const EngLiveScript *script, const char *game, const char *set_path, CalSceneOptions *opts,
            const char *out_path)
{
  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", game);
  g_autofree char *zones_path = cli_data_path (zones_name);
  EngParseError err = { "" };
  EngCardSet *set = NULL;
  CalZones *zones = g_new0 (CalZones, 1);
  CalSceneResult *res = g_new0 (CalSceneResult, 1);
  int rc = 2;
  EngStatus st = eng_card_set_load_file (set_path, &set, &err);
  if (st == ENG_OK)
    st = cal_zones_load_file (zones_path, zones, &err);
  if (st == ENG_OK)
    st = cal_scene_generate (script, set, zones, opts, res, &err);
  if (st != ENG_OK)
    fprintf (stderr, "tablero-cli scene: %s:%u: %s\n", err.source, err.line,
             err.reason[0] ? err.reason : eng_status_to_string (st));
  else if (write_scene (out_path, res))
    rc = 0;
  free (res->text);
  g_free (res);
  g_free (zones);
  eng_card_set_free (set);
  return rc;
}

int
cli_cmd_scene (int argc, char **argv)
{
  g_autofree char *out_path = NULL, *game_arg = NULL, *degrade = NULL;
  g_autofree char *nudge = NULL, *fps = NULL, *change = NULL, *seed = NULL, *size = NULL;
  g_autofree char *blur = NULL;
  gboolean no_hands = FALSE;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_path, N_("Write the scene to SCENE (required)"), "SCENE" },
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &game_arg, N_("The game (default: the script's)"), N_("GAME") },
    { "degrade", 0, 0, G_OPTION_ARG_FILENAME, &degrade, N_("Degradations (default all)"),
      "none|all|light,blur,noise,jpeg" },
    { "blur", 0, 0, G_OPTION_ARG_FILENAME, &blur, N_("The blur's sigma in pixels (default 0.6)"), "PX" },
    { "no-hands", 0, 0, G_OPTION_ARG_NONE, &no_hands, N_("No hands carrying the cards"), NULL },
    { "nudge", 0, 0, G_OPTION_ARG_FILENAME, &nudge, N_("Bump the camera at the first quiet moment after T s"), "T" },
    { "fps", 0, 0, G_OPTION_ARG_FILENAME, &fps, N_("Scene frame rate (default 5)"), "F" },
    { "change", 0, 0, G_OPTION_ARG_FILENAME, &change, N_("Seconds given to one change (default 1)"), "S" },
    { "seed", 0, 0, G_OPTION_ARG_FILENAME, &seed, N_("Random seed"), "N" },
    { "size", 0, 0, G_OPTION_ARG_FILENAME, &size,
      N_("The camera's frame: the table laid out and scaled to fill it (default: 2.2 px/mm)"), N_("WxH") },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("scene", "SCRIPT", description, entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  const SceneArgs args = { degrade, nudge, fps, change, seed, size, blur, no_hands };
  CalSceneOptions opts;
  if (!read_scene_options (&args, &opts))
    return 2;
  const char *script_path = argc == 2 ? argv[1] : NULL;
  if (argc > 2 || script_path == NULL || out_path == NULL)
    {
      usage ();
      return 2;
    }
  EngParseError err = { "" };
  EngLiveScript *script = NULL;
  if (eng_live_script_load_file (script_path, &script, &err) != ENG_OK)
    {
      fprintf (stderr, "tablero-cli scene: %s:%u: %s\n", err.source, err.line, err.reason);
      return 2;
    }
  /* the script's game (its `game` line), unless --game says otherwise */
  const char *game = game_arg != NULL ? game_arg : eng_live_script_game (script)->name;
  g_autofree char *set_path = cli_card_set_path (game);
  rc = 2;
  if (set_path != NULL)
    {
      opts.source_name = script_path;
      rc = make_scene (script, game, set_path, &opts, out_path);
    }
  eng_live_script_free (script);
  return rc;
}
