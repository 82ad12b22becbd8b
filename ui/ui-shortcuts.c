#include "ui-shortcuts.h"

GtkWindow *
ui_shortcuts_window_new (GtkWindow *parent)
{
  /* GtkShortcutsWindow cannot be subclassed, so it is built from its
   * resource; GTK's toplevel list keeps the window once the builder goes. */
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource ("/org/tablero/Tablero/ui-shortcuts.ui");
  GtkWindow *window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts"));
  if (parent != NULL)
    {
      gtk_window_set_transient_for (window, parent);
      gtk_window_set_application (window, gtk_window_get_application (parent));
    }
  return window;
}
