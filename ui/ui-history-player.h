/* ui-history-player.h: one player's record across the history: games
 * played and won per game with the win rate, average and best score;
 * head to head against each other player; and the rules they were
 * refused by most, each with its plain explanation (data/rules/GAME.rules
 * in the table's language): what to practise. */
#pragma once

#include <gtk/gtk.h>

#include "hst-store.h"

G_BEGIN_DECLS

#define UI_TYPE_HISTORY_PLAYER (ui_history_player_get_type ())
G_DECLARE_FINAL_TYPE (UiHistoryPlayer, ui_history_player, UI, HISTORY_PLAYER, GtkWidget)

/* The history to read (borrowed; may be NULL). */
void ui_history_player_set_store (UiHistoryPlayer *self, HstStore *store);

/* Shows the player named exactly `name`; FALSE when nobody is. */
gboolean ui_history_player_show (UiHistoryPlayer *self, const char *name);

G_END_DECLS
