/* The camera controls of the camera setup page (ui-camera-controls.h), in
 * this process under Xvfb, settings on GSettings' memory backend: each row
 * asks win.camera-control; the window keeps the camera-* keys and a new
 * window shows them again; the keys read back as the controls a source is
 * opened with (ui-settings.h); a value out of the schema's range or of the
 * wrong type is refused. */
#include <criterion/criterion.h>

#include <adwaita.h>
#include <string.h>

#include "ui-camera-controls.h"
#include "ui-settings.h"
#include "ui-window.h"

static void
setup_gtk (void)
{
  g_autofree char *state = g_dir_make_tmp ("tablero-camera-controls-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  gtk_init ();
  adw_init ();
}

/* The first widget of `type` under `root`, depth first. */
static GtkWidget *
find (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every widget of `type` under `root` meant to be seen, depth first (the
 * expander's own hidden switch is not). */
static void
collect (GtkWidget *root, GType type, GPtrArray *out)
{
  if (!gtk_widget_get_visible (root))
    return;
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    g_ptr_array_add (out, root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect (c, type, out);
}

typedef struct {
  GPtrArray *asked;   /* "key=value" */
} Recorder;

static void
on_camera_control (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  Recorder *r = data;
  const char *key;
  g_autoptr (GVariant) value = NULL;
  g_variant_get (parameter, "(&sv)", &key, &value);
  g_autofree char *shown = g_variant_print (value, FALSE);
  g_ptr_array_add (r->asked, g_strdup_printf ("%s=%s", key, shown));
}

static gboolean
asked (Recorder *r, const char *what)
{
  for (guint i = 0; i < r->asked->len; i++)
    if (strcmp (r->asked->pdata[i], what) == 0)
      return TRUE;
  return FALSE;
}

/* The rows alone, in a window whose "win" group records what is asked. */
Test (camera_controls, rows_ask_the_window_action, .init = setup_gtk)
{
  Recorder r = { g_ptr_array_new_with_free_func (g_free) };
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GSimpleActionGroup *group = g_simple_action_group_new ();
  GSimpleAction *action = g_simple_action_new ("camera-control", G_VARIANT_TYPE ("(sv)"));
  g_signal_connect (action, "activate", G_CALLBACK (on_camera_control), &r);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (GTK_WIDGET (window), "win", G_ACTION_GROUP (group));
  GtkWidget *list = gtk_list_box_new ();
  UiCameraControls *rows = ui_camera_controls_new ();
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (rows));
  gtk_window_set_child (window, list);
  gtk_window_present (window);

  g_autoptr (GPtrArray) switches = g_ptr_array_new ();
  g_autoptr (GPtrArray) spins = g_ptr_array_new ();
  collect (GTK_WIDGET (rows), GTK_TYPE_SWITCH, switches);
  collect (GTK_WIDGET (rows), GTK_TYPE_SPIN_BUTTON, spins);
  AdwComboRow *combo = ADW_COMBO_ROW (find (GTK_WIDGET (rows), ADW_TYPE_COMBO_ROW));
  cr_assert_eq (switches->len, 3);
  cr_assert_eq (spins->len, 2);
  cr_assert_not_null (combo);
  GtkSwitch *locked = switches->pdata[0], *exposure_auto = switches->pdata[1], *meter = switches->pdata[2];
  GtkSpinButton *focus = spins->pdata[0], *exposure = spins->pdata[1];

  /* the defaults: autofocus, automatic exposure, the camera's anti-flicker;
   * the numbers only to be set when their switch says so */
  cr_expect_not (gtk_switch_get_active (locked));
  cr_expect (gtk_switch_get_active (exposure_auto));
  cr_expect_not (gtk_widget_is_sensitive (GTK_WIDGET (focus)));
  cr_expect_not (gtk_widget_is_sensitive (GTK_WIDGET (exposure)));
  cr_expect_not (gtk_switch_get_active (meter));
  cr_expect_not (gtk_widget_is_sensitive (GTK_WIDGET (meter)), "metering needs a fixed exposure");
  cr_expect_eq (adw_combo_row_get_selected (combo), 0);
  cr_expect_str_eq (gtk_editable_get_text (GTK_EDITABLE (focus)), "as found");
  cr_expect_str_eq (gtk_editable_get_text (GTK_EDITABLE (exposure)), "default");
  cr_expect_eq (r.asked->len, 0, "showing asked something");

  gtk_switch_set_active (locked, TRUE);
  gtk_spin_button_set_value (focus, 40);
  gtk_switch_set_active (exposure_auto, FALSE);
  gtk_spin_button_set_value (exposure, 8.3);
  gtk_switch_set_active (meter, TRUE);
  adw_combo_row_set_selected (combo, 2);
  cr_expect (asked (&r, "camera-focus-locked=true"));
  cr_expect (asked (&r, "camera-focus=40"));
  cr_expect (asked (&r, "camera-exposure-auto=false"));
  cr_expect (asked (&r, "camera-exposure=83"));
  cr_expect (asked (&r, "camera-exposure-meter=true"));
  cr_expect (asked (&r, "camera-anti-flicker='50'"));
  cr_expect_eq (r.asked->len, 6, "%u asked", r.asked->len);

  /* showing what the window kept asks nothing, and sets the sensitivity */
  g_ptr_array_set_size (r.asked, 0);
  VisCameraControls c = { .focus = VIS_FOCUS_LOCKED, .focus_position = 120, .exposure = VIS_EXPOSURE_MANUAL,
                          .exposure_time = -1, .anti_flicker = VIS_ANTI_FLICKER_AUTO,
                          .meter_stickers = FALSE };
  ui_camera_controls_show (rows, &c);
  cr_expect_eq (r.asked->len, 0);
  cr_expect_not (gtk_switch_get_active (meter));
  cr_expect (gtk_widget_is_sensitive (GTK_WIDGET (meter)));
  cr_expect (gtk_switch_get_active (locked));
  cr_expect (gtk_widget_is_sensitive (GTK_WIDGET (focus)));
  cr_expect (gtk_widget_is_sensitive (GTK_WIDGET (exposure)));
  cr_expect_eq (gtk_spin_button_get_value_as_int (focus), 120);
  cr_expect_str_eq (gtk_editable_get_text (GTK_EDITABLE (exposure)), "default");
  cr_expect_eq (adw_combo_row_get_selected (combo), 4);

  gtk_window_destroy (window);
  g_object_unref (action);
  g_object_unref (group);
  g_ptr_array_unref (r.asked);
}

/* The window keeps each row's value in the settings, and a new window shows
 * them; the settings read back as the controls a camera is opened with. */
Test (camera_controls, window_keeps_them, .init = setup_gtk)
{
  g_autoptr (GSettings) settings = ui_settings_new ();
  cr_assert_not_null (settings, "the build's schema is not found (GSETTINGS_SCHEMA_DIR)");
  const char *players[] = { "Ana", "Bea", NULL };
  UiWindow *window = ui_window_new (NULL, "katua", "demo", players);
  cr_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-focus-locked",
                                         g_variant_new_boolean (TRUE)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-focus",
                              g_variant_new_int32 (75));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-anti-flicker",
                              g_variant_new_string ("60"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-exposure-auto",
                              g_variant_new_boolean (FALSE));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-exposure-meter",
                              g_variant_new_boolean (TRUE));
  /* refused: not a camera key, the wrong type, out of range, not a choice */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "game",
                              g_variant_new_string ("catchy"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-focus",
                              g_variant_new_string ("75"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-exposure",
                              g_variant_new_int32 (-5));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.camera-control", "(sv)", "camera-anti-flicker",
                              g_variant_new_string ("55"));
  cr_expect (g_settings_get_boolean (settings, "camera-focus-locked"));
  cr_expect_eq (g_settings_get_int (settings, "camera-focus"), 75);
  cr_expect_eq (g_settings_get_int (settings, "camera-exposure"), -1);
  g_autofree char *flicker = g_settings_get_string (settings, "camera-anti-flicker");
  cr_expect_str_eq (flicker, "60");
  g_autofree char *game = g_settings_get_string (settings, "game");
  cr_expect_str_neq (game, "catchy", "win.camera-control wrote a key that is not a camera's");

  VisCameraControls c;
  ui_settings_get_camera_controls (settings, &c);
  cr_expect (c.focus == VIS_FOCUS_LOCKED && c.focus_position == 75);
  cr_expect (c.exposure == VIS_EXPOSURE_MANUAL && c.exposure_time == -1);
  cr_expect (c.meter_stickers, "the switch did not reach the camera's controls");
  cr_expect (g_settings_get_boolean (settings, "camera-exposure-meter"));
  cr_expect_eq (c.anti_flicker, VIS_ANTI_FLICKER_60HZ);

  /* a new window's rows show what was kept */
  UiWindow *second = ui_window_new (NULL, "katua", "demo", players);
  UiCameraControls *rows = UI_CAMERA_CONTROLS (find (GTK_WIDGET (second), UI_TYPE_CAMERA_CONTROLS));
  cr_assert_not_null (rows);
  g_autoptr (GPtrArray) switches = g_ptr_array_new ();
  g_autoptr (GPtrArray) spins = g_ptr_array_new ();
  collect (GTK_WIDGET (rows), GTK_TYPE_SWITCH, switches);
  collect (GTK_WIDGET (rows), GTK_TYPE_SPIN_BUTTON, spins);
  cr_expect (gtk_switch_get_active (switches->pdata[0]));
  cr_expect (gtk_switch_get_active (switches->pdata[2]), "metering on the stickers not shown again");
  cr_expect_eq (gtk_spin_button_get_value_as_int (spins->pdata[0]), 75);
  cr_expect_eq (adw_combo_row_get_selected (ADW_COMBO_ROW (find (GTK_WIDGET (rows), ADW_TYPE_COMBO_ROW))), 3);
  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (window));
}

Test (camera_controls, settings_without_the_schema_and_odd_values)
{
  /* no settings: the camera's own ways */
  VisCameraControls c;
  ui_settings_get_camera_controls (NULL, &c);
  cr_expect (c.focus == VIS_FOCUS_AUTO && c.focus_position == -1 && c.exposure == VIS_EXPOSURE_AUTO
             && c.exposure_time == -1 && c.anti_flicker == VIS_ANTI_FLICKER_UNSET);
  /* each key, its type and range */
  VisCameraControls d = c;
  g_autoptr (GVariant) t = g_variant_ref_sink (g_variant_new_boolean (TRUE));
  g_autoptr (GVariant) i40 = g_variant_ref_sink (g_variant_new_int32 (40));
  g_autoptr (GVariant) big = g_variant_ref_sink (g_variant_new_int32 (VIS_CAMERA_EXPOSURE_MAX + 1));
  g_autoptr (GVariant) s50 = g_variant_ref_sink (g_variant_new_string ("50"));
  g_autoptr (GVariant) bad = g_variant_ref_sink (g_variant_new_string ("fifty"));
  cr_expect (ui_settings_apply_camera_control (&d, "camera-exposure-auto", t) && d.exposure == VIS_EXPOSURE_AUTO);
  cr_expect (ui_settings_apply_camera_control (&d, "camera-exposure", i40) && d.exposure_time == 40);
  cr_expect (ui_settings_apply_camera_control (&d, "camera-anti-flicker", s50) && d.anti_flicker == VIS_ANTI_FLICKER_50HZ);
  cr_expect (ui_settings_apply_camera_control (&d, "camera-exposure-meter", t) && d.meter_stickers);
  VisCameraControls before = d;
  cr_expect_not (ui_settings_apply_camera_control (&d, "camera-exposure", big));
  cr_expect_not (ui_settings_apply_camera_control (&d, "camera-anti-flicker", bad));
  cr_expect_not (ui_settings_apply_camera_control (&d, "camera-focus", t));
  cr_expect_not (ui_settings_apply_camera_control (&d, "camera-exposure-meter", i40));
  cr_expect_not (ui_settings_apply_camera_control (&d, "camera", s50));
  cr_expect_not (ui_settings_apply_camera_control (&d, NULL, s50));
  cr_expect_not (ui_settings_apply_camera_control (&d, "camera-focus", NULL));
  cr_expect_eq (memcmp (&before, &d, sizeof d), 0, "a refused value changed the controls");
}
