/* tablero-cli: the headless face of Tablero (no GTK). */
#include "cli.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *syntax;    /* the arguments: option names are never translated */
  const char *summary;   /* what it does, marked for translation */
} CliCommand;

static const CliCommand commands[] = {
  { "tag", cli_cmd_tag, "PAYLOAD...", N_("what each sticker payload means (JSON lines)") },
  { "stickers", cli_cmd_stickers, "--game G [--size-mm N] [--paper a4|letter] -o FILE.pdf",
    N_("a game's stickers, ready to print") },
  { "replay", cli_cmd_replay, "[--continue] RECORD", N_("referee a game record (JSON lines)") },
  { "bench", cli_cmd_bench, "engine|history|vision|latency", N_("measure speed and memory") },
  { "history", cli_cmd_history, "list|show|stats|export|import|forget",
    N_("the games the table played (JSON lines)") },
#ifdef TABLERO_HAVE_VISION
  { "scan", cli_cmd_scan, "[--calibration FILE] IMAGE...", N_("tags in images (JSON lines)") },
  { "render", cli_cmd_render, "SCENE -o DIR", N_("synthetic frames with ground truth") },
  { "watch", cli_cmd_watch, "--source SRC --game G [--record FILE]", N_("live referee") },
  { "scene", cli_cmd_scene, "SCRIPT -o SCENE", N_("a snapshot script as a render scene") },
#endif
};

static void
usage (FILE *out)
{
  fprintf (out, "%s\n\n%s\n", _("usage: tablero-cli COMMAND [ARGS]"), _("commands:"));
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf (out, "  %-9s %s  %s\n", commands[i].name, commands[i].syntax, _(commands[i].summary));
#ifndef TABLERO_HAVE_VISION
  fprintf (out, "\n%s\n", _("(scan, render and watch need a build with OpenCV and zbar)"));
#endif
}

int
main (int argc, char **argv)
{
  /* The referee speaks the table's language (LANGUAGE, LC_MESSAGES ...);
   * numbers keep the C form, because JSON output and every data file
   * parsed with strtod() use a decimal point. */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  eng_i18n_init (LOCALEDIR);
  if (argc < 2)
    {
      usage (stderr);
      return 2;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      usage (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("tablero-cli %s\n", TABLERO_VERSION);
      return 0;
    }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);
  g_autofree char *shown = cli_escape (argv[1]);
  fprintf (stderr, "tablero-cli: ");
  fprintf (stderr, _("unknown command '%s'"), shown);
  fputs ("\n\n", stderr);
  usage (stderr);
  return 2;
}
