/* The app's help dialogs built in-process (under Xvfb): the sticker sheets
 * saved from the app are the CLI's PDF, written whole or not at all; the
 * preferences reach the referee's voice. */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>

#include <glib/gstdio.h>
#include <string.h>

#include "ui-application.h"
#include "ui-guide.h"
#include "ui-preferences-window.h"
#include "ui-settings.h"
#include "ui-shortcuts.h"
#include "ui-stickers-dialog.h"
#include "ui-window.h"
#ifdef TABLERO_HAVE_SPEECH
#include "spk-voice.h"
#endif

static void
init_gtk (void)
{
  cr_assert (gtk_init_check (), "no display (run under xvfb-run)");
}

Test (dialogs, stickers_saved_as_pdf, .init = init_gtk)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-stickers-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "katua.pdf", NULL);
  UiStickersDialog *dialog = ui_stickers_dialog_new (NULL, "katua");
  g_autoptr (GError) error = NULL;
  cr_assert (ui_stickers_dialog_save (dialog, path, &error), "%s", error ? error->message : "?");
  g_autofree char *pdf = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &pdf, &len, NULL));
  cr_assert (len > 20000, "a PDF of 233 stickers is not %zu bytes", len);
  cr_assert (memcmp (pdf, "%PDF-", 5) == 0);
  /* 16 pages (docs/stickers.md: 233 stickers of 40 mm on A4), as the CLI's */
  cr_assert_not_null (memmem (pdf, len, "/Count 16", 9), "not the 16 pages tablero-cli writes");
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  guint files = 0;
  while (g_dir_read_name (listing) != NULL)
    files++;
  cr_assert_eq (files, 1, "a temporary file was left beside the PDF");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_remove (path);
  g_rmdir (dir);
}

/* The Print button's operation, sent to a PDF instead of a printer: the
 * same 16 A4 pages (595 x 842 pt), not scaled to fit. */
Test (dialogs, stickers_print_whole_pages, .init = init_gtk)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-stickers-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "printed.pdf", NULL);
  UiStickersDialog *dialog = ui_stickers_dialog_new (NULL, "katua");
  g_autoptr (GError) error = NULL;
  cr_assert (ui_stickers_dialog_print_to_pdf (dialog, path, &error), "%s", error ? error->message : "?");
  g_autofree char *pdf = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &pdf, &len, NULL));
  cr_assert (memcmp (pdf, "%PDF-", 5) == 0);
  cr_assert_not_null (memmem (pdf, len, "/Count 16", 9), "not 16 pages");
  cr_assert_not_null (memmem (pdf, len, "/MediaBox [ 0 0 595.", 20), "not A4 at actual size");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_remove (path);
  g_rmdir (dir);
}

Test (dialogs, stickers_of_an_unknown_game_not_saved, .init = init_gtk)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-stickers-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "none.pdf", NULL);
  UiStickersDialog *dialog = ui_stickers_dialog_new (NULL, "chess");
  g_autoptr (GError) error = NULL;
  cr_assert_not (ui_stickers_dialog_save (dialog, path, &error));
  cr_assert_not_null (error);
  cr_assert_not (g_file_test (path, G_FILE_TEST_EXISTS));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_rmdir (dir);
}

Test (dialogs, guide_from_box_to_first_turn, .init = init_gtk)
{
  UiGuide *guide = ui_guide_new (NULL);
  cr_assert_eq (ui_guide_get_n_pages (guide), 6, "welcome, print, stick, place, camera, play");
  gtk_window_destroy (GTK_WINDOW (guide));
}

static void
record_page (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_free (*(char **) data);
  *(char **) data = g_variant_dup_string (parameter, NULL);
}

/* A page's button runs the main window's own action (the guide's widget
 * tree has none of them), with its target. */
Test (dialogs, guide_buttons_run_the_window_actions, .init = init_gtk)
{
  GtkWindow *parent = GTK_WINDOW (gtk_window_new ());
  char *shown = NULL;
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  const GActionEntry entries[] = { { .name = "show-page", .activate = record_page, .parameter_type = "s" } };
  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), &shown);
  gtk_widget_insert_action_group (GTK_WIDGET (parent), "win", G_ACTION_GROUP (group));
  UiGuide *guide = g_object_ref (ui_guide_new (parent));
  gtk_window_present (GTK_WINDOW (guide));
  cr_assert (gtk_widget_activate_action (GTK_WIDGET (guide), "guide.run", "s", "win.show-page::calibration"));
  cr_assert_str_eq (shown, "calibration");
  cr_assert (gtk_widget_get_visible (GTK_WIDGET (guide)), "the guide closed before its last page");
  g_free (shown);
  gtk_window_destroy (GTK_WINDOW (guide));
  g_object_unref (guide);
  gtk_window_destroy (parent);
}

/* Every key the app sets (Ctrl+Q, Ctrl+?, F1) is listed in the shortcuts
 * window, and every key listed there is one GTK can parse. */
Test (dialogs, shortcuts_list_the_app_keys, .init = init_gtk)
{
  g_autoptr (UiApplication) app = ui_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  cr_assert (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource ("/org/tablero/Tablero/ui-shortcuts.ui");
  g_autoptr (GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  GSList *objects = gtk_builder_get_objects (builder);
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        char *accel = NULL;
        g_object_get (l->data, "accelerator", &accel, NULL);
        guint key = 0;
        GdkModifierType mods = 0;
        cr_assert (gtk_accelerator_parse (accel, &key, &mods), "'%s' is not a key", accel);
        g_ptr_array_add (listed, accel);
      }
  g_slist_free (objects);
  cr_assert_geq (listed->len, 10);
  g_auto (GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  guint n_accels = 0;
  for (char **a = actions; *a != NULL; a++)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), *a);
      for (char **k = accels; *k != NULL; k++, n_accels++)
        {
          gboolean found = FALSE;
          for (guint i = 0; i < listed->len; i++)
            found |= g_strcmp0 (listed->pdata[i], *k) == 0;
          cr_assert (found, "%s (%s) is missing from the shortcuts window", *k, *a);
        }
    }
  cr_assert_eq (n_accels, 5, "Ctrl+Q, Ctrl+?, F1, Ctrl+comma and Ctrl+H");
  /* the shortcuts window itself builds from that resource */
  GtkWindow *window = ui_shortcuts_window_new (NULL, NULL);
  cr_assert (GTK_IS_SHORTCUTS_WINDOW (window));
  gtk_window_destroy (window);
}

/* The shortcut of each command key a set gives (`key=`), under the
 * shortcuts window's root; counts them and finds `accel`'s title. */
static guint
count_keys (GtkWidget *root, const char *accel, char **title)
{
  guint n = 0;
  if (GTK_IS_SHORTCUTS_SHORTCUT (root))
    {
      g_autofree char *a = NULL;
      g_object_get (root, "accelerator", &a, NULL);
      if (g_strcmp0 (a, accel) == 0)
        g_object_get (root, "title", title, NULL);
      n += g_strcmp0 (a, accel) == 0;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_keys (c, accel, title);
  return n;
}

/* A game's command keys come from its card set, named by the command's
 * words: none listed without a set, "p" Pass with the Katua set. */
Test (dialogs, shortcuts_list_the_games_command_keys, .init = init_gtk)
{
  char *title = NULL;
  GtkWindow *none = ui_shortcuts_window_new (NULL, NULL);
  cr_assert_eq (count_keys (GTK_WIDGET (none), "p", &title), 0);
  gtk_window_destroy (none);
  g_autofree char *path = g_build_filename (g_getenv ("TABLERO_DATADIR"), "cards", "katua.set", NULL);
  EngCardSet *set = NULL;
  cr_assert_eq (eng_card_set_load_file (path, &set, NULL), ENG_OK, "%s", path);
  GtkWindow *window = ui_shortcuts_window_new (NULL, set);
  cr_assert_eq (count_keys (GTK_WIDGET (window), "p", &title), 1);
  cr_assert_str_eq (title, "Pass");
  g_free (title);
  title = NULL;
  cr_assert_eq (count_keys (GTK_WIDGET (window), "e", &title), 1);
  g_free (title);
  gtk_window_destroy (window);
  eng_card_set_free (set);
}


/* ---- the voice the table chose (GSettings "voice", "speech-rate") ---- */

/* The first widget under `root` of `type`. */
static GtkWidget *
find_widget (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

#ifdef TABLERO_HAVE_SPEECH
/* Whether a label under `root` holds `text`. */
static gboolean
shows_text (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_text (c, text))
      return TRUE;
  return FALSE;
}

/* The settings on the memory backend and a main window bound to them as
 * the app binds it (no camera: only its voice matters here), speaking into
 * a WAV file so espeak-ng checks voice names as with a sound card. */
typedef struct {
  GSettings *settings;
  UiWindow *window;
  SpkVoice *voice;
  char *dir;
} VoiceTable;

static VoiceTable
voice_table (void)
{
  VoiceTable t = { .settings = ui_settings_new () };
  cr_assert_not_null (t.settings);
  t.dir = g_dir_make_tmp ("tablero-voice-XXXXXX", NULL);
  g_autofree char *wav = g_build_filename (t.dir, "said.wav", NULL);
  g_setenv ("TABLERO_SPEECH_WAV", wav, TRUE);
  t.window = g_object_new (UI_TYPE_WINDOW, NULL);
  t.voice = ui_window_get_voice (t.window);
  cr_assert_not_null (t.voice, "espeak-ng did not start");
  ui_settings_bind_window (t.settings, t.window);
  return t;
}

static void
voice_table_clear (VoiceTable *t)
{
  gtk_window_destroy (GTK_WINDOW (t->window));
  g_autofree char *wav = g_build_filename (t->dir, "said.wav", NULL);
  g_remove (wav);
  g_rmdir (t->dir);
  g_free (t->dir);
  g_object_unref (t->settings);
}

/* A voice espeak-ng has for `language` other than the language itself
 * (transfer full). */
static char *
some_voice (const char *language)
{
  const char *languages[] = { language, NULL };
  g_autoptr (GPtrArray) voices = spk_voice_list (languages, NULL);
  cr_assert_not_null (voices);
  cr_assert_gt (voices->len, 0, "espeak-ng lists no voice for %s", language);
  return g_strdup (((SpkVoiceInfo *) g_ptr_array_index (voices, voices->len - 1))->name);
}

static void
collect_said (const char *text, gpointer data)
{
  g_string_append_printf (data, "%s\n", text);
}

Test (dialogs, voice_settings_reach_the_voice, .init = init_gtk)
{
  VoiceTable t = voice_table ();
  GSettings *settings = t.settings;
  UiWindow *window = t.window;
  SpkVoice *voice = t.voice;
  g_autofree char *first = spk_voice_dup_voice (voice);
  cr_assert_str_eq (first, spk_table_language (), "'' is the table language's voice");
  cr_assert_eq (spk_voice_get_rate (voice), 175, "not the schema's default speed");

  g_autofree char *spanish = some_voice ("es");
  g_settings_set_string (settings, "voice", spanish);
  g_autofree char *now = spk_voice_dup_voice (voice);
  cr_assert_str_eq (now, spanish);
  g_settings_set_int (settings, "speech-rate", 240);
  cr_assert_eq (spk_voice_get_rate (voice), 240);

  /* what Try says goes through that voice */
  g_autoptr (GString) said = g_string_new (NULL);
  spk_voice_set_spoken_hook (voice, collect_said, said);
  g_autoptr (GError) error = NULL;
  cr_assert (ui_window_try_voice (window, &error), "%s", error ? error->message : "?");
  spk_voice_flush (voice);
  cr_assert_gt (said->len, 1, "Try said nothing");

  /* muted, Try says why nothing is heard */
  g_settings_set_boolean (settings, "muted", TRUE);
  cr_assert_not (ui_window_try_voice (window, &error));
  cr_assert (g_error_matches (error, UI_WINDOW_ERROR, UI_WINDOW_ERROR_MUTED));
  voice_table_clear (&t);
}

/* A name espeak-ng lacks (dconf-editor, a removed voice package): the
 * table's default voice speaks, the window says so, the key stays. */
Test (dialogs, bad_voice_name_refused, .init = init_gtk)
{
  VoiceTable t = voice_table ();
  GSettings *settings = t.settings;
  UiWindow *window = t.window;
  SpkVoice *voice = t.voice;
  g_autofree char *spanish = some_voice ("es");
  g_settings_set_string (settings, "voice", spanish);
  g_settings_set_string (settings, "voice", "Klingon (Qo'noS)");
  g_autofree char *now = spk_voice_dup_voice (voice);
  cr_assert_str_eq (now, spk_table_language (), "not back to the default voice");
  cr_assert (shows_text (GTK_WIDGET (window), "Klingon (Qo'noS)"), "the window does not say the voice is missing");
  g_autofree char *kept = g_settings_get_string (settings, "voice");
  cr_assert_str_eq (kept, "Klingon (Qo'noS)", "the table's setting was overwritten");
  /* and a good name afterwards is taken again */
  g_settings_set_string (settings, "voice", spanish);
  g_free (now);
  now = spk_voice_dup_voice (voice);
  cr_assert_str_eq (now, spanish);
  cr_assert_not (spk_voice_set_voice (voice, "Klingon (Qo'noS)", NULL));
  voice_table_clear (&t);
}

Test (dialogs, preferences_show_and_set_the_voice, .init = init_gtk)
{
  VoiceTable t = voice_table ();
  GSettings *settings = t.settings;
  UiWindow *window = t.window;
  g_autofree char *catalan = some_voice ("ca");
  g_settings_set_string (settings, "voice", catalan);
  g_settings_set_int (settings, "speech-rate", 222);
  UiPreferencesWindow *prefs = g_object_ref (ui_preferences_window_new (GTK_WINDOW (window), settings));
  gtk_window_present (GTK_WINDOW (prefs));
  AdwComboRow *row = ADW_COMBO_ROW (find_widget (GTK_WIDGET (prefs), ADW_TYPE_COMBO_ROW));
  GtkSpinButton *spin = GTK_SPIN_BUTTON (find_widget (GTK_WIDGET (prefs), GTK_TYPE_SPIN_BUTTON));
  cr_assert (row != NULL && spin != NULL);
  GtkStringObject *shown = adw_combo_row_get_selected_item (row);
  cr_assert_str_eq (gtk_string_object_get_string (shown), catalan);
  cr_assert_eq (gtk_spin_button_get_value_as_int (spin), 222);
  /* the rows write the keys, and the keys reach the voice */
  gtk_spin_button_set_value (spin, 300);
  cr_assert_eq (g_settings_get_int (settings, "speech-rate"), 300);
  cr_assert_eq (spk_voice_get_rate (ui_window_get_voice (window)), 300);
  adw_combo_row_set_selected (row, 0);
  g_autofree char *kept = g_settings_get_string (settings, "voice");
  cr_assert_str_eq (kept, "", "the first row is the language's default voice");
  /* Try runs the main window's voice */
  g_autoptr (GString) said = g_string_new (NULL);
  spk_voice_set_spoken_hook (ui_window_get_voice (window), collect_said, said);
  cr_assert (gtk_widget_activate_action (GTK_WIDGET (prefs), "preferences.try", NULL));
  spk_voice_flush (ui_window_get_voice (window));
  cr_assert_gt (said->len, 1, "Try said nothing");
  gtk_window_destroy (GTK_WINDOW (prefs));
  g_object_unref (prefs);
  voice_table_clear (&t);
}

#endif

/* Without the schema the window opens, shows the defaults and changes nothing. */
Test (dialogs, preferences_without_settings, .init = init_gtk)
{
  UiPreferencesWindow *prefs = g_object_ref (ui_preferences_window_new (NULL, NULL));
  AdwComboRow *row = ADW_COMBO_ROW (find_widget (GTK_WIDGET (prefs), ADW_TYPE_COMBO_ROW));
  cr_assert_not (gtk_widget_get_sensitive (GTK_WIDGET (row)));
  cr_assert_eq (adw_combo_row_get_selected (row), 0);
  cr_assert (gtk_widget_activate_action (GTK_WIDGET (prefs), "preferences.try", NULL), "Try without a window");
  gtk_window_destroy (GTK_WINDOW (prefs));
  g_object_unref (prefs);
}
