/* ui-shortcuts.h: the keyboard shortcuts window (Ctrl+?).  It lists every
 * accelerator of the app and its window (ui-shortcuts.ui) and the command
 * keys of the game at the table (its card set's `key=`). */
#pragma once

#include <adwaita.h>

#include "eng-cardset.h"

G_BEGIN_DECLS

/* A new GtkShortcutsWindow over `parent` (may be NULL), not yet shown;
 * owned by GTK's window list once presented.  `set` (may be NULL: none
 * listed) gives the game's command keys; it is read, not kept. */
GtkWindow *ui_shortcuts_window_new (GtkWindow *parent, const EngCardSet *set);

G_END_DECLS
