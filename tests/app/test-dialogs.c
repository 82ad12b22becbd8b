/* The app's help dialogs built in-process (under Xvfb): the sticker sheets
 * saved from the app are the CLI's PDF, written whole or not at all. */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>

#include <glib/gstdio.h>
#include <string.h>

#include "ui-application.h"
#include "ui-guide.h"
#include "ui-shortcuts.h"
#include "ui-stickers-dialog.h"

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
  cr_assert_eq (n_accels, 3, "Ctrl+Q, Ctrl+? and F1");
  /* the shortcuts window itself builds from that resource */
  GtkWindow *window = ui_shortcuts_window_new (NULL);
  cr_assert (GTK_IS_SHORTCUTS_WINDOW (window));
  gtk_window_destroy (window);
}

