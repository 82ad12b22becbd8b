/* ui-list.h: the two things every boxed list of the sidebar does.
 *
 * GTK 4.8 (Debian 12) has no gtk_list_box_remove_all, and every list shows
 * its lines the same way, so the widgets share these instead of each
 * writing its own. */
#pragma once

#include <gtk/gtk.h>

/* A new, floating label for a row of a boxed list: wrapped, start-aligned,
 * with the sidebar's margins.  `text` is copied. */
GtkWidget *ui_list_label (const char *text);

/* Removes every row of `list`. */
void ui_list_clear (GtkListBox *list);
