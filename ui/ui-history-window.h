/* ui-history-window.h: the History page (docs/history.md, "In the window").
 *
 * The games the table played, newest first, filtered by game, player and
 * date (UiHistoryList); a game's page with its score chart, report and
 * record (UiHistoryGame); a player's page (UiHistoryPlayer).  Opened from
 * the main menu and Ctrl+H (app.history).  The window reads the history
 * through a connection of its own, opened when it is, so the referee
 * writing a game meanwhile never waits for it.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_HISTORY_WINDOW (ui_history_window_get_type ())
G_DECLARE_FINAL_TYPE (UiHistoryWindow, ui_history_window, UI, HISTORY_WINDOW, AdwWindow)

/* A new History window over `parent` (may be NULL), on the history file
 * hst_store_default_path names. */
UiHistoryWindow *ui_history_window_new (GtkWindow *parent);

/* Shows "list", "game" (the newest game) or "player" (the newest game's
 * winner, else its first player): what screenshots ask for.  FALSE when
 * there is no such game. */
gboolean ui_history_window_show (UiHistoryWindow *self, const char *page);

G_END_DECLS
