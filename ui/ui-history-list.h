/* ui-history-list.h: the games played, newest first (the History page's
 * first page), filtered by game, player and time.  A row opens the game's
 * page (history.show-game); the player filter's page button opens the
 * player's (history.show-player): both are the window's actions. */
#pragma once

#include <gtk/gtk.h>

#include "hst-store.h"

G_BEGIN_DECLS

#define UI_TYPE_HISTORY_LIST (ui_history_list_get_type ())
G_DECLARE_FINAL_TYPE (UiHistoryList, ui_history_list, UI, HISTORY_LIST, GtkWidget)

/* The history to list (borrowed; NULL with `why`: it cannot be read, and
 * the page says why). */
void ui_history_list_set_store (UiHistoryList *self, HstStore *store, const char *why);

/* Reads the filters' choices and the games again. */
void ui_history_list_reload (UiHistoryList *self);

/* "Ana 9 (won) · Bea 0", the players of a game as a row shows them
 * (transfer full). */
char *ui_history_list_dup_players (const HstGame *game);

G_END_DECLS
