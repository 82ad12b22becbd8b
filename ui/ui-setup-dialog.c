#include "ui-setup-dialog.h"

#include <string.h>

struct _UiSetupDialog
{
  AdwWindow parent_instance;

  GtkSpinButton *count;
  AdwEntryRow *names[4];
  GtkSpinButton *seats[4];
  AdwComboRow *first;
  GtkSwitch *quick_start;
  GtkSwitch *total_memory;
  AdwComboRow *ufo_deck_out;
};

G_DEFINE_FINAL_TYPE (UiSetupDialog, ui_setup_dialog, ADW_TYPE_WINDOW)

enum { SIGNAL_START, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Values of data/rules/katua.options' ufo_deck_out, in the row's order. */
static const char *const ufo_deck_out_values[] = { "reshuffle", "no-draw", "end" };

static guint
player_count (UiSetupDialog *self)
{
  return (guint) gtk_spin_button_get_value_as_int (self->count);
}

static void
on_count_changed (UiSetupDialog *self)
{
  guint n = player_count (self);
  for (guint i = 0; i < G_N_ELEMENTS (self->names); i++)
    gtk_widget_set_visible (GTK_WIDGET (self->names[i]), i < n);
  if (adw_combo_row_get_selected (self->first) >= n)
    adw_combo_row_set_selected (self->first, 0);
}

void
ui_setup_dialog_get_setup (UiSetupDialog *self, EngSetup *setup)
{
  eng_setup_init (setup);
  setup->n_players = player_count (self);
  for (guint i = 0; i < setup->n_players; i++)
    {
      const char *name = gtk_editable_get_text (GTK_EDITABLE (self->names[i]));
      g_autofree char *fallback = g_strdup_printf ("Player %u", i + 1);
      g_strlcpy (setup->names[i], name && *name ? name : fallback, ENG_NAME_MAX);
      setup->seats[i] = (uint8_t) gtk_spin_button_get_value_as_int (self->seats[i]);
    }
  setup->first = (int) adw_combo_row_get_selected (self->first);
}

void
ui_setup_dialog_get_options (UiSetupDialog *self, EngOptions *options)
{
  memset (options, 0, sizeof *options);
  eng_options_set (options, "quick_start", gtk_switch_get_active (self->quick_start) ? "yes" : "no");
  eng_options_set (options, "total_memory", gtk_switch_get_active (self->total_memory) ? "yes" : "no");
  guint k18 = adw_combo_row_get_selected (self->ufo_deck_out);
  if (k18 < G_N_ELEMENTS (ufo_deck_out_values))
    eng_options_set (options, "ufo_deck_out", ufo_deck_out_values[k18]);
}

/* Two players behind one seat marker cannot be told apart by the camera. */
static gboolean
seats_distinct (UiSetupDialog *self)
{
  guint n = player_count (self);
  gboolean ok = TRUE;
  for (guint i = 0; i < n; i++)
    {
      gboolean clash = FALSE;
      for (guint j = 0; j < n; j++)
        clash |= i != j && gtk_spin_button_get_value_as_int (self->seats[i])
                             == gtk_spin_button_get_value_as_int (self->seats[j]);
      if (clash)
        gtk_widget_add_css_class (GTK_WIDGET (self->seats[i]), "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->seats[i]), "error");
      ok &= !clash;
    }
  return ok;
}

static void
start_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  if (!seats_distinct (UI_SETUP_DIALOG (widget)))
    return;
  g_signal_emit (widget, signals[SIGNAL_START], 0);
  gtk_window_close (GTK_WINDOW (widget));
}

static void
ui_setup_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_SETUP_DIALOG);
  G_OBJECT_CLASS (ui_setup_dialog_parent_class)->dispose (object);
}

static void
ui_setup_dialog_class_init (UiSetupDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_setup_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-setup-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, count);
  gtk_widget_class_bind_template_child_full (widget_class, "name0", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "name1", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "name2", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "name3", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat0", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat1", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat2", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat3", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[3]));
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, first);
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, quick_start);
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, total_memory);
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, ufo_deck_out);
  gtk_widget_class_install_action (widget_class, "setup.start", NULL, start_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  signals[SIGNAL_START] = g_signal_new ("start", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ui_setup_dialog_init (UiSetupDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->count, "value-changed", G_CALLBACK (on_count_changed), self);
}

UiSetupDialog *
ui_setup_dialog_new (GtkWindow *parent, const EngSetup *setup)
{
  UiSetupDialog *self = g_object_new (UI_TYPE_SETUP_DIALOG, "transient-for", parent,
                                      "application", gtk_window_get_application (parent), NULL);
  guint n = setup != NULL && setup->n_players >= 2 ? setup->n_players : 2;
  gtk_spin_button_set_value (self->count, n);
  for (guint i = 0; setup != NULL && i < setup->n_players && i < G_N_ELEMENTS (self->names); i++)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->names[i]), setup->names[i]);
      if (setup->seats[i] > 0)
        gtk_spin_button_set_value (self->seats[i], setup->seats[i]);
    }
  if (setup != NULL && setup->first >= 0)
    adw_combo_row_set_selected (self->first, (guint) setup->first);
  on_count_changed (self);
  return self;
}
