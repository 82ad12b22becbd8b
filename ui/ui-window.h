/* ui-window.h: the main window.  For now it shows what Tablero would run:
 * the game, the frame source and the version. */
#pragma once

#include <adwaita.h>

#include "ui-referee.h"

G_BEGIN_DECLS

#define UI_TYPE_WINDOW (ui_window_get_type ())
G_DECLARE_FINAL_TYPE (UiWindow, ui_window, UI, WINDOW, AdwApplicationWindow)

/* `game` is a registry name ("katua"), `source` a frame source spec
 * ("demo", "v4l2:/dev/video0"), `players` the names in seat order (NULL
 * terminated); all copied.  The window is owned by GTK's window list. */
UiWindow *ui_window_new (GtkApplication *app, const char *game, const char *source,
                         const char *const *players);

const char *ui_window_get_game (UiWindow *self);
const char *ui_window_get_source (UiWindow *self);

/* How many camera frames the window has shown since it opened. */
guint ui_window_get_frames_shown (UiWindow *self);

/* The referee of the game shown (owned by the window; NULL when none
 * could be started).  For tests and views that follow the game. */
UiReferee *ui_window_get_referee (UiWindow *self);

/* Property "table-mode" (boolean, action win.table-mode, F11): the window
 * fills the screen with the game in large type (UiTableMode). */

/* Property "muted" (boolean): the referee's voice says nothing (the action
 * win.mute, Ctrl+Shift+M and the header's speaker button toggle it). */

G_END_DECLS
