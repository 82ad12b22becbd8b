/* ui-preferences-window.h: what a table sets once and keeps (GNOME's
 * Preferences, Ctrl+comma): the voice the referee speaks with and its
 * speed.  Each row writes its GSettings key ("voice", "speech-rate") as it
 * changes, and shows the key again when something else changes it; the main
 * window's voice follows the keys (ui_settings_bind_window).  "Try" asks the
 * main window to say a sample sentence with what is set now. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_PREFERENCES_WINDOW (ui_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (UiPreferencesWindow, ui_preferences_window, UI, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

/* A preferences window over `parent` (the main UiWindow, whose voice "Try"
 * uses; may be NULL, then "Try" says nothing can be heard) for `settings`
 * (referenced; NULL when the schema is not installed: the rows show the
 * defaults and are insensitive).  Owned by GTK's window list. */
UiPreferencesWindow *ui_preferences_window_new (GtkWindow *parent, GSettings *settings);

G_END_DECLS
