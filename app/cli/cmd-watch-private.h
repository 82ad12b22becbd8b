/* cmd-watch-private.h: the parts of `tablero-cli watch` shared between its
 * files: the options (cmd-watch-args.c), the journal that comes before every
 * announcement (cmd-watch-journal.c), the commands typed on standard input
 * (cmd-watch-commands.c), the status lines and the voice
 * (cmd-watch-output.c), and the referee's loop itself (cmd-watch.c). */
#pragma once

#include "cli.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "eng-session.h"
#include "hst-recorder.h"
#include "vis-exposure.h"
#include "vis-source.h"

#ifdef TABLERO_HAVE_SPEECH
#include "spk-voice.h"
#else
typedef struct _SpkVoice SpkVoice;   /* never made: --speak is refused */
#endif

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

void watch_options_clear (WatchOptions *o);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WatchOptions, watch_options_clear)

/* Reads the command line into *o and *a.  Returns -1 to go on, or the exit
 * status (0 after --help, 2 after saying on stderr what is wrong). */
int watch_parse_args (int argc, char **argv, WatchOptions *o, WatchArgs *a);

/* The players, their seats and who plays first, from --players, --seats
 * and --first; false after saying on stderr what is wrong. */
bool watch_build_setup (const WatchArgs *a, EngSetup *setup);

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

void journal_clear (Journal *journal);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Journal, journal_clear)

/* Writes the record when its text changed; false (said on stderr once per
 * run of failures) when it cannot be written. */
bool journal_sync (Journal *journal, const EngInterpreter *interp);

/* Journals, then prints `events` as JSON lines (and says them); see
 * cmd-watch-journal.c.  false when the journal could not be written. */
bool watch_publish (EngInterpreter *interp, const EngEvents *events, const EngSetup *setup,
                    const EngRuleDocs *details, Journal *journal, SpkVoice *voice, long frame,
                    int64_t time_ns);

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

void command_input_init (CommandInput *in, bool enabled);
void command_input_clear (CommandInput *in);

/* The next command due once `frames_done` frames were refereed, or NULL.
 * The caller owns the returned line. */
char *command_input_next (CommandInput *in, long frames_done);

/* Runs one line of --commands input.  A line the referee cannot take is
 * reported on stderr and changes nothing. */
void watch_run_command_line (EngInterpreter *interp, const EngCardSet *set, const EngSetup *setup,
                             const char *line, EngEvents *events);

/* {"kind":"status","time":T,"text":...} on standard output. */
void watch_print_status (int64_t time_ns, const char *text);

/* --exposure stickers: the time follows the stickers of this frame; where
 * it settles, or that it cannot go further, is said once each time. */
void watch_say_exposure (VisExposureMeter *meter, VisSource *source, VisCameraControls *controls,
                         const VisFrame *frame, const VisDetectResult *seen, VisExposureVerdict *said);

/* The voice --speak or --speak-wav asks for; NULL without them, or after
 * saying on stderr why it cannot speak (*failed set: exit 2). */
SpkVoice *watch_open_voice (const WatchArgs *a, bool *failed);

/* A voice that stopped speaking (no sound card, a full disk) is said once
 * as a status line; the referee goes on in writing. */
void watch_check_voice (SpkVoice *voice, bool *reported, int64_t time_ns);

/* Says what is left to say and frees the voice (NULL: nothing). */
void watch_close_voice (SpkVoice *voice);
