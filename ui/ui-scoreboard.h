/* ui-scoreboard.h: players, scores, captured cats, whose turn and what
 * phase.  Shows only public facts: captured cats lie face up (K11). */
#pragma once

#include <gtk/gtk.h>

#include "ui-referee.h"

G_BEGIN_DECLS

#define UI_TYPE_SCOREBOARD (ui_scoreboard_get_type ())
G_DECLARE_FINAL_TYPE (UiScoreboard, ui_scoreboard, UI, SCOREBOARD, GtkBox)

GtkWidget *ui_scoreboard_new (void);

/* Follows `referee` (a new reference is kept; NULL clears the board). */
void ui_scoreboard_set_referee (UiScoreboard *self, UiReferee *referee);

G_END_DECLS
