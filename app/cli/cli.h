/* cli.h: the tablero-cli subcommands.  Each returns the process exit status.
 * Conventions: results on stdout (JSON lines where machine-readable),
 * diagnostics on stderr as "tablero-cli CMD: reason"; exit 0 success,
 * 1 a negative result (illegal move, invalid tag), 2 bad usage or input. */
#pragma once

#include <glib.h>
#include <string.h>
#include "eng-game.h"
#include "eng-i18n.h"
#include "eng-rule-docs.h"

/* The CLI's own words (diagnostics, usage, --help) in the table's language,
 * from the engine's "tablero" domain (eng-i18n.h), so no textdomain() is
 * needed.  Only what a person reads is marked: the "tablero-cli CMD: "
 * prefix, option and command names, JSON and every file format stay as
 * they are, since programs and tests parse them.  N_ marks a text that is
 * translated later: GOptionContext translates option descriptions in the
 * "tablero" domain (cli_parse_options). */
#define _(s) ENG_ (s)
#define N_(s) ENG_N_ (s)

int cli_cmd_tag (int argc, char **argv);
int cli_cmd_stickers (int argc, char **argv);
int cli_cmd_replay (int argc, char **argv);
int cli_cmd_bench (int argc, char **argv);
int cli_bench_engine (int argc, char **argv);
int cli_cmd_history (int argc, char **argv);
int cli_bench_history (int argc, char **argv);
int cli_bench_vision (int argc, char **argv);   /* only with vision */
int cli_cmd_scan (int argc, char **argv);       /* only with vision */
int cli_cmd_render (int argc, char **argv);     /* only with vision */
int cli_cmd_watch (int argc, char **argv);      /* only with vision */
int cli_cmd_scene (int argc, char **argv);      /* only with vision */
int cli_bench_latency (int argc, char **argv);  /* only with vision */

/* Absolute path of `relative` inside Tablero's data/ directory, as
 * eng_data_dir() finds it (engine/base/eng-data.h).  Returns a newly allocated string (g_free). */
char *cli_data_path (const char *relative);

/* The card set file of a registry name (data/cards/NAME.set); newly
 * allocated; NULL (and a message on stderr) for an unknown game. */
char *cli_card_set_path (const char *game);

/* The registered rules of a game name, or NULL with a message on stderr
 * naming the games the registry knows. */
const EngGameClass *cli_game_class (const char *game);

/* The game a tag's game letter names (its set's letter), NULL for a letter no
 * bundled set uses.  Static string. */
const char *cli_game_for_letter (char letter);
/* The game a command plays when none is given: the registry's first. */
const char *cli_default_game (void);

/* Appends `len` bytes of `s` as a JSON string (quotes included), written by
 * json-glib (quotes, backslashes and control bytes escaped; bytes that are
 * not UTF-8 replaced by U+FFFD), so any input keeps the line valid.  Every
 * string tablero-cli writes into JSON goes through here. */
void cli_json_string (GString *out, const char *s, size_t len);

/* The same for a NUL-terminated string. */
static inline void
cli_json_cstring (GString *out, const char *s)
{
  cli_json_string (out, s, strlen (s));
}

/* One event as its JSON line (eng_event_to_json, no newline) appended to
 * `out`.  With `details` (--verbose: the game's rules in the table's
 * language, eng_rule_docs_load_game), an event naming a ruling also
 * carries its "rule_title" and "explanation": the details behind the
 * plain "text", for who asks.  The public fields never change. */
void cli_event_json (GString *out, const EngEvent *event, const EngSetup *setup, unsigned line,
                     const EngRuleDocs *details);

/* `text` made safe to print: control bytes and terminal escapes written as
 * \xNN (eng_escape_text).  Newly allocated (g_free). */
char *cli_escape (const char *text);

/* Option values.  Each parses the whole of `text` as the value of option
 * `name` of the command `cmd` ("watch", "bench engine"), within [min, max]
 * inclusive.  On success sets *out and returns TRUE; otherwise leaves *out
 * alone, prints "tablero-cli CMD: NAME takes ... from MIN to MAX, not 'TEXT'"
 * (TEXT escaped; the words after the colon in the table's language) on stderr and returns FALSE: the caller exits with 2.
 * Decimals use a point whatever the locale; inf, nan, empty text, trailing
 * junk and values that overflow are refused. */
gboolean cli_parse_double (const char *cmd, const char *name, const char *text, double min, double max,
                           double *out);
gboolean cli_parse_long (const char *cmd, const char *name, const char *text, long min, long max,
                         long *out);
/* The ranges every command checks its options against. */
#define CLI_MIN_FPS 0.1
#define CLI_MAX_FPS 1000.0
#define CLI_MIN_SECONDS 0.001
#define CLI_MAX_SECONDS 604800.0     /* a week of play */
#define CLI_MAX_FRAMES 1000000000L   /* a year of frames at 30 fps */

/* "1920x1080": a frame size the renderer can draw (64..16384 a side) for
 * `--size`; FALSE after saying on stderr what is wrong with which side. */
gboolean cli_parse_frame_size (const char *cmd, const char *spec, int *width, int *height);

/* Seeds and other unbounded counts: any whole number 0 to G_MAXUINT64. */
gboolean cli_parse_uint64 (const char *cmd, const char *name, const char *text, guint64 *out);

/* Parses the options of command `cmd` ("watch", "bench engine") with
 * GOptionContext, so --x=y and --x y, -h/--help and errors behave alike in
 * every command.  `params` names the positional arguments ("IMAGE..."),
 * `description` ends the help.  Values are taken as
 * G_OPTION_ARG_FILENAME (the bytes as given: a G_OPTION_ARG_STRING would
 * refuse a UTF-8 name like "José" under the C locale) and numbers checked
 * with cli_parse_double() and friends afterwards.  On return *argc and *argv
 * hold argv[0] and the positional arguments.  Returns -1 to go on; 0 after
 * printing the help on stdout; 2 after a usage error on stderr (escaped,
 * naming the option). */
int cli_parse_options (const char *cmd, const char *params, const char *description,
                       const GOptionEntry *entries, int *argc, char ***argv);

/* Prints "Try 'tablero-cli CMD --help'." (translated) on stderr, after a
 * usage error. */
void cli_try_help (const char *cmd);

/* The table's printing of a bundled game's set (app/printing: its key made
 * on first need); NULL after saying why on stderr (exit 2).  Free with
 * eng_printing_free. */
struct EngPrinting *cli_printing_for_game (const char *cmd, const char *game);
/* The same for every registered game's set at once (photos of any game's
 * stickers); NULL after saying why. */
struct EngPrinting *cli_printing_for_every_game (const char *cmd);
#ifdef TABLERO_HAVE_VISION
#include "vis-render.h"
/* Seals the stickers `scene` paints with the table's printing of the
 * bundled set of its game letter: *out receives that printing (free it after
 * the scene's renderers), NULL when no bundled game uses the letter (the
 * stickers are then painted unsealed).  FALSE after saying why on stderr. */
gboolean cli_printing_for_scene (const char *cmd, VisScene *scene, struct EngPrinting **out);
#endif

/* Prints "tablero-cli CMD: MESSAGE" and a newline on stderr, the formatted
 * message escaped as a whole (cli_escape), so a file name, a player's name
 * or a line typed at the table never reaches the terminal as control bytes.
 * For one-line messages. */
void cli_say (const char *cmd, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
