/* ui-application.h: Tablero's AdwApplication.  Owns the command line
 * (--game, --source, --screenshot) and opens one UiWindow; one instance per
 * session (a second launch raises that window; a --screenshot run is its
 * own).  Starts from the game and camera kept in the settings
 * (ui-settings.h), shows the first-run guide once, and has the app-level
 * actions: app.quit (Ctrl+Q), app.shortcuts (Ctrl+?), app.rules (F1, the
 * current game's rules), app.about, app.stickers and app.guide. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_APPLICATION (ui_application_get_type ())
G_DECLARE_FINAL_TYPE (UiApplication, ui_application, UI, APPLICATION, AdwApplication)

/* Returns a new application (transfer full). */
UiApplication *ui_application_new (void);

/* 0, or non-zero when a requested screenshot could not be saved. */
int ui_application_get_exit_status (UiApplication *self);

G_END_DECLS
