#include "ui-camera-controls.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "ui-a11y.h"

struct _UiCameraControls
{
  AdwExpanderRow parent_instance;

  GtkSwitch *focus_locked;
  AdwActionRow *focus_row;
  GtkSpinButton *focus;
  GtkSwitch *exposure_auto;
  AdwActionRow *exposure_row;
  GtkSpinButton *exposure;      /* milliseconds; 0 = the camera's default */
  GtkSwitch *exposure_meter;
  AdwActionRow *exposure_meter_row;
  AdwComboRow *anti_flicker;    /* VisAntiFlicker order: camera, off, 50, 60, auto */
  gboolean showing;             /* ui_camera_controls_show at work: not a change */
};

G_DEFINE_FINAL_TYPE (UiCameraControls, ui_camera_controls, ADW_TYPE_EXPANDER_ROW)

/* Every change is asked of win.camera-control: key and new value. */
static void
ask (UiCameraControls *self, const char *key, GVariant *value)
{
  if (self->showing)
    {
      g_variant_unref (g_variant_ref_sink (value));
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (self), "win.camera-control", "(sv)", key, value);
}

static void
on_focus_locked (UiCameraControls *self)
{
  ask (self, "camera-focus-locked", g_variant_new_boolean (gtk_switch_get_active (self->focus_locked)));
}

static void
on_focus (UiCameraControls *self)
{
  ask (self, "camera-focus", g_variant_new_int32 (gtk_spin_button_get_value_as_int (self->focus)));
}

static void
on_exposure_auto (UiCameraControls *self)
{
  ask (self, "camera-exposure-auto", g_variant_new_boolean (gtk_switch_get_active (self->exposure_auto)));
}

static void
on_exposure (UiCameraControls *self)
{
  double ms = gtk_spin_button_get_value (self->exposure);
  /* tenths of a millisecond; 0 shown as "default" is the camera's own time */
  ask (self, "camera-exposure", g_variant_new_int32 (ms < 0.05 ? -1 : (gint32) lround (ms * 10)));
}

static void
on_exposure_meter (UiCameraControls *self)
{
  ask (self, "camera-exposure-meter", g_variant_new_boolean (gtk_switch_get_active (self->exposure_meter)));
}

static void
on_anti_flicker (UiCameraControls *self)
{
  guint i = adw_combo_row_get_selected (self->anti_flicker);
  if (i <= VIS_ANTI_FLICKER_AUTO)
    ask (self, "camera-anti-flicker", g_variant_new_string (vis_anti_flicker_name ((VisAntiFlicker) i)));
}

/* The numbers' special values in words.  The text goes to the spin
 * button's delegate: GTK 4.8 drops text set on the spin button itself
 * from an ::output handler. */
static gboolean
on_focus_output (GtkSpinButton *spin, gpointer data)
{
  if (gtk_spin_button_get_value_as_int (spin) >= 0)
    return FALSE;
  /* Translators: a locked focus stays where autofocus found the table. */
  gtk_editable_set_text (gtk_editable_get_delegate (GTK_EDITABLE (spin)), C_ ("focus", "as found"));
  return TRUE;
}

static gboolean
on_exposure_output (GtkSpinButton *spin, gpointer data)
{
  if (gtk_spin_button_get_value (spin) >= 0.05)
    return FALSE;
  /* Translators: the camera's own exposure time. */
  gtk_editable_set_text (gtk_editable_get_delegate (GTK_EDITABLE (spin)), C_ ("exposure", "default"));
  return TRUE;
}

static GtkWidget *
suffix_row (AdwPreferencesRow **row, const char *title, const char *subtitle, GtkWidget *suffix)
{
  AdwActionRow *r = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (r), title);
  adw_action_row_set_subtitle (r, subtitle);
  gtk_widget_set_valign (suffix, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (r, suffix);
  ui_a11y_name_control (suffix, title, subtitle);
  if (GTK_IS_SWITCH (suffix))
    adw_action_row_set_activatable_widget (r, suffix);
  *row = ADW_PREFERENCES_ROW (r);
  return GTK_WIDGET (r);
}

void
ui_camera_controls_show (UiCameraControls *self, const VisCameraControls *c)
{
  g_return_if_fail (UI_IS_CAMERA_CONTROLS (self) && c != NULL);
  self->showing = TRUE;
  gboolean locked = c->focus == VIS_FOCUS_LOCKED, manual = c->exposure == VIS_EXPOSURE_MANUAL;
  gtk_switch_set_active (self->focus_locked, locked);
  gtk_spin_button_set_value (self->focus, c->focus_position < 0 ? -1 : c->focus_position);
  gtk_widget_set_sensitive (GTK_WIDGET (self->focus_row), locked);
  gtk_switch_set_active (self->exposure_auto, !manual);
  gtk_spin_button_set_value (self->exposure, c->exposure_time < 0 ? 0 : c->exposure_time / 10.0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->exposure_row), manual);
  gtk_switch_set_active (self->exposure_meter, c->meter_stickers);
  gtk_widget_set_sensitive (GTK_WIDGET (self->exposure_meter_row), manual);
  guint flicker = c->anti_flicker <= VIS_ANTI_FLICKER_AUTO ? (guint) c->anti_flicker : 0;
  adw_combo_row_set_selected (self->anti_flicker, flicker);
  self->showing = FALSE;
}

static void
ui_camera_controls_class_init (UiCameraControlsClass *klass)
{
}

static void
ui_camera_controls_init (UiCameraControls *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _ ("Camera controls"));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self),
                                 _ ("Focus, exposure and flicker, for the light at this table"));
  AdwPreferencesRow *row;

  self->focus_locked = GTK_SWITCH (gtk_switch_new ());
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self),
                            suffix_row (&row, _ ("Lock focus"),
                                        _ ("The lens stays on the table when a hand passes over it"),
                                        GTK_WIDGET (self->focus_locked)));

  self->focus = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (-1, VIS_CAMERA_FOCUS_MAX, 1));
  gtk_editable_set_width_chars (GTK_EDITABLE (self->focus), 8);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->focus),
                               _ ("In the camera's own units; below 0: where autofocus settles"));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self),
                            suffix_row (&row, _ ("Focus position"),
                                        _ ("\"as found\" keeps where autofocus settles after two seconds"),
                                        GTK_WIDGET (self->focus)));
  self->focus_row = ADW_ACTION_ROW (row);

  self->exposure_auto = GTK_SWITCH (gtk_switch_new ());
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self),
                            suffix_row (&row, _ ("Automatic exposure"),
                                        _ ("Off: a fixed time, a steady picture as people lean in"),
                                        GTK_WIDGET (self->exposure_auto)));

  self->exposure = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, VIS_CAMERA_EXPOSURE_MAX / 10.0, 0.1));
  gtk_spin_button_set_digits (self->exposure, 1);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->exposure), 8);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self),
                            suffix_row (&row, _ ("Exposure time (ms)"),
                                        _ ("10 ms suits 50 Hz lamps, 8.3 ms 60 Hz"),
                                        GTK_WIDGET (self->exposure)));
  self->exposure_row = ADW_ACTION_ROW (row);

  self->exposure_meter = GTK_SWITCH (gtk_switch_new ());
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self),
                            suffix_row (&row, _ ("Meter on the stickers"),
                                        _ ("The time follows the stickers, not the room, so shiny ones do not wash out"),
                                        GTK_WIDGET (self->exposure_meter)));
  self->exposure_meter_row = ADW_ACTION_ROW (row);

  const char *const flicker[] = { _ ("Camera's own"), _ ("Off"), _ ("50 Hz"), _ ("60 Hz"), _ ("Automatic"), NULL };
  GtkStringList *model = gtk_string_list_new (flicker);
  self->anti_flicker = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->anti_flicker), _ ("Anti-flicker"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->anti_flicker),
                               _ ("The mains frequency of the lamps: 50 Hz in Europe, 60 Hz in the Americas"));
  adw_combo_row_set_model (self->anti_flicker, G_LIST_MODEL (model));
  g_object_unref (model);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (self), GTK_WIDGET (self->anti_flicker));

  /* the numbers' words from the first showing on: the spin buttons wrote
   * their first text before the handlers were there, so move off it */
  g_signal_connect (self->focus, "output", G_CALLBACK (on_focus_output), NULL);
  g_signal_connect (self->exposure, "output", G_CALLBACK (on_exposure_output), NULL);
  gtk_spin_button_set_value (self->focus, 0);
  gtk_spin_button_set_value (self->exposure, 1);
  VisCameraControls defaults = { .focus = VIS_FOCUS_AUTO, .focus_position = -1,
                                 .exposure = VIS_EXPOSURE_AUTO, .exposure_time = -1 };
  ui_camera_controls_show (self, &defaults);

  g_signal_connect_swapped (self->focus_locked, "notify::active", G_CALLBACK (on_focus_locked), self);
  g_signal_connect_swapped (self->focus, "value-changed", G_CALLBACK (on_focus), self);
  g_signal_connect_swapped (self->exposure_auto, "notify::active", G_CALLBACK (on_exposure_auto), self);
  g_signal_connect_swapped (self->exposure, "value-changed", G_CALLBACK (on_exposure), self);
  g_signal_connect_swapped (self->exposure_meter, "notify::active", G_CALLBACK (on_exposure_meter), self);
  g_signal_connect_swapped (self->anti_flicker, "notify::selected", G_CALLBACK (on_anti_flicker), self);
}

UiCameraControls *
ui_camera_controls_new (void)
{
  return g_object_new (UI_TYPE_CAMERA_CONTROLS, NULL);
}
