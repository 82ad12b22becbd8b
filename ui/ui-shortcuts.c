#include "ui-shortcuts.h"

#include "ui-words.h"

/* The game's command keys first in "At the table", in the set's order. */
static void
add_command_keys (GtkBuilder *builder, const EngCardSet *set)
{
  GtkWidget *group = GTK_WIDGET (gtk_builder_get_object (builder, "table_group"));
  GtkWidget *before = NULL;
  for (size_t i = 0; set != NULL && i < eng_card_set_n_commands (set); i++)
    {
      const EngCommand *c = eng_card_set_command (set, i);
      if (c->key == 0)
        continue;
      g_autofree char *title = ui_words_command_label (c);
      char accel[2] = { c->key, '\0' };
      GtkWidget *shortcut = g_object_new (GTK_TYPE_SHORTCUTS_SHORTCUT, "accelerator", accel,
                                          "title", title, NULL);
      gtk_box_insert_child_after (GTK_BOX (group), shortcut, before);
      before = shortcut;
    }
}

GtkWindow *
ui_shortcuts_window_new (GtkWindow *parent, const EngCardSet *set)
{
  /* GtkShortcutsWindow cannot be subclassed, so it is built from its
   * resource; GTK's toplevel list keeps the window once the builder goes. */
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource ("/org/tablero/Tablero/ui-shortcuts.ui");
  GtkWindow *window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts"));
  add_command_keys (builder, set);
  if (parent != NULL)
    {
      gtk_window_set_transient_for (window, parent);
      gtk_window_set_application (window, gtk_window_get_application (parent));
    }
  return window;
}
