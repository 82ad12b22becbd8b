/* ui-report.h: a readable report of a game (Markdown), for "Export…".
 *
 * Plain input in, text out: the referee gathers the facts (ui_referee_
 * dup_report), this lays them out.  Pure GLib, tested without a display.
 */
#pragma once

#include <glib.h>

#include "eng-game.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;
  unsigned seat;          /* seat marker, 0 when none */
  int score;
  const char *captured;   /* the player's places and status (ui_referee_dup_captured) */
} UiReportPlayer;

typedef struct {
  const char *game_title;          /* the class's title */
  const char *status;              /* "Bea's turn · playing", "Game over: ..." */
  const char *when;                /* date and time of the export */
  const UiReportPlayer *players;
  unsigned n_players;
  const EngOptions *options;       /* the switches in force (NULL: none) */
  const EngOptions *defaults;      /* the rules file's, to mark what differs; may be NULL */
  const char *const *corrections;  /* "seen -> actual" lines, NULL-terminated, may be NULL */
  const char *const *moves;        /* accepted moves in words, oldest first */
  const char *const *announcements;/* everything the referee said, oldest first */
  const char *record;              /* the game record text (docs/record-format.md) */
} UiReportInput;

/* The report as Markdown (newly allocated, g_free).  NULL members are
 * left out; never fails. */
char *ui_report_build (const UiReportInput *in);

G_END_DECLS
