/* ui-score-chart.h: how a game went, drawn (the History page).
 *
 * One line per player: the score after every turn, hand or trick the game
 * counted (HstGame.checkpoints), against the moves made; for a game
 * without points who was still in.  Drawn with cairo
 * in the colours of the style (light or dark), axis titles and the legend
 * in the table's language.  Keeps its own copy of what it draws.
 */
#pragma once

#include <gtk/gtk.h>

#include "hst-game.h"

G_BEGIN_DECLS

#define UI_TYPE_SCORE_CHART (ui_score_chart_get_type ())
G_DECLARE_FINAL_TYPE (UiScoreChart, ui_score_chart, UI, SCORE_CHART, GtkWidget)

GtkWidget *ui_score_chart_new (void);

/* Draws `game` (NULL: nothing). */
void ui_score_chart_set_game (UiScoreChart *self, const HstGame *game);

/* The line colour of seat `seat` (0-based) as "#rrggbb", light or dark
 * style: the players' lists use the same colours as the chart. */
const char *ui_score_chart_seat_colour (guint seat, gboolean dark);

G_END_DECLS
