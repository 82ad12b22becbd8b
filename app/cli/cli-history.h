/* cli-history.h: what the `tablero-cli history` commands share
 * (docs/history.md, "Command line"). */
#pragma once

#include <json-glib/json-glib.h>

#include "hst-store.h"

/* The subcommands (cmd-history-*.c); argv[0] is the subcommand's name. */
int cli_history_list (int argc, char **argv);
int cli_history_show (int argc, char **argv);
int cli_history_stats (int argc, char **argv);
int cli_history_export (int argc, char **argv);
int cli_history_import (int argc, char **argv);
int cli_history_forget (int argc, char **argv);

/* The option every subcommand takes: --db FILE, the history file. */
#define CLI_HISTORY_DB_ENTRY(var)                                                                \
  { "db", 0, 0, G_OPTION_ARG_FILENAME, &(var), N_("The history file (default: history.db in the " \
                                                  "user's data folder, or $TABLERO_HISTORY)"),     \
    N_("FILE") }

/* The filter options list and export take: their values as given. */
typedef struct {
  char *db, *game, *player, *since, *until;
} CliHistoryOptions;

void cli_history_options_clear (CliHistoryOptions *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliHistoryOptions, cli_history_options_clear)

#define CLI_HISTORY_FILTER_ENTRIES(o)                                                                              \
  CLI_HISTORY_DB_ENTRY ((o).db),                                                                                   \
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &(o).game, N_("Only games of GAME"), N_("GAME") },                     \
    { "player", 0, 0, G_OPTION_ARG_FILENAME, &(o).player, N_("Only games NAME played"), N_("NAME") },             \
    { "since", 0, 0, G_OPTION_ARG_FILENAME, &(o).since, N_("Only games ended on or after DATE"), N_("DATE") },     \
    { "until", 0, 0, G_OPTION_ARG_FILENAME, &(o).until, N_("Only games ended on or before DATE"), N_("DATE") }

/* After cli_parse_options: no argument is left over, and the filter's
 * values are good (a known game, dates).  Fills `filter` (pointing into
 * `o`); FALSE after saying what is wrong (exit 2). */
gboolean cli_history_read_filter (const char *cmd, int argc, char **argv, const CliHistoryOptions *o,
                                  HstFilter *filter);

/* FALSE after saying that argv[1] is one argument too many (exit 2). */
gboolean cli_history_no_arguments (const char *cmd, int argc, char **argv);

/* Opens the history at `db` (NULL: the default) for command `cmd`
 * ("history list"): a damaged file set aside is said on stderr and the
 * command goes on with a fresh one.  NULL after saying why (exit 2). */
HstStore *cli_history_open (const char *cmd, const char *db);

/* Says `error` as "tablero-cli CMD: message" and returns 2. */
int cli_history_fail (const char *cmd, const GError *error);

/* A game as a JSON object: id, uid, game, title, started, ended (UTC),
 * finished, moves, players (name, seat, marker, score, won, first),
 * winners; with `full` also options, scores over the game, refusals, the
 * report and the record. */
void cli_history_add_game (JsonBuilder *b, const HstGame *game, gboolean full);

/* Prints the builder's value as one JSON line on stdout. */
void cli_history_print (JsonBuilder *b);

/* A date for --since/--until: "2026-11-28" (local midnight; with
 * `end_of_day`, the midnight after it) or an ISO 8601 time.  FALSE after
 * saying what is wrong (exit 2). */
gboolean cli_history_parse_date (const char *cmd, const char *name, const char *text, gboolean end_of_day,
                                 gint64 *out);

/* Parses a game's id in the history (1 and up); FALSE after saying why. */
gboolean cli_history_parse_id (const char *cmd, const char *text, gint64 *out);
