/* tablero-cli watch: the live referee without a window.  Frames from a
 * source go through the same observer and session as the app; every
 * announcement is printed as one JSON object a line.
 *
 * This file is the command's course: open the session (new or resumed),
 * the journal, the observer and the source, then referee frame after frame
 * and finish the journal.  The options, the journal, the typed commands and
 * the status lines and voice live beside it (cmd-watch-private.h). */
#include "cmd-watch-private.h"

#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cal-observer.h"
#include "cli-watch-history.h"
#include "eng-name.h"
#include "prt-store.h"

#define EVENT_CAPACITY 256

/* The one piece of process state: a signal handler can reach nothing else.
 * Ctrl+C or SIGTERM ends the loop so the record is written once more. */
static volatile sig_atomic_t interrupted;

static void
on_signal (int sig)
{
  (void) sig;
  interrupted = 1;
}

/* What the steps of one run share.  Everything the frame loop needs is
 * made before it starts: the loop itself allocates nothing. */
typedef struct {
  WatchArgs a;
  const WatchOptions *options;   /* as typed: to tell a resumed journal from the table asked for */
  EngSetup setup;
  EngSession *session;
  EngInterpreter *interp;        /* the session's */
  EngGame *game;                 /* the session's */
  Journal journal;
  EngPrinting *printing;
  CalObserver *observer;
  VisSource *source;
  VisSourceError serr;           /* the source's last error, said when it has no frame */
  SpkVoice *voice;
  bool voice_reported;
  EngSnapshot *snapshot;
  EngEvent *storage;             /* EVENT_CAPACITY events, reused by each batch */
  EngRuleDocs *details;          /* --verbose: the details behind each event's plain words */
  CommandInput commands;
  VisExposureMeter *meter;       /* --exposure stickers (NULL when memory is short: the time stays put) */
  VisExposureVerdict exposure_said;
  unsigned calibrations;
  bool said_old_format, said_wrong_seal;
  char last_doubles[256];
  long frames;
  int64_t first_ns;
  int exit_code;
} Watch;

/* Frees what was opened, the last opened first.  The voice goes first: the
 * last sentence is said (or written) before the referee leaves. */
static void
watch_clear (Watch *w)
{
  watch_close_voice (w->voice);
  if (w->commands.pending != NULL)
    command_input_clear (&w->commands);
  eng_rule_docs_free (w->details);
  g_free (w->storage);
  g_free (w->snapshot);
  g_clear_pointer (&w->source, vis_source_close);
  vis_exposure_meter_free (w->meter);
  g_clear_pointer (&w->observer, cal_observer_free);
  g_clear_pointer (&w->printing, eng_printing_free);
  g_clear_pointer (&w->session, eng_session_free);
  journal_clear (&w->journal);
}

/* A journal of another game or table than the one asked for is said, not
 * taken silently; false then. */
static bool
resumed_table_is_asked_for (const Watch *w, const EngSetup *journaled, const char *journal_game)
{
  const char *players = w->options->players, *game = w->options->game;
  bool other_table = players != NULL && journaled->n_players != w->setup.n_players;
  for (unsigned p = 0; players != NULL && !other_table && p < w->setup.n_players; p++)
    other_table = !eng_names_same (journaled->names[p], w->setup.names[p]);
  if ((game == NULL || strcmp (game, journal_game) == 0) && !other_table)
    return true;
  GString *names = g_string_new (NULL);
  for (unsigned p = 0; p < journaled->n_players; p++)
    g_string_append_printf (names, "%s%s", p ? "," : "", journaled->names[p]);
  const char *asked = game != NULL ? game : journal_game;
  if (players != NULL)
    cli_say ("watch", _("%s is a game of %s for %s, not the %s for %s asked for: leave out "
                        "--game and --players to go on with it, or start a new record"),
             w->a.resume, journal_game, names->str, asked, players);
  else
    cli_say ("watch", _("%s is a game of %s for %s, not the %s asked for: leave out "
                        "--game and --players to go on with it, or start a new record"),
             w->a.resume, journal_game, names->str, asked);
  g_string_free (names, TRUE);
  return false;
}

/* A new game, or the one --resume names (whose players and game then
 * replace the ones asked for); false after saying why not. */
static bool
open_session (Watch *w)
{
  char why[512] = "";
  EngStatus status;
  if (w->a.resume != NULL)
    {
      status = eng_session_resume (w->a.resume, &w->session, why, sizeof why);
      if (w->a.record == NULL)
        w->a.record = w->a.resume;
    }
  else
    status = eng_session_new (w->a.game, &w->setup, &w->a.overrides, (uint64_t) g_get_real_time (),
                              &w->session, why, sizeof why);
  if (status != ENG_OK)
    {
      cli_say ("watch", "%s", why);
      return false;
    }
  w->interp = eng_session_interpreter (w->session);
  w->game = eng_session_game (w->session);
  if (w->a.resume == NULL)
    return true;
  const EngSetup *journaled = eng_game_setup (w->game);
  const char *journal_game = eng_game_class (w->game)->name;
  if (!resumed_table_is_asked_for (w, journaled, journal_game))
    return false;
  w->setup = *journaled;
  w->a.game = journal_game;
  g_autofree char *text = g_strdup_printf ("resumed %zu moves from %s", eng_interpreter_record (w->interp)->n_moves,
                                           w->a.resume);
  watch_print_status (0, text);
  return true;
}

/* Journal first, for the first word too: the journal is written (and the
 * temporary files of a write killed last time removed) before the table
 * is told anything; a journal that cannot be written is an error now,
 * not after the first move. */
static bool
open_journal (Watch *w)
{
  w->journal = (Journal) { .path = w->a.record,
                           .history = w->a.no_history ? NULL : hst_recorder_new (w->a.history) };
  if (w->a.record == NULL)
    return true;
  eng_session_clean_journal_leftovers (w->a.record);
  return journal_sync (&w->journal, w->interp);
}

/* The observer: the game's zones, and only stickers sealed with this
 * table's printing of the set (the demo paints its stickers with the same
 * printing); false after saying why not. */
static bool
open_observer (Watch *w)
{
  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", w->a.game);
  g_autofree char *zones_path = cli_data_path (zones_name);
  g_autoptr (GError) printing_error = NULL;
  w->printing = prt_store_printing (eng_session_card_set (w->session), &printing_error);
  if (w->printing == NULL)
    {
      cli_say ("watch", "%s", printing_error->message);
      return false;
    }
  CalObserverOptions oopts = { .calibration_path = w->a.calibration, .printing = w->printing };
  if (g_file_test (zones_path, G_FILE_TEST_EXISTS))
    oopts.zones_path = zones_path;
  EngParseError perr = { "" };
  EngStatus status = cal_observer_new (&oopts, &w->observer, &perr);
  if (status != ENG_OK)
    {
      fprintf (stderr, "tablero-cli watch: %s:%u: %s\n", perr.source, perr.line,
               perr.reason[0] ? perr.reason : eng_status_to_string (status));
      return false;
    }
  return true;
}

/* The frames' source (the demo table plays the game's own demo), with the
 * controls a camera lacks or refused said once, one line each.  Returns -1,
 * or the exit status after saying why it cannot open. */
static int
open_source (Watch *w)
{
  VisSourceOptions sopts = { .loop = w->a.loop, .fps = w->a.fps, .game = w->a.game, .controls = w->a.controls,
                             .printing = w->printing };
  VisSourceStatus sst = vis_source_open (w->a.source, &sopts, &w->source, &w->serr);
  if (sst != VIS_SOURCE_OK)
    {
      cli_say ("watch", "%s", w->serr.message[0] ? w->serr.message : vis_source_status_to_string (sst));
      w->source = NULL;
      return sst == VIS_SOURCE_NO_CAMERA ? 1 : 2;
    }
  g_auto (GStrv) skipped = g_strsplit (vis_source_controls_report (w->source), "\n", -1);
  for (char **line = skipped; *line != NULL; line++)
    if (**line != '\0')
      {
        g_autofree char *text = g_strdup_printf ("camera controls: %s", *line);
        watch_print_status (0, text);
      }
  return -1;
}

/* What the loop works in, made once before the first frame. */
static void
prepare_the_loop (Watch *w)
{
  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  w->snapshot = g_new0 (EngSnapshot, 1);
  w->storage = g_new0 (EngEvent, EVENT_CAPACITY);
  w->meter = vis_exposure_meter_new ();
  w->exposure_said = VIS_EXPOSURE_NO_STICKERS;
  w->first_ns = -1;
  command_input_init (&w->commands, w->a.commands);
  w->details = w->a.verbose ? eng_rule_docs_load_game (w->a.game) : NULL;
}

typedef enum { FRAME_READ, FRAME_SKIP, FRAME_STOP } FrameStep;

/* The next frame from the source; a source that stops for a while, or one
 * bad image in a folder, skips; the end of the source or a lasting error
 * stops the loop. */
static FrameStep
read_frame (Watch *w, VisFrame *frame)
{
  VisSourceStatus sst = vis_source_read (w->source, frame, &w->serr);
  if (sst == VIS_SOURCE_AGAIN)
    return FRAME_SKIP;
  if (sst == VIS_SOURCE_END)
    return FRAME_STOP;
  if (sst == VIS_SOURCE_DISCONNECTED)
    {
      watch_print_status (0, "camera disconnected; waiting for it");
      g_usleep (200000);
      return FRAME_SKIP;
    }
  if (!vis_source_status_has_frame (sst))
    {
      cli_say ("watch", "%s", w->serr.message[0] ? w->serr.message : vis_source_status_to_string (sst));
      w->exit_code = 2;
      return sst == VIS_SOURCE_ERR_FORMAT ? FRAME_SKIP : FRAME_STOP;
    }
  if (sst == VIS_SOURCE_RECONNECTED)
    watch_print_status (frame->timestamp_ns, "camera reconnected");
  if (w->first_ns < 0)
    w->first_ns = frame->timestamp_ns;
  w->frames++;
  return FRAME_READ;
}

/* Status lines about what the camera sees, each said when it starts (and
 * doubled stickers when they go), not every frame.  Stickers that are not
 * this table's are said without naming the card they claim: it may lie
 * face down. */
static void
say_what_is_seen (Watch *w, const VisFrame *frame)
{
  char doubles[256];
  cal_observation_describe_doubles (cal_observer_observation (w->observer), doubles, sizeof doubles);
  if (strcmp (doubles, w->last_doubles) != 0)
    {
      watch_print_status (frame->timestamp_ns, doubles[0] ? doubles : "no doubled sticker in view any more");
      g_strlcpy (w->last_doubles, doubles, sizeof w->last_doubles);
    }
  const VisDetectResult *seen = cal_observer_detections (w->observer);
  if (seen->n_old_format > 0 && !w->said_old_format)
    {
      watch_print_status (frame->timestamp_ns, "a sticker printed in an older format is in view and is not read: "
                                               "print the stickers again with tablero-cli stickers");
      w->said_old_format = true;
    }
  if (seen->n_wrong_seal > 0 && !w->said_wrong_seal)
    {
      watch_print_status (frame->timestamp_ns, "a sticker from another printing or made by hand is in view and is "
                                               "not taken as a card: its seal is not this table's");
      w->said_wrong_seal = true;
    }
  watch_say_exposure (w->meter, w->source, &w->a.controls, frame, seen, &w->exposure_said);
  if (cal_observer_calibrations (w->observer) != w->calibrations)
    {
      watch_print_status (frame->timestamp_ns, w->calibrations == 0 ? "table calibrated from the anchors"
                                                                    : "camera or table moved: recalibrated");
      w->calibrations = cal_observer_calibrations (w->observer);
    }
}

/* The batch of events in `events` journaled and announced, as of the frame
 * being refereed. */
static bool
announce (Watch *w, const EngEvents *events, int64_t time_ns)
{
  return watch_publish (w->interp, events, &w->setup, w->details, &w->journal, w->voice, w->frames - 1, time_ns);
}

/* The referee's turn on one frame: a move held for the journal first, then
 * the table's new look, then the commands due by now. */
static void
referee_frame (Watch *w, const VisFrame *frame, bool changed)
{
  EngEvents events;
  /* play waits while a move is held for the journal: no look is read
   * until it can be written again */
  bool waiting = false;
  if (w->journal.blocked)
    {
      eng_events_init (&events, w->storage, EVENT_CAPACITY);
      waiting = !announce (w, &events, frame->timestamp_ns);
    }
  /* a look the referee waits on after a resume is fed again each
   * frame: a still table sends no new one */
  if ((changed || eng_interpreter_wants_looks (w->interp)) && !waiting)
    {
      eng_events_init (&events, w->storage, EVENT_CAPACITY);
      eng_interpreter_feed (w->interp, w->snapshot, &events);
      announce (w, &events, frame->timestamp_ns);
    }
  for (char *line; !waiting && (line = command_input_next (&w->commands, w->frames)) != NULL; g_free (line))
    {
      eng_events_init (&events, w->storage, EVENT_CAPACITY);
      watch_run_command_line (w->interp, eng_session_card_set (w->session), &w->setup, line, &events);
      announce (w, &events, frame->timestamp_ns);
    }
}

/* Frame after frame until the game is over, the source ends, a signal
 * comes, or --frames or --seconds are reached. */
static void
referee_the_table (Watch *w)
{
  while (!interrupted && !eng_game_is_over (w->game))
    {
      VisFrame frame;
      FrameStep step = read_frame (w, &frame);
      if (step == FRAME_STOP)
        break;
      if (step == FRAME_SKIP)
        continue;
      bool changed = false;
      if (cal_observer_process (w->observer, &frame.image, frame.timestamp_ns, w->snapshot, &changed) != ENG_OK)
        continue;
      say_what_is_seen (w, &frame);
      referee_frame (w, &frame, changed);
      watch_check_voice (w->voice, &w->voice_reported, frame.timestamp_ns);
      if (w->a.frames > 0 && w->frames >= w->a.frames)
        break;
      if (w->a.seconds > 0 && (frame.timestamp_ns - w->first_ns) / 1e9 >= w->a.seconds)
        break;
    }
}

/* The exit status says how the journal ends, not how it once failed: a
 * move still held, or a last write that fails, is an error. */
static void
finish (Watch *w)
{
  EngEvents none;
  eng_events_init (&none, w->storage, EVENT_CAPACITY);
  if (w->journal.blocked)
    announce (w, &none, 0);
  /* the game, finished or left after its first move, joins the history */
  cli_watch_history_finish (w->journal.history, w->interp);
  g_clear_pointer (&w->journal.history, hst_recorder_free);
  if (!journal_sync (&w->journal, w->interp) || w->journal.blocked)
    w->exit_code = 2;
  if (w->calibrations == 0 && w->exit_code == 0)
    {
      cli_say ("watch", "%s", _("the four table anchors were never seen; nothing refereed"));
      w->exit_code = 1;
    }
}

/* Opens everything the referee needs, in order; -1 when all is open, or
 * the exit status after saying what failed. */
static int
open_the_table (Watch *w)
{
  if (!watch_build_setup (&w->a, &w->setup) || !open_session (w) || !open_journal (w) || !open_observer (w))
    return 2;
  int rc = open_source (w);
  if (rc >= 0)
    return rc;
  bool voice_failed;
  w->voice = watch_open_voice (&w->a, &voice_failed);
  return voice_failed ? 2 : -1;
}

int
cli_cmd_watch (int argc, char **argv)
{
  g_auto (WatchOptions) options = { 0 };
  Watch w = { .options = &options };
  int rc = watch_parse_args (argc, argv, &options, &w.a);
  if (rc >= 0)
    return rc;
  rc = open_the_table (&w);
  if (rc < 0)
    {
      prepare_the_loop (&w);
      referee_the_table (&w);
      finish (&w);
      rc = w.exit_code;
    }
  watch_clear (&w);
  return rc;
}
