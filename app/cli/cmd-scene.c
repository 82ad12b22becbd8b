/* tablero-cli scene: a snapshot script (docs/snapshot-script-format.md)
 * turned into a render scene of the same game on a Katua table
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

static void
usage (void)
{
  fprintf (stderr,
           "usage: tablero-cli scene SCRIPT -o SCENE [--game katua] [--degrade none|all|light,blur,noise,jpeg]\n"
           "                         [--no-hands] [--nudge T] [--fps F] [--change S] [--seed N]\n"
           "Lays the game of a snapshot script out on a rendered table: every change\n"
           "at a time on the timeline, cards at the centres of their zones\n"
           "(data/zones/GAME.zones), hands carrying them, optional degradations and a\n"
           "camera nudge at the first quiet moment after T seconds.  Render it with\n"
           "`tablero-cli render SCENE -o DIR` or referee it with\n"
           "`tablero-cli watch --source demo:SCENE`.\n");
}

static bool
parse_degrade (const char *spec, unsigned *out)
{
  *out = 0;
  if (strcmp (spec, "none") == 0)
    return true;
  g_auto (GStrv) parts = g_strsplit (spec, ",", -1);
  for (char **p = parts; *p; p++)
    {
      if (strcmp (*p, "all") == 0)
        *out |= CAL_SCENE_DEGRADE_ALL;
      else if (strcmp (*p, "light") == 0)
        *out |= CAL_SCENE_DEGRADE_LIGHT;
      else if (strcmp (*p, "blur") == 0)
        *out |= CAL_SCENE_DEGRADE_BLUR;
      else if (strcmp (*p, "noise") == 0)
        *out |= CAL_SCENE_DEGRADE_NOISE;
      else if (strcmp (*p, "jpeg") == 0)
        *out |= CAL_SCENE_DEGRADE_JPEG;
      else
        return false;
    }
  return true;
}

int
cli_cmd_scene (int argc, char **argv)
{
  const char *script_path = NULL, *out_path = NULL, *game = "katua";
  CalSceneOptions opts;
  cal_scene_options_init (&opts);
  opts.hands = true;
  opts.degrade = CAL_SCENE_DEGRADE_ALL;
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *next = i + 1 < argc ? argv[i + 1] : NULL;
      if (strcmp (arg, "--no-hands") == 0)
        {
          opts.hands = false;
          continue;
        }
      if (arg[0] != '-')
        {
          if (script_path != NULL)
            {
              usage ();
              return 2;
            }
          script_path = arg;
          continue;
        }
      if (next == NULL)
        {
          g_autofree char *shown = cli_escape (arg);
          fprintf (stderr, "tablero-cli scene: %s needs a value\n", shown);
          return 2;
        }
      if (strcmp (arg, "-o") == 0 || strcmp (arg, "--out") == 0)
        out_path = next;
      else if (strcmp (arg, "--game") == 0)
        game = next;
      else if (strcmp (arg, "--degrade") == 0)
        {
          if (!parse_degrade (next, &opts.degrade))
            {
              fprintf (stderr, "tablero-cli scene: --degrade takes none, all or a list of "
                       "light,blur,noise,jpeg\n");
              return 2;
            }
        }
      else if (strcmp (arg, "--nudge") == 0)
        {
          if (!cli_parse_double ("scene", arg, next, 0, CLI_MAX_SECONDS, &opts.nudge_s))
            return 2;
        }
      else if (strcmp (arg, "--fps") == 0)
        {
          if (!cli_parse_double ("scene", arg, next, CLI_MIN_FPS, 120, &opts.fps))
            return 2;
        }
      else if (strcmp (arg, "--change") == 0)
        {
          if (!cli_parse_double ("scene", arg, next, 0.1, 60, &opts.change_s))
            return 2;
        }
      else if (strcmp (arg, "--seed") == 0)
        {
          guint64 seed;
          if (!cli_parse_uint64 ("scene", arg, next, &seed))
            return 2;
          opts.seed = seed;
        }
      else
        {
          g_autofree char *shown = cli_escape (arg);
          fprintf (stderr, "tablero-cli scene: unknown option '%s'\n", shown);
          return 2;
        }
      i++;
    }
  if (script_path == NULL || out_path == NULL)
    {
      usage ();
      return 2;
    }

  g_autofree char *set_path = cli_card_set_path (game);
  if (set_path == NULL)
    return 2;
  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", game);
  g_autofree char *zones_path = cli_data_path (zones_name);
  EngParseError err = { "" };
  EngCardSet *set = NULL;
  EngLiveScript *script = NULL;
  CalZones *zones = g_new0 (CalZones, 1);
  CalSceneResult *res = g_new0 (CalSceneResult, 1);
  int rc = 2;
  EngStatus st = eng_card_set_load_file (set_path, &set, &err);
  if (st == ENG_OK)
    st = cal_zones_load_file (zones_path, zones, &err);
  if (st == ENG_OK)
    st = eng_live_script_load_file (script_path, &script, &err);
  if (st == ENG_OK)
    {
      opts.source_name = script_path;
      st = cal_scene_generate (script, set, zones, &opts, res, &err);
    }
  if (st != ENG_OK)
    fprintf (stderr, "tablero-cli scene: %s:%u: %s\n", err.source, err.line,
             err.reason[0] ? err.reason : eng_status_to_string (st));
  else
    {
      GError *error = NULL;
      if (!g_file_set_contents (out_path, res->text, -1, &error))
        {
          fprintf (stderr, "tablero-cli scene: cannot write %s: %s\n", out_path, error->message);
          g_error_free (error);
        }
      else
        {
          printf ("{\"scene\":\"%s\",\"width\":%d,\"height\":%d,\"duration\":%.3f,\"changes\":%zu}\n",
                  out_path, res->width, res->height, res->duration_s, res->n_rests);
          rc = 0;
        }
    }
  free (res->text);
  g_free (res);
  g_free (zones);
  eng_live_script_free (script);
  eng_card_set_free (set);
  return rc;
}
