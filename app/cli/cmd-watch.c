/* tablero-cli watch: the live referee without a window.  Frames from a
 * source go through the same observer and session as the app; every
 * announcement is printed as one JSON object a line. */
#include "cli.h"

#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal-observer.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "eng-session.h"
#include "vis-source.h"

#define EVENT_CAPACITY 256

typedef struct {
  const char *source;
  const char *game;
  const char *players;
  const char *first;
  const char *record;
  const char *calibration;
  const char *resume;
  double seconds;          /* stop after this much source time; 0 = never */
  double fps;              /* file: frame rate of a folder of images; 0 = 30 */
  long frames;             /* stop after this many frames; 0 = never */
  bool loop;
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

static void
usage (void)
{
  fprintf (stderr,
           "usage: tablero-cli watch --source SPEC --game katua [--players A,B[,C,D]] [--first NAME]\n"
           "                         [--record FILE] [--resume FILE] [--calibration FILE]\n"
           "                         [--seconds S] [--frames N] [--fps F] [--loop]\n"
           "Referees the table seen by SPEC (demo, camera[:N], v4l2:/dev/videoN, file:PATH)\n"
           "and prints each announcement as a JSON line.  --record keeps the game record\n"
           "up to date after every accepted move; --resume FILE goes on with the game a\n"
           "killed referee left in FILE (and keeps journaling there unless --record says\n"
           "otherwise).\n");
}

static int
parse_args (int argc, char **argv, WatchArgs *a)
{
  *a = (WatchArgs) { .game = "katua", .players = "Ana,Bea" };
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *next = i + 1 < argc ? argv[i + 1] : NULL;
      if (strcmp (arg, "--loop") == 0)
        {
          a->loop = true;
          continue;
        }
      if (next == NULL)
        {
          fprintf (stderr, "tablero-cli watch: %s needs a value\n", arg);
          return 2;
        }
      if (strcmp (arg, "--source") == 0)
        a->source = next;
      else if (strcmp (arg, "--game") == 0)
        a->game = next;
      else if (strcmp (arg, "--players") == 0)
        a->players = next;
      else if (strcmp (arg, "--first") == 0)
        a->first = next;
      else if (strcmp (arg, "--record") == 0)
        a->record = next;
      else if (strcmp (arg, "--calibration") == 0)
        a->calibration = next;
      else if (strcmp (arg, "--resume") == 0)
        a->resume = next;
      else if (strcmp (arg, "--seconds") == 0)
        a->seconds = g_ascii_strtod (next, NULL);
      else if (strcmp (arg, "--fps") == 0)
        a->fps = g_ascii_strtod (next, NULL);
      else if (strcmp (arg, "--frames") == 0)
        a->frames = strtol (next, NULL, 10);
      else
        {
          fprintf (stderr, "tablero-cli watch: unknown option '%s'\n", arg);
          return 2;
        }
      i++;
    }
  if (a->source == NULL)
    {
      usage ();
      return 2;
    }
  return 0;
}

static bool
build_setup (const WatchArgs *a, EngSetup *setup)
{
  eng_setup_init (setup);
  g_auto (GStrv) names = g_strsplit (a->players, ",", -1);
  for (char **n = names; *n; n++)
    {
      if (setup->n_players == ENG_MAX_PLAYERS || **n == '\0')
        {
          fprintf (stderr, "tablero-cli watch: --players takes 2 to 4 comma-separated names\n");
          return false;
        }
      g_strlcpy (setup->names[setup->n_players], *n, ENG_NAME_MAX);
      setup->seats[setup->n_players] = (uint8_t) (setup->n_players + 1);
      setup->n_players++;
    }
  setup->first = 0;
  for (unsigned p = 0; a->first != NULL && p < setup->n_players; p++)
    if (strcmp (a->first, setup->names[p]) == 0)
      setup->first = (int) p;
  return true;
}

/* The record is rewritten whole, atomically, after every batch that holds an
 * accepted move: a kill or a power cut leaves the previous or the new file,
 * never half of one. */
static bool
save_record (EngInterpreter *interp, const char *path)
{
  char *text = eng_record_write (eng_interpreter_record (interp));
  if (text == NULL)
    return false;
  GError *error = NULL;
  gboolean ok = g_file_set_contents_full (path, text, -1,
                                          G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                          0644, &error);
  if (!ok)
    {
      fprintf (stderr, "tablero-cli watch: cannot write %s: %s\n", path, error->message);
      g_error_free (error);
    }
  free (text);
  return ok;
}

static void
print_status (int64_t time_ns, const char *text)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_string_printf (line, "{\"kind\":\"status\",\"time\":%.3f,\"text\":", time_ns / 1e9);
  cli_json_cstring (line, text);
  printf ("%s}\n", line->str);
}

int
cli_cmd_watch (int argc, char **argv)
{
  WatchArgs a;
  int rc = parse_args (argc, argv, &a);
  if (rc != 0)
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
    status = eng_session_new (a.game, &setup, NULL, (uint64_t) g_get_real_time (), &session, why,
                              sizeof why);
  if (status != ENG_OK)
    {
      fprintf (stderr, "tablero-cli watch: %s\n", why);
      return 2;
    }
  if (a.resume != NULL)
    {
      setup = *eng_game_setup (eng_session_game (session));
      a.game = eng_game_class (eng_session_game (session))->name;
      g_autofree char *text = g_strdup_printf ("resumed %zu moves from %s",
                                               eng_interpreter_record (eng_session_interpreter (session))->n_moves,
                                               a.resume);
      print_status (0, text);
    }

  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", a.game);
  g_autofree char *zones_path = cli_data_path (zones_name);
  CalObserverOptions oopts = { .calibration_path = a.calibration };
  if (g_file_test (zones_path, G_FILE_TEST_EXISTS))
    oopts.zones_path = zones_path;
  CalObserver *observer = NULL;
  EngParseError perr = { "" };
  status = cal_observer_new (&oopts, &observer, &perr);
  if (status != ENG_OK)
    {
      fprintf (stderr, "tablero-cli watch: %s:%u: %s\n", perr.source, perr.line,
               perr.reason[0] ? perr.reason : eng_status_to_string (status));
      eng_session_free (session);
      return 2;
    }

  VisSourceOptions sopts = { .loop = a.loop, .fps = a.fps };
  VisSource *source = NULL;
  VisSourceError serr = { "" };
  VisSourceStatus sst = vis_source_open (a.source, &sopts, &source, &serr);
  if (sst != VIS_SOURCE_OK)
    {
      fprintf (stderr, "tablero-cli watch: %s\n", serr.message[0] ? serr.message : vis_source_status_to_string (sst));
      cal_observer_free (observer);
      eng_session_free (session);
      return sst == VIS_SOURCE_NO_CAMERA ? 1 : 2;
    }

  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  EngSnapshot *snapshot = g_new0 (EngSnapshot, 1);
  EngEvent *storage = g_new0 (EngEvent, EVENT_CAPACITY);
  EngInterpreter *interp = eng_session_interpreter (session);
  EngGame *game = eng_session_game (session);
  unsigned calibrations = 0;
  long frames = 0;
  int64_t first_ns = -1;
  int exit_code = 0;

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
          fprintf (stderr, "tablero-cli watch: %s\n", serr.message[0] ? serr.message : vis_source_status_to_string (sst));
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
      if (cal_observer_calibrations (observer) != calibrations)
        {
          print_status (frame.timestamp_ns, calibrations == 0 ? "table calibrated from the anchors"
                                                               : "camera or table moved: recalibrated");
          calibrations = cal_observer_calibrations (observer);
        }
      if (changed)
        {
          EngEvents events;
          eng_events_init (&events, storage, EVENT_CAPACITY);
          eng_interpreter_feed (interp, snapshot, &events);
          /* Journal first, announce second: whatever the table has been
           * told is already on disk when a kill or a power cut comes. */
          bool accepted = false;
          for (size_t i = 0; i < events.n; i++)
            accepted |= events.items[i].kind == ENG_EVENT_ACCEPTED;
          if (accepted && a.record != NULL && !save_record (interp, a.record))
            exit_code = 2;
          if (events.n > 0)
            printf ("{\"kind\":\"frame\",\"frame\":%ld,\"time\":%.3f}\n", frames - 1,
                    frame.timestamp_ns / 1e9);
          for (size_t i = 0; i < events.n; i++)
            {
              char line[1024];
              eng_event_to_json (&events.items[i], &setup, 0, line, sizeof line);
              printf ("%s\n", line);
            }
          fflush (stdout);
        }
      if (a.frames > 0 && frames >= a.frames)
        break;
      if (a.seconds > 0 && (frame.timestamp_ns - first_ns) / 1e9 >= a.seconds)
        break;
    }

  if (a.record != NULL && !save_record (interp, a.record))
    exit_code = 2;
  if (calibrations == 0 && exit_code == 0)
    {
      fprintf (stderr, "tablero-cli watch: the four table anchors were never seen; nothing refereed\n");
      exit_code = 1;
    }
  g_free (storage);
  g_free (snapshot);
  vis_source_close (source);
  cal_observer_free (observer);
  eng_session_free (session);
  return exit_code;
}
