#include "ui-preferences-window.h"

#include <glib/gi18n-lib.h>

#include "ui-window.h"
#ifdef TABLERO_HAVE_SPEECH
#include "spk-voice.h"
#endif

struct _UiPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  AdwComboRow *voice_row;
  GtkStringList *voice_names;
  AdwActionRow *rate_row;
  GtkAdjustment *rate_adjustment;
  GPtrArray *voice_keys;       /* the "voice" value of each row of voice_names */
  GSettings *settings;         /* NULL: nothing kept, rows insensitive */
};

G_DEFINE_FINAL_TYPE (UiPreferencesWindow, ui_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The table's language first (its default voice), then espeak-ng's voices
 * for the languages Tablero speaks. */
static void
fill_voices (UiPreferencesWindow *self)
{
  gtk_string_list_append (self->voice_names, _ ("Default voice"));
  g_ptr_array_add (self->voice_keys, g_strdup (""));
#ifdef TABLERO_HAVE_SPEECH
  static const char *const languages[] = { "en", "es", "ca", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) voices = spk_voice_list (languages, &error);
  if (voices == NULL)
    {
      g_debug ("no voices: %s", error->message);
      return;
    }
  for (guint i = 0; i < voices->len; i++)
    {
      const SpkVoiceInfo *voice = g_ptr_array_index (voices, i);
      gtk_string_list_append (self->voice_names, voice->name);
      g_ptr_array_add (self->voice_keys, g_strdup (voice->name));
    }
#endif
}

/* "voice" -> the row showing it; a voice espeak-ng does not offer shows as
 * the default, which is the voice that then speaks (ui-window.h). */
static gboolean
voice_to_row (GValue *value, GVariant *variant, gpointer data)
{
  UiPreferencesWindow *self = data;
  const char *name = g_variant_get_string (variant, NULL);
  guint row = 0;
  for (guint i = 0; i < self->voice_keys->len; i++)
    if (g_ascii_strcasecmp (name, g_ptr_array_index (self->voice_keys, i)) == 0)
      row = i;
  g_value_set_uint (value, row);
  return TRUE;
}

static GVariant *
row_to_voice (const GValue *value, const GVariantType *type, gpointer data)
{
  UiPreferencesWindow *self = data;
  guint row = g_value_get_uint (value);
  if (row >= self->voice_keys->len)
    return NULL;   /* no row chosen: the key stays */
  return g_variant_new_string (g_ptr_array_index (self->voice_keys, row));
}

/* Try: the main window's voice says a sample with what is set now (the
 * keys are written as the rows change); why nothing can be heard is said
 * here, where the table is looking. */
static void
try_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiPreferencesWindow *self = UI_PREFERENCES_WINDOW (widget);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  g_autoptr (GError) error = NULL;
  if (parent != NULL && UI_IS_WINDOW (parent) && ui_window_try_voice (UI_WINDOW (parent), &error))
    return;
  const char *why = error != NULL ? error->message : _ ("The referee cannot speak here");
  g_autofree char *title = g_markup_escape_text (why, -1);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (title));
}

static void
ui_preferences_window_dispose (GObject *object)
{
  UiPreferencesWindow *self = UI_PREFERENCES_WINDOW (object);
  /* the bindings go with the settings' last reference or with the rows */
  if (self->settings != NULL)
    {
      g_settings_unbind (self->voice_row, "selected");
      g_settings_unbind (self->rate_adjustment, "value");
    }
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_PREFERENCES_WINDOW);
  G_OBJECT_CLASS (ui_preferences_window_parent_class)->dispose (object);
}

static void
ui_preferences_window_finalize (GObject *object)
{
  UiPreferencesWindow *self = UI_PREFERENCES_WINDOW (object);
  g_ptr_array_unref (self->voice_keys);
  G_OBJECT_CLASS (ui_preferences_window_parent_class)->finalize (object);
}

static void
ui_preferences_window_class_init (UiPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ui_preferences_window_dispose;
  object_class->finalize = ui_preferences_window_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tablero/Tablero/ui-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, UiPreferencesWindow, voice_row);
  gtk_widget_class_bind_template_child (widget_class, UiPreferencesWindow, voice_names);
  gtk_widget_class_bind_template_child (widget_class, UiPreferencesWindow, rate_row);
  gtk_widget_class_bind_template_child (widget_class, UiPreferencesWindow, rate_adjustment);
  gtk_widget_class_install_action (widget_class, "preferences.try", NULL, try_action);
}

static void
ui_preferences_window_init (UiPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->voice_keys = g_ptr_array_new_with_free_func (g_free);
  fill_voices (self);
}

UiPreferencesWindow *
ui_preferences_window_new (GtkWindow *parent, GSettings *settings)
{
  UiPreferencesWindow *self = g_object_new (UI_TYPE_PREFERENCES_WINDOW, "transient-for", parent,
                                            NULL);
  if (parent != NULL)
    gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
  if (settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->voice_row), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->rate_row), FALSE);
      return self;
    }
  self->settings = g_object_ref (settings);
  g_settings_bind_with_mapping (settings, "voice", self->voice_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                voice_to_row, row_to_voice, self, NULL);
  g_settings_bind (settings, "speech-rate", self->rate_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  return self;
}
