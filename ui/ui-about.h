/* ui-about.h: the About window: Tablero, the rulebooks' authors and
 * publishers of the games it referees, and the translators. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Opens the About window over `parent` (may be NULL) and returns it
 * (transfer none: GTK's window list owns it). */
GtkWindow *ui_about_show (GtkWindow *parent);

G_END_DECLS
