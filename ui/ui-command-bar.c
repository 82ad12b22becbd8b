#include "ui-command-bar.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "ui-words.h"

struct _UiCommandBar
{
  GtkWidget parent_instance;

  GtkWidget *bar;
  GtkBox *commands;
  GtkWidget *new_game;
  gboolean over;
};

G_DEFINE_FINAL_TYPE (UiCommandBar, ui_command_bar, GTK_TYPE_WIDGET)

/* The bundled card sets' command labels (their short part), listed so the
 * catalogues carry them: a set's labels are data, shown translated when
 * the catalogue knows them, as typed otherwise. */
static const char *const command_words[] G_GNUC_UNUSED = {
  N_ ("End of turn"), N_ ("End of trick"), N_ ("Pass"), N_ ("Discard face down"),
  N_ ("No defence"),
};

void
ui_command_bar_set_card_set (UiCommandBar *self, const EngCardSet *set)
{
  g_return_if_fail (UI_IS_COMMAND_BAR (self));
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->commands))) != NULL)
    gtk_box_remove (self->commands, child);
  static const char *const elsewhere[] = { "undo", "new-game", "pause", "confirm", "cancel", NULL };
  for (size_t i = 0; set != NULL && i < eng_card_set_n_commands (set); i++)
    {
      const EngCommand *cmd = eng_card_set_command (set, i);
      if (g_strv_contains (elsewhere, cmd->id))
        continue;
      /* the short part on the button; the whole label, which says what the
       * card does, as tooltip and accessible description */
      g_autofree char *label = ui_words_command_label (cmd);
      GtkWidget *button = gtk_button_new_with_label (label);
      gtk_widget_set_tooltip_text (button, cmd->label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      cmd->label, -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.command");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", cmd->id);
      /* a click must not leave focus here: Return would give the command
       * again, for whoever's turn it is by then */
      gtk_widget_set_focus_on_click (button, FALSE);
      gtk_box_append (self->commands, button);
    }
  ui_command_bar_update (self, self->over, FALSE);
}

void
ui_command_bar_update (UiCommandBar *self, gboolean over, gboolean turn_command)
{
  g_return_if_fail (UI_IS_COMMAND_BAR (self));
  self->over = over;
  GtkWidget *first = gtk_widget_get_first_child (GTK_WIDGET (self->commands));
  for (GtkWidget *b = first; b != NULL; b = gtk_widget_get_next_sibling (b))
    {
      if (b == first && turn_command && !over)
        gtk_widget_add_css_class (b, "suggested-action");
      else
        gtk_widget_remove_css_class (b, "suggested-action");
    }
  /* after the game only what can act: the next game (undo may still
   * reopen it, if the last card was misread) */
  gtk_widget_set_visible (GTK_WIDGET (self->commands), !over);
  gtk_widget_set_visible (self->new_game, over);
}

guint
ui_command_bar_get_n_shown (UiCommandBar *self)
{
  g_return_val_if_fail (UI_IS_COMMAND_BAR (self), 0);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->commands)))
    return 0;
  guint n = 0;
  for (GtkWidget *b = gtk_widget_get_first_child (GTK_WIDGET (self->commands)); b != NULL;
       b = gtk_widget_get_next_sibling (b))
    n++;
  return n;
}

static void
ui_command_bar_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_COMMAND_BAR);
  G_OBJECT_CLASS (ui_command_bar_parent_class)->dispose (object);
}

static void
ui_command_bar_class_init (UiCommandBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_command_bar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-command-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, UiCommandBar, bar);
  gtk_widget_class_bind_template_child (widget_class, UiCommandBar, commands);
  gtk_widget_class_bind_template_child (widget_class, UiCommandBar, new_game);
}

static void
ui_command_bar_init (UiCommandBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ui_command_bar_new (void)
{
  return g_object_new (UI_TYPE_COMMAND_BAR, NULL);
}
