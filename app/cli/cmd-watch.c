/* tablero-cli watch: the live referee without a window.  Frames from a
 * source go through the same observer and session as the app; every
 * announcement is printed as one JSON object a line. */
#include "cli.h"
#include "cli-commands.h"
#include "eng-name.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prt-store.h"
#include "cal-observer.h"
#include "cli-watch-history.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "eng-session.h"
#include "vis-exposure.h"
#include "vis-source.h"
#ifdef TABLERO_HAVE_SPEECH
#include "spk-sentence.h"
#include "spk-voice.h"
#else
typedef struct _SpkVoice SpkVoice;   /* never made: --speak is refused */
#endif

#define EVENT_CAPACITY 256

typedef struct {
  const char *source;
  const char *game;
  const char *players;
  const char *first;
  const char *record;
  const char *calibration;
  const char *resume;
  const char *seats;       /* seat marker numbers, comma-separated */
  const char *history;     /* the history file (NULL: the default) */
  bool no_history;         /* keep no history of this game */
  EngOptions overrides;    /* --option NAME=VALUE, on top of the rules file */
  bool commands;           /* read table commands from standard input */
  double seconds;          /* stop after this much source time; 0 = never */
  double fps;              /* file: frame rate of a folder of images; 0 = 30 */
  long frames;             /* stop after this many frames; 0 = never */
  bool loop;
  bool verbose;            /* each event naming a ruling carries its explanation */
  bool speak;              /* say the announcements aloud (sound card) */
  const char *speak_wav;   /* ... or into this WAV file */
  const char *voice;       /* an espeak-ng voice instead of the table's language */
  long speech_rate;        /* words a minute; 0: the voice's default */
  VisCameraControls controls;  /* --focus, --exposure, --anti-flicker (cameras) */
} WatchArgs;

/* The one piece of process state: a signal handler can reach nothing else.
 * Ctrl+C or SIGTERM ends the loop so the record is written once more. */
static volatile sig_atomic_t interrupted;

static void
on_signal (int sig)
{
  (void) sig;
  interrupted = 1;
}

/* The option values as GOptionContext hands them over (owned); WatchArgs
 * points into them. */
typedef struct {
  char *source, *game, *players, *first, *record, *calibration, *resume, *seats, *history;
  char **options;
  char *seconds, *fps, *frames;
  char *speak_wav, *voice, *speech_rate;
  char *focus, *exposure, *anti_flicker;
  gboolean loop, commands, speak, verbose, no_history;
} WatchOptions;

static void
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

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WatchOptions, watch_options_clear)

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

static int
parse_args (int argc, char **argv, WatchOptions *o, WatchArgs *a)
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
  for (char **opt = o->options; opt != NULL && *opt != NULL; opt++)
    {
      g_auto (GStrv) pair = g_strsplit (*opt, "=", 2);
      if (pair[0] == NULL || pair[1] == NULL
          || eng_options_set (&a->overrides, g_strstrip (pair[0]), g_strstrip (pair[1])) != ENG_OK)
        {
          cli_say ("watch", _("--option takes NAME=VALUE, not '%s'"), *opt);
          return 2;
        }
    }
  if ((o->seconds != NULL
       && !cli_parse_double ("watch", "--seconds", o->seconds, CLI_MIN_SECONDS, CLI_MAX_SECONDS, &a->seconds))
      || (o->fps != NULL && !cli_parse_double ("watch", "--fps", o->fps, CLI_MIN_FPS, CLI_MAX_FPS, &a->fps))
      || (o->frames != NULL && !cli_parse_long ("watch", "--frames", o->frames, 1, CLI_MAX_FRAMES, &a->frames))
      || (o->speech_rate != NULL
          && !cli_parse_long ("watch", "--speech-rate", o->speech_rate, 80, 450, &a->speech_rate)))
    return 2;
  if (o->focus != NULL && !vis_camera_focus_parse (o->focus, &a->controls))
    {
      cli_say ("watch", _("--focus takes auto, lock or a focus position from 0 to %d, not '%s'"),
               VIS_CAMERA_FOCUS_MAX, o->focus);
      return 2;
    }
  if (o->exposure != NULL && !vis_camera_exposure_parse (o->exposure, &a->controls))
    {
      cli_say ("watch", _("--exposure takes auto, manual, stickers or a time in milliseconds from 0.1 to %d, not '%s'"),
               VIS_CAMERA_EXPOSURE_MAX / 10, o->exposure);
      return 2;
    }
  if (o->anti_flicker != NULL && !vis_anti_flicker_parse (o->anti_flicker, &a->controls.anti_flicker))
    {
      cli_say ("watch", _("--anti-flicker takes off, 50, 60, auto or camera, not '%s'"), o->anti_flicker);
      return 2;
    }
  if (a->speak && a->speak_wav != NULL)
    {
      cli_say ("watch", "%s", _("--speak and --speak-wav: choose one (the sound card or a file)"));
      return 2;
    }
  if ((o->voice != NULL || o->speech_rate != NULL) && !a->speak && a->speak_wav == NULL)
    {
      cli_say ("watch", "%s", _("--voice and --speech-rate need --speak or --speak-wav"));
      return 2;
    }
#ifndef TABLERO_HAVE_SPEECH
  if (a->speak || a->speak_wav != NULL)
    {
      cli_say ("watch", "%s", _("this tablero-cli was built without speech (meson -Dspeech, libespeak-ng)"));
      return 2;
    }
#endif
  if (a->source == NULL)
    {
      cli_say ("watch", "%s", _("--source SPEC is required"));
      cli_try_help ("watch");
      return 2;
    }
  return -1;
}

static bool
build_setup (const WatchArgs *a, EngSetup *setup)
{
  eng_setup_init (setup);
  g_auto (GStrv) names = g_strsplit (a->players, ",", -1);
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
  if (a->seats != NULL)
    {
      g_auto (GStrv) seats = g_strsplit (a->seats, ",", -1);
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
    }
  setup->first = 0;
  if (a->first != NULL)
    {
      setup->first = -1;
      for (unsigned p = 0; p < setup->n_players; p++)
        if (strcmp (a->first, setup->names[p]) == 0)
          setup->first = (int) p;
      if (setup->first < 0)
        {
          cli_say ("watch", _("--first names nobody in --players: '%s'"), a->first);
          return false;
        }
    }
  return true;
}

/* Table commands typed on standard input (--commands).  Lines are read
 * without blocking the frame loop; a line "@N command" is held until frame
 * N has been refereed, so a recorded session replays its key presses at the
 * same moments.  Reading stops at end of input. */
typedef struct {
  GString *pending;        /* bytes read, not yet a whole line */
  char *held;              /* the next line, waiting for its frame */
  long held_frame;
  bool open;
} CommandInput;

static void
command_input_init (CommandInput *in, bool enabled)
{
  *in = (CommandInput) { .pending = g_string_new (NULL), .held_frame = -1, .open = enabled };
  if (enabled)
    fcntl (STDIN_FILENO, F_SETFL, fcntl (STDIN_FILENO, F_GETFL) | O_NONBLOCK);
}

static void
command_input_clear (CommandInput *in)
{
  g_string_free (in->pending, TRUE);
  g_free (in->held);
}

/* The next command due once `frames_done` frames were refereed, or NULL.
 * The caller owns the returned line. */
static char *
command_input_next (CommandInput *in, long frames_done)
{
  while (in->held == NULL)
    {
      in->held = cli_commands_take_line (in->pending, !in->open, &in->held_frame);
      if (in->held != NULL)
        continue;
      if (!in->open)
        return NULL;
      char buf[256];
      ssize_t n = read (STDIN_FILENO, buf, sizeof buf);
      if (n > 0)
        g_string_append_len (in->pending, buf, n);
      else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        in->open = false;
      else
        return NULL;
    }
  if (in->held_frame >= frames_done)
    return NULL;
  char *line = in->held;
  in->held = NULL;
  return line;
}

/* The journal: the record, with the referee's table notes and corrections
 * (docs/record-format.md), rewritten whole, atomically and durably whenever
 * its text changed: a kill or a power cut leaves the previous or the new
 * file, never half of one, and loses nothing the table was told. */
typedef struct {
  const char *path;        /* NULL: no journal */
  char *written;           /* the text last written */
  char *error;             /* why the last write failed, NULL when it did not */
  bool blocked;            /* a move is held until the journal can be written */
  GString *held;           /* the announcements held meanwhile (JSON lines) */
  HstRecorder *history;    /* stamps the record before it is journaled; NULL: no history */
} Journal;

static void
journal_clear (Journal *journal)
{
  g_clear_pointer (&journal->written, free);
  g_clear_pointer (&journal->error, g_free);
  g_clear_pointer (&journal->history, hst_recorder_free);
  if (journal->held != NULL)
    g_string_free (g_steal_pointer (&journal->held), TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Journal, journal_clear)

static bool
journal_sync (Journal *journal, const EngInterpreter *interp)
{
  if (journal->path == NULL)
    return true;
  char *text = eng_record_write (eng_interpreter_record (interp));
  bool was_failing = journal->error != NULL;
  g_clear_pointer (&journal->error, g_free);
  if (text == NULL)
    {
      journal->error = g_strdup ("out of memory");
      return false;
    }
  if (journal->written != NULL && strcmp (text, journal->written) == 0)
    {
      free (text);
      return true;
    }
  GError *error = NULL;
  gboolean ok = g_file_set_contents_full (journal->path, text, -1,
                                          G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                          0644, &error);
  if (!ok)
    {
      if (!was_failing)   /* said once, not at every retry */
        cli_say ("watch", _("cannot write %s: %s"), journal->path, error->message);
      journal->error = g_strdup (error->message);
      g_error_free (error);
      free (text);
      return false;
    }
  free (journal->written);
  journal->written = text;
  return true;
}

static bool
accepts_a_move (const EngEvents *events)
{
  for (size_t i = 0; i < events->n; i++)
    if (events->items[i].kind == ENG_EVENT_ACCEPTED)
      return true;
  return false;
}

static void
print_journal_status (bool ok, const char *text)
{
  GString *line = g_string_new ("{\"kind\":\"journal\",\"ok\":");
  g_string_append (line, ok ? "true,\"text\":" : "false,\"text\":");
  cli_json_string (line, text, strlen (text));
  printf ("%s}\n", line->str);
  g_string_free (line, TRUE);
}

/* Journal first, announce second: whatever the table has been told is
 * already on disk when a kill or a power cut comes.  A move that cannot be
 * journaled is not announced: the table is told the journal fails, the
 * announcements are held and play waits (the caller feeds no look) until
 * a write succeeds, then they come out in order.  false when the journal
 * could not be written. */
static bool
publish (EngInterpreter *interp, const EngEvents *events, const EngSetup *setup,
         const EngRuleDocs *details, Journal *journal, SpkVoice *voice, long frame, int64_t time_ns)
{
  cli_watch_history_observe (journal->history, interp, events);
  bool ok = journal_sync (journal, interp);
  GString *lines = g_string_new (NULL);
  if (events->n > 0)
    g_string_append_printf (lines, "{\"kind\":\"frame\",\"frame\":%ld,\"time\":%.3f}\n", frame,
                            time_ns / 1e9);
  for (size_t i = 0; i < events->n; i++)
    {
      cli_event_json (lines, &events->items[i], setup, 0, details);
      g_string_append_c (lines, '\n');
    }
  if (!ok && (journal->blocked || accepts_a_move (events)))
    {
      if (!journal->blocked)
        {
          g_autofree char *text = g_strdup_printf ("The game journal %s cannot be written (%s): "
                                                   "the last move is not counted until it can; "
                                                   "play waits", journal->path,
                                                   journal->error ? journal->error : "?");
          print_journal_status (false, text);
        }
      journal->blocked = true;
      if (journal->held == NULL)
        journal->held = g_string_new (NULL);
      g_string_append (journal->held, lines->str);
    }
  else
    {
      if (journal->blocked && ok)
        {
          print_journal_status (true, "The game journal is written again: play on");
          fputs (journal->held->str, stdout);
          g_string_truncate (journal->held, 0);
          journal->blocked = false;
        }
      fputs (lines->str, stdout);
#ifdef TABLERO_HAVE_SPEECH
      /* the same texts as the JSON lines, said as one utterance; held
       * announcements that come out late are out of date and not said */
      if (voice != NULL)
        {
          SpkPriority priority;
          g_autofree char *utterance = spk_events_utterance (events, &priority);
          spk_voice_say (voice, utterance, priority);
        }
#endif
    }
  g_string_free (lines, TRUE);
  fflush (stdout);
  return ok;
}

/* Runs one line of --commands input.  A line the referee cannot take is
 * reported on stderr and changes nothing. */
static void
run_command_line (EngInterpreter *interp, const EngCardSet *set, const EngSetup *setup,
                  const char *line, EngEvents *events)
{
  CliCommand cmd;
  g_autofree char *why = NULL;
  if (!cli_command_parse (line, set, setup, &cmd, &why))
    {
      cli_say ("watch", "%s", why);
      return;
    }
  EngStatus st;
  if (cmd.kind == CLI_COMMAND_CORRECT)
    st = eng_interpreter_correct_card (interp, cmd.seen, cmd.actual[0] ? cmd.actual : NULL, events);
  else if (cmd.kind == CLI_COMMAND_CHOOSE)
    st = eng_interpreter_choose_player (interp, cmd.player, events);
  else
    st = eng_interpreter_command (interp, cmd.id, events);
  if (st == ENG_ERR_NOT_FOUND)
    cli_say ("watch", _("'%s': no such command in this game's card set"), line);
  else if (st == ENG_ERR_STATE)
    cli_say ("watch", _("'%s': nobody is being asked to choose now"), line);
  else if (st == ENG_ERR_INVALID_ARGUMENT)
    cli_say ("watch", _("'%s': not two faces of the same deck"), line);
  else if (st != ENG_OK)
    cli_say ("watch", "'%s': %s", line, eng_status_to_string (st));
}

static void
print_status (int64_t time_ns, const char *text)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_string_printf (line, "{\"kind\":\"status\",\"time\":%.3f,\"text\":", time_ns / 1e9);
  cli_json_cstring (line, text);
  printf ("%s}\n", line->str);
}

/* --exposure stickers: the time follows the stickers of this frame; where
 * it settles, or that it cannot go further, is said once each time. */
static void
say_exposure (VisExposureMeter *meter, VisSource *source, VisCameraControls *controls, const VisFrame *frame,
              const VisDetectResult *seen, VisExposureVerdict *said)
{
  VisExposureReading r;
  if (!controls->meter_stickers || controls->exposure != VIS_EXPOSURE_MANUAL)
    return;
  vis_exposure_meter_serve (meter, source, controls, frame, seen->detections, seen->n_detections, &r);
  if (r.verdict != VIS_EXPOSURE_WELL && r.verdict != VIS_EXPOSURE_AT_LIMIT)
    {
      if (r.verdict != VIS_EXPOSURE_SETTLING && r.verdict != VIS_EXPOSURE_NO_STICKERS)
        *said = r.verdict;
      return;
    }
  if (r.verdict == *said)
    return;
  *said = r.verdict;
  char text[160];
  if (r.verdict == VIS_EXPOSURE_WELL)
    g_snprintf (text, sizeof text, "exposure set by the stickers: %.1f ms", r.time / 10.0);
  else
    g_snprintf (text, sizeof text, "exposure set by the stickers: %.1f ms, as far as it goes (%.0f%% of a "
                "sticker's white washed out)", r.time / 10.0, 100.0 * r.clipped);
  print_status (frame->timestamp_ns, text);
}

/* The voice --speak or --speak-wav asks for; NULL without them, or after
 * saying on stderr why it cannot speak (*failed set: exit 2). */
static SpkVoice *
open_voice (const WatchArgs *a, bool *failed)
{
  *failed = false;
#ifdef TABLERO_HAVE_SPEECH
  if (!a->speak && a->speak_wav == NULL)
    return NULL;
  GError *error = NULL;
  SpkVoice *voice = spk_voice_new (a->speak ? SPK_OUTPUT_SOUND : SPK_OUTPUT_WAV, NULL, a->speak_wav,
                                   &error);
  bool made = voice != NULL;
  if (voice != NULL && a->voice != NULL && !spk_voice_set_voice (voice, a->voice, &error))
    g_clear_pointer (&voice, spk_voice_free);
  if (voice != NULL && a->speech_rate > 0 && !spk_voice_set_rate (voice, (int) a->speech_rate, &error))
    g_clear_pointer (&voice, spk_voice_free);
  if (voice == NULL)
    {
      if (made && a->speak_wav != NULL)
        g_unlink (a->speak_wav);   /* the empty file made for a voice then refused */
      cli_say ("watch", "%s: %s", a->speak ? "--speak" : "--speak-wav", error->message);
      g_error_free (error);
      *failed = true;
    }
  return voice;
#else
  (void) a;
  return NULL;
#endif
}

/* A voice that stopped speaking (no sound card, a full disk) is said once
 * as a status line; the referee goes on in writing. */
static void
check_voice (SpkVoice *voice, bool *reported, int64_t time_ns)
{
#ifdef TABLERO_HAVE_SPEECH
  GError *error = NULL;
  if (voice == NULL || *reported || spk_voice_check (voice, &error))
    return;
  g_autofree char *text = g_strdup_printf ("speech stopped: %s", error->message);
  print_status (time_ns, text);
  g_error_free (error);
  *reported = true;
#else
  (void) voice, (void) reported, (void) time_ns;
#endif
}

static void
close_voice (SpkVoice *voice)
{
#ifdef TABLERO_HAVE_SPEECH
  spk_voice_free (voice);
#else
  (void) voice;
#endif
}

int
cli_cmd_watch (int argc, char **argv)
{
  g_auto (WatchOptions) options = { 0 };
  WatchArgs a;
  int rc = parse_args (argc, argv, &options, &a);
  if (rc >= 0)
    return rc;
  EngSetup setup;
  if (!build_setup (&a, &setup))
    return 2;

  char why[512] = "";
  EngSession *session = NULL;
  EngStatus status;
  if (a.resume != NULL)
    {
      status = eng_session_resume (a.resume, &session, why, sizeof why);
      if (a.record == NULL)
        a.record = a.resume;
    }
  else
    status = eng_session_new (a.game, &setup, &a.overrides, (uint64_t) g_get_real_time (), &session,
                              why, sizeof why);
  if (status != ENG_OK)
    {
      cli_say ("watch", "%s", why);
      return 2;
    }
  if (a.resume != NULL)
    {
      /* a journal of another game or table than the one asked for is said,
       * not taken silently */
      const EngSetup *journaled = eng_game_setup (eng_session_game (session));
      const char *journal_game = eng_game_class (eng_session_game (session))->name;
      bool other_table = options.players != NULL && journaled->n_players != setup.n_players;
      for (unsigned p = 0; options.players != NULL && !other_table && p < setup.n_players; p++)
        other_table = !eng_names_same (journaled->names[p], setup.names[p]);
      if ((options.game != NULL && strcmp (options.game, journal_game) != 0) || other_table)
        {
          GString *names = g_string_new (NULL);
          for (unsigned p = 0; p < journaled->n_players; p++)
            g_string_append_printf (names, "%s%s", p ? "," : "", journaled->names[p]);
          const char *asked = options.game != NULL ? options.game : journal_game;
          if (options.players != NULL)
            cli_say ("watch", _("%s is a game of %s for %s, not the %s for %s asked for: leave out "
                                "--game and --players to go on with it, or start a new record"),
                     a.resume, journal_game, names->str, asked, options.players);
          else
            cli_say ("watch", _("%s is a game of %s for %s, not the %s asked for: leave out "
                                "--game and --players to go on with it, or start a new record"),
                     a.resume, journal_game, names->str, asked);
          g_string_free (names, TRUE);
          eng_session_free (session);
          return 2;
        }
      setup = *journaled;
      a.game = journal_game;
      g_autofree char *text = g_strdup_printf ("resumed %zu moves from %s",
                                               eng_interpreter_record (eng_session_interpreter (session))->n_moves,
                                               a.resume);
      print_status (0, text);
    }

  /* Journal first, for the first word too: the journal is written (and the
   * temporary files of a write killed last time removed) before the table
   * is told anything; a journal that cannot be written is an error now,
   * not after the first move. */
  g_auto (Journal) journal = { .path = a.record,
                              .history = a.no_history ? NULL : hst_recorder_new (a.history) };
  if (a.record != NULL)
    {
      eng_session_clean_journal_leftovers (a.record);
      if (!journal_sync (&journal, eng_session_interpreter (session)))
        {
          eng_session_free (session);
          return 2;
        }
    }

  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", a.game);
  g_autofree char *zones_path = cli_data_path (zones_name);
  /* only stickers sealed with this table's printing of the set are read;
   * the demo paints its stickers with the same printing */
  g_autoptr (GError) printing_error = NULL;
  EngPrinting *printing = prt_store_printing (eng_session_card_set (session), &printing_error);
  if (printing == NULL)
    {
      cli_say ("watch", "%s", printing_error->message);
      eng_session_free (session);
      return 2;
    }
  CalObserverOptions oopts = { .calibration_path = a.calibration, .printing = printing };
  if (g_file_test (zones_path, G_FILE_TEST_EXISTS))
    oopts.zones_path = zones_path;
  CalObserver *observer = NULL;
  EngParseError perr = { "" };
  status = cal_observer_new (&oopts, &observer, &perr);
  if (status != ENG_OK)
    {
      fprintf (stderr, "tablero-cli watch: %s:%u: %s\n", perr.source, perr.line,
               perr.reason[0] ? perr.reason : eng_status_to_string (status));
      eng_printing_free (printing);
      eng_session_free (session);
      return 2;
    }

  /* the demo table plays the game's own demo */
  VisSourceOptions sopts = { .loop = a.loop, .fps = a.fps, .game = a.game, .controls = a.controls,
                             .printing = printing };
  VisSource *source = NULL;
  VisSourceError serr = { "" };
  VisSourceStatus sst = vis_source_open (a.source, &sopts, &source, &serr);
  if (sst != VIS_SOURCE_OK)
    {
      cli_say ("watch", "%s", serr.message[0] ? serr.message : vis_source_status_to_string (sst));
      cal_observer_free (observer);
      eng_printing_free (printing);
      eng_session_free (session);
      return sst == VIS_SOURCE_NO_CAMERA ? 1 : 2;
    }

  /* the controls a camera lacks or refused, said once (one line each) */
  g_auto (GStrv) skipped = g_strsplit (vis_source_controls_report (source), "\n", -1);
  for (char **line = skipped; *line != NULL; line++)
    if (**line != '\0')
      {
        g_autofree char *text = g_strdup_printf ("camera controls: %s", *line);
        print_status (0, text);
      }

  bool voice_failed, voice_reported = false;
  SpkVoice *voice = open_voice (&a, &voice_failed);
  if (voice_failed)
    {
      vis_source_close (source);
      cal_observer_free (observer);
      eng_printing_free (printing);
      eng_session_free (session);
      return 2;
    }

  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  EngSnapshot *snapshot = g_new0 (EngSnapshot, 1);
  EngEvent *storage = g_new0 (EngEvent, EVENT_CAPACITY);
  EngInterpreter *interp = eng_session_interpreter (session);
  EngGame *game = eng_session_game (session);
  unsigned calibrations = 0;
  bool said_old_format = false, said_wrong_seal = false;
  char last_doubles[256] = "";
  /* --exposure stickers (NULL when memory is short: the time stays put) */
  VisExposureMeter *meter = vis_exposure_meter_new ();
  VisExposureVerdict exposure_said = VIS_EXPOSURE_NO_STICKERS;
  long frames = 0;
  int64_t first_ns = -1;
  int exit_code = 0;
  CommandInput commands;
  command_input_init (&commands, a.commands);
  /* --verbose: the details behind each event's plain words */
  EngRuleDocs *details = a.verbose ? eng_rule_docs_load_game (a.game) : NULL;

  while (!interrupted && !eng_game_is_over (game))
    {
      VisFrame frame;
      sst = vis_source_read (source, &frame, &serr);
      if (sst == VIS_SOURCE_AGAIN)
        continue;
      if (sst == VIS_SOURCE_END)
        break;
      if (sst == VIS_SOURCE_DISCONNECTED)
        {
          print_status (0, "camera disconnected; waiting for it");
          g_usleep (200000);
          continue;
        }
      if (!vis_source_status_has_frame (sst))
        {
          cli_say ("watch", "%s", serr.message[0] ? serr.message : vis_source_status_to_string (sst));
          exit_code = 2;
          if (sst == VIS_SOURCE_ERR_FORMAT)
            continue;   /* one bad image in a folder: go on with the next */
          break;
        }
      if (sst == VIS_SOURCE_RECONNECTED)
        print_status (frame.timestamp_ns, "camera reconnected");
      if (first_ns < 0)
        first_ns = frame.timestamp_ns;
      frames++;

      bool changed = false;
      if (cal_observer_process (observer, &frame.image, frame.timestamp_ns, snapshot, &changed) != ENG_OK)
        continue;
      char doubles[256];
      cal_observation_describe_doubles (cal_observer_observation (observer), doubles, sizeof doubles);
      if (strcmp (doubles, last_doubles) != 0)
        {
          /* Said when it starts and when it ends, not every frame. */
          print_status (frame.timestamp_ns, doubles[0] ? doubles : "no doubled sticker in view any more");
          g_strlcpy (last_doubles, doubles, sizeof last_doubles);
        }
      /* stickers that are not this table's are said once, without naming
       * the card they claim (it may lie face down) */
      const VisDetectResult *seen = cal_observer_detections (observer);
      if (seen->n_old_format > 0 && !said_old_format)
        {
          print_status (frame.timestamp_ns, "a sticker printed in an older format is in view and is not read: "
                                            "print the stickers again with tablero-cli stickers");
          said_old_format = true;
        }
      if (seen->n_wrong_seal > 0 && !said_wrong_seal)
        {
          print_status (frame.timestamp_ns, "a sticker from another printing or made by hand is in view and is "
                                            "not taken as a card: its seal is not this table's");
          said_wrong_seal = true;
        }
      say_exposure (meter, source, &a.controls, &frame, seen, &exposure_said);
      if (cal_observer_calibrations (observer) != calibrations)
        {
          print_status (frame.timestamp_ns, calibrations == 0 ? "table calibrated from the anchors"
                                                               : "camera or table moved: recalibrated");
          calibrations = cal_observer_calibrations (observer);
        }
      EngEvents events;
      /* play waits while a move is held for the journal: no look is read
       * until it can be written again */
      bool waiting = false;
      if (journal.blocked)
        {
          eng_events_init (&events, storage, EVENT_CAPACITY);
          waiting = !publish (interp, &events, &setup, details, &journal, voice, frames - 1, frame.timestamp_ns);
        }
      /* a look the referee waits on after a resume is fed again each
       * frame: a still table sends no new one */
      if ((changed || eng_interpreter_wants_looks (interp)) && !waiting)
        {
          eng_events_init (&events, storage, EVENT_CAPACITY);
          eng_interpreter_feed (interp, snapshot, &events);
          publish (interp, &events, &setup, details, &journal, voice, frames - 1, frame.timestamp_ns);
        }
      for (char *line; !waiting && (line = command_input_next (&commands, frames)) != NULL;
           g_free (line))
        {
          eng_events_init (&events, storage, EVENT_CAPACITY);
          run_command_line (interp, eng_session_card_set (session), &setup, line, &events);
          publish (interp, &events, &setup, details, &journal, voice, frames - 1, frame.timestamp_ns);
        }
      check_voice (voice, &voice_reported, frame.timestamp_ns);
      if (a.frames > 0 && frames >= a.frames)
        break;
      if (a.seconds > 0 && (frame.timestamp_ns - first_ns) / 1e9 >= a.seconds)
        break;
    }

  /* the exit status says how the journal ends, not how it once failed: a
   * move still held, or a last write that fails, is an error */
  EngEvents none;
  eng_events_init (&none, storage, EVENT_CAPACITY);
  if (journal.blocked)
    publish (interp, &none, &setup, details, &journal, voice, frames - 1, 0);
  /* the game, finished or left after its first move, joins the history */
  cli_watch_history_finish (journal.history, interp);
  g_clear_pointer (&journal.history, hst_recorder_free);
  if (!journal_sync (&journal, interp) || journal.blocked)
    exit_code = 2;
  if (calibrations == 0 && exit_code == 0)
    {
      cli_say ("watch", "%s", _("the four table anchors were never seen; nothing refereed"));
      exit_code = 1;
    }
  /* the last sentence is said (or written) before the referee leaves */
  close_voice (voice);
  command_input_clear (&commands);
  eng_rule_docs_free (details);
  g_free (storage);
  g_free (snapshot);
  vis_source_close (source);
  vis_exposure_meter_free (meter);
  cal_observer_free (observer);
  eng_printing_free (printing);
  eng_session_free (session);
  return exit_code;
}
