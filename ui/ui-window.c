#include "ui-window.h"

#include <string.h>

struct _UiWindow
{
  AdwApplicationWindow parent_instance;

  char *game;
  char *source;

  AdwComboRow *game_row;
  AdwActionRow *source_row;
  AdwActionRow *version_row;
};

G_DEFINE_FINAL_TYPE (UiWindow, ui_window, ADW_TYPE_APPLICATION_WINDOW)

/* Registry names in the order of the game row's model. */
static const char *const game_ids[] = { "katua", "catchy", "kittens" };

static guint
game_index (const char *game)
{
  for (guint i = 0; i < G_N_ELEMENTS (game_ids); i++)
    if (g_strcmp0 (game, game_ids[i]) == 0)
      return i;
  return 0;
}

static char *
describe_source (const char *source)
{
  if (g_strcmp0 (source, "demo") == 0)
    return g_strdup ("Demo table (no camera found): a scripted Katua game");
  if (g_str_has_prefix (source, "v4l2:"))
    return g_strdup_printf ("Webcam %s", source + strlen ("v4l2:"));
  if (g_str_has_prefix (source, "camera"))
    return g_strdup_printf ("Camera (libcamera) %s", source);
  if (g_str_has_prefix (source, "file:"))
    return g_strdup_printf ("Recorded frames from %s", source + strlen ("file:"));
  return g_strdup (source);
}

static void
on_game_selected (UiWindow *self)
{
  guint index = adw_combo_row_get_selected (self->game_row);
  if (index < G_N_ELEMENTS (game_ids))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.select-game", "s", game_ids[index]);
}

static void
select_game_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  const char *game = g_variant_get_string (parameter, NULL);
  if (g_strcmp0 (game, self->game) == 0)
    return;
  g_free (self->game);
  self->game = g_strdup (game);
  adw_combo_row_set_selected (self->game_row, game_index (game));
}

static void
about_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  adw_show_about_window (GTK_WINDOW (widget),
                         "application-name", "Tablero",
                         "application-icon", "applications-games-symbolic",
                         "version", TABLERO_VERSION,
                         "comments", "A camera referee for real card games",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         NULL);
}

static void
ui_window_finalize (GObject *object)
{
  UiWindow *self = UI_WINDOW (object);
  g_free (self->game);
  g_free (self->source);
  G_OBJECT_CLASS (ui_window_parent_class)->finalize (object);
}

static void
ui_window_class_init (UiWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ui_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-window.ui");
  gtk_widget_class_bind_template_child (widget_class, UiWindow, game_row);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, source_row);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, version_row);

  gtk_widget_class_install_action (widget_class, "win.select-game", "s", select_game_action);
  gtk_widget_class_install_action (widget_class, "win.about", NULL, about_action);
}

static void
ui_window_init (UiWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  adw_action_row_set_subtitle (self->version_row, TABLERO_VERSION);
  g_signal_connect_swapped (self->game_row, "notify::selected",
                            G_CALLBACK (on_game_selected), self);
}

UiWindow *
ui_window_new (GtkApplication *app, const char *game, const char *source)
{
  UiWindow *self = g_object_new (UI_TYPE_WINDOW, "application", app, NULL);
  self->game = g_strdup (game);
  self->source = g_strdup (source);
  adw_combo_row_set_selected (self->game_row, game_index (game));
  g_autofree char *description = describe_source (source);
  adw_action_row_set_subtitle (self->source_row, description);
  return self;
}

const char *
ui_window_get_game (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->game;
}

const char *
ui_window_get_source (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->source;
}
