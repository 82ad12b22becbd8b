/* tablero-cli watch: its command line.  The options become a WatchArgs and
 * the table's players, seats and first player an EngSetup; anything wrong
 * is said on stderr and ends the command with status 2. */
#include "cmd-watch-private.h"
#include "eng-name.h"

#include <stdio.h>
#include <string.h>

void
watch_options_clear (WatchOptions *o)
{
  char **strings[] = { &o->source, &o->game, &o->players, &o->first, &o->record, &o->calibration,
                       &o->resume, &o->seats, &o->seconds, &o->fps, &o->frames, &o->speak_wav,
                       &o->voice, &o->speech_rate, &o->focus, &o->exposure, &o->anti_flicker,
                       &o->history };
  for (size_t i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
  g_clear_pointer (&o->options, g_strfreev);
}

/* N_: translated by GOptionContext when --help prints it */
static const char *const description =
  N_("Referees the table seen by SPEC (demo, camera[:N], v4l2:/dev/videoN, file:PATH)\n"
  "and prints each announcement as a JSON line.  --record keeps the game record\n"
  "up to date after every accepted move; --resume FILE goes on with the game a\n"
  "killed referee left in FILE (and keeps journaling there unless --record says\n"
  "otherwise).  --seats gives each player's seat marker; --option overrides a\n"
  "switch of data/rules/GAME.options.  --commands reads what the table says\n"
  "from standard input, one a line: a command (end-turn, pass, discard, confirm,\n"
  "cancel, no-defence, undo, pause), 'choose NAME', or 'correct SEEN ACTUAL|none'\n"
  "(a misread: face serials or payloads); '@N ' before it waits\n"
  "until frame N (counted from 0) has been refereed.  --speak says each\n"
  "announcement aloud in the table's language (LANGUAGE), as the window does;\n"
  "--speak-wav FILE writes the same speech to a WAV file instead.  --focus,\n"
  "--exposure and --anti-flicker set a camera's controls (left as the camera\n"
  "has them when not given); what the camera lacks is said in a status line.\n"
  "--exposure stickers sets the exposure time by the stickers in view, not the\n"
  "whole picture, so glossy ones do not wash out (docs/vision.md).\n");

/* --option NAME=VALUE, each on top of the rules file's switches. */
static bool
read_rule_switches (const WatchOptions *o, WatchArgs *a)
{
  for (char **opt = o->options; opt != NULL && *opt != NULL; opt++)
    {
      g_auto (GStrv) pair = g_strsplit (*opt, "=", 2);
      if (pair[0] == NULL || pair[1] == NULL
          || eng_options_set (&a->overrides, g_strstrip (pair[0]), g_strstrip (pair[1])) != ENG_OK)
        {
          cli_say ("watch", _("--option takes NAME=VALUE, not '%s'"), *opt);
          return false;
        }
    }
  return true;
}

static bool
read_numbers (const WatchOptions *o, WatchArgs *a)
{
  return (o->seconds == NULL
          || cli_parse_double ("watch", "--seconds", o->seconds, CLI_MIN_SECONDS, CLI_MAX_SECONDS, &a->seconds))
         && (o->fps == NULL || cli_parse_double ("watch", "--fps", o->fps, CLI_MIN_FPS, CLI_MAX_FPS, &a->fps))
         && (o->frames == NULL || cli_parse_long ("watch", "--frames", o->frames, 1, CLI_MAX_FRAMES, &a->frames))
         && (o->speech_rate == NULL
             || cli_parse_long ("watch", "--speech-rate", o->speech_rate, 80, 450, &a->speech_rate));
}

/* --focus, --exposure and --anti-flicker (a camera's own settings). */
static bool
read_camera_controls (const WatchOptions *o, WatchArgs *a)
{
  if (o->focus != NULL && !vis_camera_focus_parse (o->focus, &a->controls))
    {
      cli_say ("watch", _("--focus takes auto, lock or a focus position from 0 to %d, not '%s'"),
               VIS_CAMERA_FOCUS_MAX, o->focus);
      return false;
    }
  if (o->exposure != NULL && !vis_camera_exposure_parse (o->exposure, &a->controls))
    {
      cli_say ("watch", _("--exposure takes auto, manual, stickers or a time in milliseconds from 0.1 to %d, not '%s'"),
               VIS_CAMERA_EXPOSURE_MAX / 10, o->exposure);
      return false;
    }
  if (o->anti_flicker != NULL && !vis_anti_flicker_parse (o->anti_flicker, &a->controls.anti_flicker))
    {
      cli_say ("watch", _("--anti-flicker takes off, 50, 60, auto or camera, not '%s'"), o->anti_flicker);
      return false;
    }
  return true;
}

/* --speak, --speak-wav, --voice and --speech-rate go together. */
static bool
check_speech (const WatchOptions *o, const WatchArgs *a)
{
  if (a->speak && a->speak_wav != NULL)
    {
      cli_say ("watch", "%s", _("--speak and --speak-wav: choose one (the sound card or a file)"));
      return false;
    }
  if ((o->voice != NULL || o->speech_rate != NULL) && !a->speak && a->speak_wav == NULL)
    {
      cli_say ("watch", "%s", _("--voice and --speech-rate need --speak or --speak-wav"));
      return false;
    }
#ifndef TABLERO_HAVE_SPEECH
  if (a->speak || a->speak_wav != NULL)
    {
      cli_say ("watch", "%s", _("this tablero-cli was built without speech (meson -Dspeech, libespeak-ng)"));
      return false;
    }
#endif
  return true;
}

int
watch_parse_args (int argc, char **argv, WatchOptions *o, WatchArgs *a)
{
  const GOptionEntry entries[] = {
    { "source", 0, 0, G_OPTION_ARG_FILENAME, &o->source, N_("Frames from SPEC (required)"), N_("SPEC") },
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &o->game, N_("The game (default: the first one Tablero lists)"), N_("GAME") },
    { "players", 0, 0, G_OPTION_ARG_FILENAME, &o->players, N_("Players' names (default Ana,Bea)"), "A,B[,C,D]" },
    { "first", 0, 0, G_OPTION_ARG_FILENAME, &o->first, N_("Who plays first"), N_("NAME") },
    { "seats", 0, 0, G_OPTION_ARG_FILENAME, &o->seats, N_("Each player's seat marker"), "N,N[,N,N]" },
    { "option", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->options, N_("A rule switch (repeatable)"), N_("NAME=VALUE") },
    { "record", 0, 0, G_OPTION_ARG_FILENAME, &o->record, N_("Journal the game record to FILE"), N_("FILE") },
    { "resume", 0, 0, G_OPTION_ARG_FILENAME, &o->resume, N_("Go on with the game journaled in FILE"), N_("FILE") },
    { "calibration", 0, 0, G_OPTION_ARG_FILENAME, &o->calibration, N_("Start from a saved calibration"), N_("FILE") },
    { "history", 0, 0, G_OPTION_ARG_FILENAME, &o->history, N_("Keep the game in this history file"), N_("FILE") },
    { "no-history", 0, 0, G_OPTION_ARG_NONE, &o->no_history, N_("Keep no history of the game"), NULL },
    { "seconds", 0, 0, G_OPTION_ARG_FILENAME, &o->seconds, N_("Stop after S seconds of source time"), "S" },
    { "frames", 0, 0, G_OPTION_ARG_FILENAME, &o->frames, N_("Stop after N frames"), "N" },
    { "fps", 0, 0, G_OPTION_ARG_FILENAME, &o->fps, N_("Frame rate of a folder of images (default 30)"), "F" },
    { "loop", 0, 0, G_OPTION_ARG_NONE, &o->loop, N_("Play a file source again and again"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
      N_("Add each rule's name and explanation to the events that name one"), NULL },
    { "commands", 0, 0, G_OPTION_ARG_NONE, &o->commands, N_("Read table commands from standard input"), NULL },
    { "speak", 0, 0, G_OPTION_ARG_NONE, &o->speak, N_("Say the announcements aloud"), NULL },
    { "speak-wav", 0, 0, G_OPTION_ARG_FILENAME, &o->speak_wav, N_("Say them into a WAV file"), N_("FILE") },
    { "voice", 0, 0, G_OPTION_ARG_FILENAME, &o->voice, N_("The espeak-ng voice (default: the table's language)"), N_("NAME") },
    { "speech-rate", 0, 0, G_OPTION_ARG_FILENAME, &o->speech_rate, N_("Words a minute (80 to 450)"), "N" },
    { "focus", 0, 0, G_OPTION_ARG_FILENAME, &o->focus,
      N_("Camera focus: auto, lock (where autofocus settles) or a lens position"), "auto|lock|N" },
    { "exposure", 0, 0, G_OPTION_ARG_FILENAME, &o->exposure,
      N_("Camera exposure: auto, manual (the camera's default time), stickers (set by them) or a time in ms"),
      "auto|manual|stickers|MS" },
    { "anti-flicker", 0, 0, G_OPTION_ARG_FILENAME, &o->anti_flicker,
      N_("Camera anti-flicker: the lamps' mains frequency, or camera (leave it)"), "off|50|60|auto|camera" },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("watch", NULL, description, entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  *a = (WatchArgs) {
    .source = o->source, .game = o->game ? o->game : cli_default_game (), .players = o->players ? o->players : "Ana,Bea",
    .first = o->first, .record = o->record, .calibration = o->calibration, .resume = o->resume,
    .seats = o->seats, .commands = o->commands, .loop = o->loop, .verbose = o->verbose,
    .history = o->history, .no_history = o->no_history,
    .speak = o->speak, .speak_wav = o->speak_wav, .voice = o->voice,
  };
  if (argc > 1)
    {
      cli_say ("watch", _("unexpected argument '%s'"), argv[1]);
      cli_try_help ("watch");
      return 2;
    }
  if (!read_rule_switches (o, a) || !read_numbers (o, a) || !read_camera_controls (o, a) || !check_speech (o, a))
    return 2;
  if (a->source == NULL)
    {
      cli_say ("watch", "%s", _("--source SPEC is required"));
      cli_try_help ("watch");
      return 2;
    }
  return -1;
}

/* --players: as many names as the game seats, each one a name a player
 * can be called by, none twice; seat markers 1, 2... by default. */
static bool
read_players (const WatchArgs *a, EngSetup *setup)
{
  g_auto (GStrv) names = g_strsplit (a->players, ",", -1);
  for (char **n = names; *n != NULL; n++)
    g_strstrip (*n);   /* "Ana, Bea" is two names, not " Bea" */
  const EngGameClass *klass = eng_game_class_find (a->game);
  unsigned lo = klass ? klass->min_players : 2, hi = klass ? klass->max_players : ENG_MAX_PLAYERS;
  unsigned n_names = g_strv_length (names);
  if (n_names < lo || n_names > hi)
    {
      cli_say ("watch", _("--players takes %u to %u comma-separated names, not %u"), lo, hi, n_names);
      return false;
    }
  EngNameCheck check;
  int bad = eng_names_find_fault ((const char *const *) names, n_names, &check);
  if (bad >= 0)
    {
      /* a name is shown as typed unless it holds bytes a terminal acts on */
      g_autofree char *shown = check == ENG_NAME_CONTROL || check == ENG_NAME_NOT_UTF8
                               ? g_strescape (names[bad], NULL) : g_strdup (names[bad]);
      fprintf (stderr, "tablero-cli watch: --players: ");
      fprintf (stderr, _("name %d '%s': %s"), bad + 1, shown,
               check == ENG_NAME_OK ? _("named twice") : eng_name_check_to_string (check));
      fputc ('\n', stderr);
      return false;
    }
  for (char **n = names; *n; n++)
    {
      g_strlcpy (setup->names[setup->n_players], *n, ENG_NAME_MAX);
      setup->seats[setup->n_players] = (uint8_t) (setup->n_players + 1);
      setup->n_players++;
    }
  return true;
}

/* --seats: one marker a player, no marker twice. */
static bool
read_seats (const char *text, EngSetup *setup)
{
  g_auto (GStrv) seats = g_strsplit (text, ",", -1);
  if (g_strv_length (seats) != setup->n_players)
    {
      cli_say ("watch", "%s", _("--seats needs one seat marker per player"));
      return false;
    }
  for (unsigned p = 0; p < setup->n_players; p++)
    {
      long marker;
      if (!cli_parse_long ("watch", "--seats", seats[p], 1, ENG_MAX_PLAYERS, &marker))
        return false;
      for (unsigned q = 0; q < p; q++)
        if (setup->seats[q] == marker)
          {
            cli_say ("watch", _("--seats gives seat marker %ld to two players"), marker);
            return false;
          }
      setup->seats[p] = (uint8_t) marker;
    }
  return true;
}

/* --first: one of the players (by default the first named). */
static bool
find_first (const char *first, EngSetup *setup)
{
  setup->first = 0;
  if (first == NULL)
    return true;
  setup->first = -1;
  for (unsigned p = 0; p < setup->n_players; p++)
    if (strcmp (first, setup->names[p]) == 0)
      setup->first = (int) p;
  if (setup->first < 0)
    {
      cli_say ("watch", _("--first names nobody in --players: '%s'"), first);
      return false;
    }
  return true;
}

bool
watch_build_setup (const WatchArgs *a, EngSetup *setup)
{
  eng_setup_init (setup);
  return read_players (a, setup)
         && (a->seats == NULL || read_seats (a->seats, setup))
         && find_first (a->first, setup);
}
