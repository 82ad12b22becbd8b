/* cli-commands.h: the table commands `tablero-cli watch --commands` reads
 * on standard input, one a line: "COMMAND-ID", "choose PLAYER", "correct
 * SEEN ACTUAL|none", each optionally after "@N " (held until frame N has
 * been refereed); blank lines and '#' comments are skipped.  Only the text
 * is read here (engine and GLib, no vision), so tests/fuzz/fuzz-commands.c
 * links it alone; cmd-watch.c reads standard input and runs the commands.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-tag.h"

/* Takes the next command line out of `pending` (bytes read and not yet
 * taken), stripped, without its "@N" (then *frame = N, else -1).  The last
 * line needs no newline once `at_end` (standard input is closed).  A NUL
 * byte in a line is taken as '?', so that line names no command and is
 * refused as such.  Returns the line (g_free) or NULL when no whole line
 * is pending. */
char *cli_commands_take_line (GString *pending, bool at_end, long *frame);

typedef enum {
  CLI_COMMAND_RUN,        /* a command card's id: eng_interpreter_command */
  CLI_COMMAND_CHOOSE,     /* eng_interpreter_choose_player */
  CLI_COMMAND_CORRECT,    /* eng_interpreter_correct_card */
} CliCommandKind;

typedef struct {
  CliCommandKind kind;
  const char *id;                          /* RUN: the line itself (borrowed) */
  int player;                              /* CHOOSE: 0-based seat */
  char seen[ENG_TAG_PAYLOAD_LEN + 1];      /* CORRECT: payloads */
  char actual[ENG_TAG_PAYLOAD_LEN + 1];    /* "" when removing the correction */
} CliCommand;

/* Reads one line taken by cli_commands_take_line, naming cards by face
 * serial in `set` or by payload and players by their names in `setup`.
 * Returns true and fills *out, or false with *why (g_free) saying what is
 * wrong, the line quoted. */
bool cli_command_parse (const char *line, const EngCardSet *set, const EngSetup *setup,
                        CliCommand *out, char **why);
