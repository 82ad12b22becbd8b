/* The table's preferences (ui-settings.h) on GSettings' memory backend:
 * what a started game writes comes back in the next setup dialog; bad
 * stored values are not trusted; the app's parts run without the schema;
 * a key and an action stay equal both ways; the setup dialog's Learning
 * switch is the "learning" key. */
#include <criterion/criterion.h>

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal-zones.h"
#include "eng-data.h"
#include "ui-settings.h"
#include "ui-setup-dialog.h"

static void
setup_of (EngSetup *setup, const char *const *names, const uint8_t *seats)
{
  eng_setup_init (setup);
  for (; names[setup->n_players] != NULL; setup->n_players++)
    {
      g_strlcpy (setup->names[setup->n_players], names[setup->n_players], ENG_NAME_MAX);
      setup->seats[setup->n_players] = seats[setup->n_players];
    }
  setup->first = 0;
}

Test (settings, kept_per_game)
{
  g_autoptr (GSettings) settings = ui_settings_new ();
  cr_assert_not_null (settings, "the build's schema is not found (GSETTINGS_SCHEMA_DIR)");
  EngSetup setup, back;
  setup_of (&setup, (const char *[]) { "Zoe", "Yan", "Xia", NULL }, (const uint8_t[]) { 3, 1, 2 });
  EngOptions options = { 0 }, options_back;
  eng_options_set (&options, "total_memory", "yes");
  eng_options_set (&options, "winning_score", "9");
  ui_settings_save_game (settings, "katua", &setup, &options);

  g_autofree char *game = g_settings_get_string (settings, "game");
  cr_assert_str_eq (game, "katua");
  cr_assert (ui_settings_get_setup (settings, "katua", &back));
  cr_assert_eq (back.n_players, 3);
  cr_assert_str_eq (back.names[0], "Zoe");
  cr_assert_str_eq (back.names[2], "Xia");
  cr_assert_eq (back.seats[0], 3);
  cr_assert_eq (back.seats[1], 1);
  cr_assert_eq (back.seats[2], 2);
  cr_assert (ui_settings_get_options (settings, "katua", &options_back));
  cr_assert_eq (options_back.n, 2);
  cr_assert_str_eq (eng_options_get (&options_back, "total_memory"), "yes");
  cr_assert_str_eq (eng_options_get (&options_back, "winning_score"), "9");
  /* another game keeps nothing of Katua's */
  cr_assert_not (ui_settings_get_setup (settings, "catchy", &back));
  cr_assert_eq (back.n_players, 0);
  cr_assert_not (ui_settings_get_options (settings, "catchy", &options_back));

  /* a second game's players do not replace the first game's */
  setup_of (&setup, (const char *[]) { "Ana", "Bea", NULL }, (const uint8_t[]) { 1, 2 });
  ui_settings_save_game (settings, "catchy", &setup, NULL);
  cr_assert (ui_settings_get_setup (settings, "katua", &back));
  cr_assert_str_eq (back.names[0], "Zoe");
  cr_assert (ui_settings_get_setup (settings, "catchy", &back));
  cr_assert_eq (back.n_players, 2);
  cr_assert_not (ui_settings_get_options (settings, "catchy", &options_back));
  g_free (game);
  game = g_settings_get_string (settings, "game");
  cr_assert_str_eq (game, "catchy");
}

/* What dconf-editor or a hand-edited keyfile may hold is checked as typed. */
Test (settings, bad_values_not_trusted)
{
  g_autoptr (GSettings) settings = ui_settings_new ();
  cr_assert_not_null (settings);
  EngSetup back;
  EngOptions options;
  g_settings_set_value (settings, "players", g_variant_new_parsed ("{'katua': 'Ana,ana', 'catchy': 'Ana,Bea', 'kittens': 'Ana  Bea,Cris', 'escoba': 'Mari Carmen,Bea'}"));
  g_settings_set_value (settings, "seats", g_variant_new_parsed ("{'catchy': 'x,7'}"));
  g_settings_set_value (settings, "options", g_variant_new_parsed ("{'katua': 'bad,=x,total_memory=yes'}"));
  cr_assert_not (ui_settings_get_setup (settings, "katua", &back), "two names the same but for case");
  cr_assert_not (ui_settings_get_setup (settings, "kittens", &back), "two spaces together");
  cr_assert (ui_settings_get_setup (settings, "escoba", &back), "one space between two words");
  cr_assert_str_eq (back.names[0], "Mari Carmen");
  g_settings_set_value (settings, "players", g_variant_new_parsed ("{'catchy': 'Ana,Bea,Cris'}"));
  cr_assert_not (ui_settings_get_setup (settings, "catchy", &back), "three players for a two-player game");
  g_settings_set_value (settings, "players", g_variant_new_parsed ("{'catchy': 'Ana,Bea'}"));
  cr_assert (ui_settings_get_setup (settings, "catchy", &back));
  cr_assert_eq (back.seats[0], 1, "an unreadable seat falls back to the place in order");
  cr_assert_eq (back.seats[1], 7);
  g_settings_set_value (settings, "seats", g_variant_new_parsed ("{'catchy': '2,2'}"));
  cr_assert (ui_settings_get_setup (settings, "catchy", &back));
  cr_assert (back.seats[0] == 1 && back.seats[1] == 2, "two players on one seat marker");
  cr_assert (ui_settings_get_options (settings, "katua", &options));
  cr_assert_eq (options.n, 1);
  cr_assert_str_eq (eng_options_get (&options, "total_memory"), "yes");
}

/* The schema not installed: nothing kept, nothing fails. */
Test (settings, without_schema)
{
  g_autofree char *empty = g_dir_make_tmp ("tablero-noschema-XXXXXX", NULL);
  cr_assert_not_null (empty);
  g_setenv ("GSETTINGS_SCHEMA_DIR", empty, TRUE);
  g_setenv ("XDG_DATA_DIRS", empty, TRUE);
  g_setenv ("XDG_DATA_HOME", empty, TRUE);
  GSettings *settings = ui_settings_new ();
  cr_assert_null (settings);
  EngSetup setup, back;
  EngOptions options;
  setup_of (&setup, (const char *[]) { "Ana", "Bea", NULL }, (const uint8_t[]) { 1, 2 });
  ui_settings_save_game (NULL, "katua", &setup, NULL);
  ui_settings_set_string (NULL, "camera", "demo");
  cr_assert_not (ui_settings_get_setup (NULL, "katua", &back));
  cr_assert_not (ui_settings_get_options (NULL, "katua", &options));
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  ui_settings_bind_action (NULL, "muted", G_ACTION_GROUP (group), "mute");
  g_rmdir (empty);
}

Test (settings, bind_action_both_ways)
{
  g_autoptr (GSettings) settings = ui_settings_new ();
  cr_assert_not_null (settings);
  g_settings_set_boolean (settings, "muted", TRUE);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GSimpleAction) mute = g_simple_action_new_stateful ("mute", NULL, g_variant_new_boolean (FALSE));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (mute));
  ui_settings_bind_action (settings, "muted", G_ACTION_GROUP (group), "mute");
  g_autoptr (GVariant) state = g_action_get_state (G_ACTION (mute));
  cr_assert (g_variant_get_boolean (state), "the kept value wins at binding");
  g_action_group_change_action_state (G_ACTION_GROUP (group), "mute", g_variant_new_boolean (FALSE));
  cr_assert_not (g_settings_get_boolean (settings, "muted"), "the action writes the key");
  g_settings_set_boolean (settings, "muted", TRUE);
  g_variant_unref (state);
  state = g_action_get_state (G_ACTION (mute));
  cr_assert (g_variant_get_boolean (state), "the key changes the action");
  /* the action gone, the key changes alone */
  g_clear_object (&group);
  g_settings_set_boolean (settings, "muted", FALSE);
  cr_assert_not (g_settings_get_boolean (settings, "muted"));
}

static void
count_start (guint *count)
{
  (*count)++;
}

/* The case: a game started from the setup dialog comes back in the
 * next one, players, seats and house rules, with nothing passed in. */
Test (settings, setup_dialog_round_trip)
{
  cr_assert (gtk_init_check (), "no display (run under xvfb-run)");
  GtkWindow *parent = GTK_WINDOW (gtk_window_new ());
  EngSetup setup, back;
  setup_of (&setup, (const char *[]) { "Zoe", "Yan", "Xia", NULL }, (const uint8_t[]) { 3, 1, 2 });
  EngOptions options = { 0 }, options_back;
  eng_options_set (&options, "total_memory", "yes");
  eng_options_set (&options, "ufo_deck_out", "end");

  UiSetupDialog *first = ui_setup_dialog_new (parent, "katua", &setup, &options);
  guint started = 0;
  g_signal_connect_swapped (first, "start", G_CALLBACK (count_start), &started);
  cr_assert (gtk_widget_activate_action (GTK_WIDGET (first), "setup.start", NULL));
  cr_assert_eq (started, 1);

  UiSetupDialog *second = ui_setup_dialog_new (parent, "katua", NULL, NULL);
  ui_setup_dialog_get_setup (second, &back);
  ui_setup_dialog_get_options (second, &options_back);
  cr_assert_eq (back.n_players, 3);
  cr_assert_str_eq (back.names[0], "Zoe");
  cr_assert_str_eq (back.names[1], "Yan");
  cr_assert_str_eq (back.names[2], "Xia");
  cr_assert_eq (back.seats[0], 3);
  cr_assert_eq (back.seats[1], 1);
  cr_assert_eq (back.seats[2], 2);
  cr_assert_str_eq (eng_options_get (&options_back, "total_memory"), "yes");
  cr_assert_str_eq (eng_options_get (&options_back, "ufo_deck_out"), "end");
  cr_assert_str_eq (eng_options_get (&options_back, "quick_start"), "no", "a switch not changed keeps the file's value");

  /* another game's dialog starts from its own defaults */
  UiSetupDialog *other = ui_setup_dialog_new (parent, "catchy", NULL, NULL);
  ui_setup_dialog_get_setup (other, &back);
  cr_assert_eq (back.n_players, 2);
  cr_assert_str_neq (back.names[0], "Zoe");
  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (other));
  gtk_window_destroy (parent);
}

/* Shared zones in data/zones/GAME.zones, counted here from the file. */
static guint
shared_zones_of (const char *game)
{
  g_autofree char *rel = g_strdup_printf ("zones/%s.zones", game);
  char *path = eng_data_path (rel);
  CalZones *zones = g_new0 (CalZones, 1);
  EngParseError err = { .reason = "" };
  cr_assert_eq (cal_zones_load_file (path, zones, &err), ENG_OK, "%s: %s", path, err.reason);
  guint n = 0;
  for (size_t k = 0; k < zones->n; k++)
    n += !zones->zones[k].per_seat;
  free (path);
  g_free (zones);
  return n;
}

/* The setup dialog's picture of the table follows the game (its zone
 * file), the number of players, their names and their seat markers. */
Test (settings, setup_dialog_seat_layout_follows_the_choice)
{
  cr_assert (gtk_init_check (), "no display (run under xvfb-run)");
  GtkWindow *parent = GTK_WINDOW (gtk_window_new ());
  EngSetup setup;
  setup_of (&setup, (const char *[]) { "Zoe", "Yan", NULL }, (const uint8_t[]) { 2, 5 });
  UiSetupDialog *dialog = ui_setup_dialog_new (parent, "katua", &setup, NULL);
  UiSeatLayout *layout = ui_setup_dialog_get_seat_layout (dialog);
  cr_assert_not_null (layout);
  cr_assert_eq (ui_seat_layout_get_n_seats (layout), 2);
  cr_assert_str_eq (ui_seat_layout_get_name (layout, 1), "Yan");
  cr_assert_gt (shared_zones_of ("katua"), 0);
  cr_assert_eq (ui_seat_layout_get_n_shared (layout), shared_zones_of ("katua"));

  GtkSpinButton *count = GTK_SPIN_BUTTON (
    gtk_widget_get_template_child (GTK_WIDGET (dialog), UI_TYPE_SETUP_DIALOG, "count"));
  gtk_spin_button_set_value (count, 4);
  cr_assert_eq (ui_seat_layout_get_n_seats (layout), 4, "the picture has a seat per player");
  cr_assert_str_eq (ui_seat_layout_get_name (layout, 2), "", "no name typed for player 3 yet");
  GtkEditable *name = GTK_EDITABLE (
    gtk_widget_get_template_child (GTK_WIDGET (dialog), UI_TYPE_SETUP_DIALOG, "name2"));
  gtk_editable_set_text (name, "Xia");
  cr_assert_str_eq (ui_seat_layout_get_name (layout, 2), "Xia");
  gtk_spin_button_set_value (count, 3);
  cr_assert_eq (ui_seat_layout_get_n_seats (layout), 3);
  cr_assert_null (ui_seat_layout_get_name (layout, 3));

  /* another game: its own zones, and no more seats than it takes */
  UiSetupDialog *other = ui_setup_dialog_new (parent, "catchy", NULL, NULL);
  UiSeatLayout *other_layout = ui_setup_dialog_get_seat_layout (other);
  cr_assert_eq (ui_seat_layout_get_n_shared (other_layout), shared_zones_of ("catchy"));
  cr_assert_neq (shared_zones_of ("catchy"), shared_zones_of ("katua"));
  cr_assert_eq (ui_seat_layout_get_n_seats (other_layout), eng_game_class_find ("catchy")->max_players);

  /* a game with no zone file: the seats alone, and no shared zone made up */
  UiSeatLayout *bare = UI_SEAT_LAYOUT (g_object_ref_sink (ui_seat_layout_new ()));
  g_autoptr (GError) error = NULL;
  cr_assert_not (ui_seat_layout_set_game (bare, "no-such-game", &error));
  cr_assert_not_null (error);
  cr_assert_eq (ui_seat_layout_get_n_shared (bare), 0);
  g_object_unref (bare);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (other));
  gtk_window_destroy (parent);
}

/* The first row found under `w` that is an AdwActionRow titled `title`. */
static AdwActionRow *
row_titled (GtkWidget *w, const char *title)
{
  if (ADW_IS_ACTION_ROW (w)
      && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (w)), title) == 0)
    return ADW_ACTION_ROW (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      AdwActionRow *found = row_titled (c, title);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The setup dialog's Learning switch is the "learning" key, both ways: the
 * window bound to the key (ui_settings_bind_window) follows at once. */
Test (settings, setup_dialog_learning_switch_is_the_key)
{
  cr_assert (gtk_init_check (), "no display (run under xvfb-run)");
  g_autoptr (GSettings) settings = ui_settings_new ();
  cr_assert_not_null (settings);
  cr_assert (g_settings_get_boolean (settings, "learning"), "learning is on by default");
  GtkWindow *parent = GTK_WINDOW (gtk_window_new ());
  UiSetupDialog *dialog = ui_setup_dialog_new (parent, "kittens", NULL, NULL);
  AdwActionRow *row = row_titled (GTK_WIDGET (dialog), "Learning");
  cr_assert_not_null (row, "the setup dialog has no Learning row");
  GtkWidget *toggle = adw_action_row_get_activatable_widget (row);
  cr_assert (GTK_IS_SWITCH (toggle));
  cr_expect (gtk_switch_get_active (GTK_SWITCH (toggle)));
  gtk_switch_set_active (GTK_SWITCH (toggle), FALSE);
  cr_expect_not (g_settings_get_boolean (settings, "learning"), "the switch did not write the key");
  g_settings_set_boolean (settings, "learning", TRUE);
  cr_expect (gtk_switch_get_active (GTK_SWITCH (toggle)), "the key did not move the switch");
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (parent);
}
