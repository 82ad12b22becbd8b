/* ui-shortcuts.h: the keyboard shortcuts window (Ctrl+?).  It lists every
 * accelerator of the app and its window; ui-shortcuts.ui is the one place
 * to update when a key is added. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* A new GtkShortcutsWindow over `parent` (may be NULL), not yet shown;
 * owned by GTK's window list once presented. */
GtkWindow *ui_shortcuts_window_new (GtkWindow *parent);

G_END_DECLS
