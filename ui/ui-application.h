/* ui-application.h: Tablero's AdwApplication.  Owns the command line
 * (--game, --source, --screenshot) and opens one UiWindow. */
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
