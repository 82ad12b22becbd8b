/* ui-history-game.h: one game of the history: how it went (its score
 * chart, UiScoreChart), the players with their scores and the winners
 * (a player opens their page: history.show-player), the report and the
 * record (hidden faces as '?'). */
#pragma once

#include <gtk/gtk.h>

#include "hst-store.h"

G_BEGIN_DECLS

#define UI_TYPE_HISTORY_GAME (ui_history_game_get_type ())
G_DECLARE_FINAL_TYPE (UiHistoryGame, ui_history_game, UI, HISTORY_GAME, GtkWidget)

/* The history to read (borrowed; may be NULL). */
void ui_history_game_set_store (UiHistoryGame *self, HstStore *store);

/* Shows game `id`; FALSE when the history does not have it. */
gboolean ui_history_game_show (UiHistoryGame *self, gint64 id);

G_END_DECLS
