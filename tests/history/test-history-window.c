/* The History window in this process, under Xvfb, used as a person uses
 * it: the games listed newest first; a row opens the game's page, a player
 * there opens their page, Back returns; the player filter narrows the
 * list.  The history is the family's play list
 * (tests/history/family-history.json) in a file of its own. */
#include <criterion/criterion.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "hst-io.h"
#include "hst-store.h"
#include "ui-history-window.h"

static char *db;

static void
setup (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-history-window-XXXXXX", NULL);
  db = g_build_filename (dir, "history.db", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (HstStore) store = hst_store_open (db, NULL, &error);
  cr_assert_not_null (store, "%s", error ? error->message : "?");
  cr_assert (hst_import_file (store, getenv ("TABLERO_FAMILY_HISTORY"), NULL, &error), "%s",
             error ? error->message : "?");
  g_setenv ("TABLERO_HISTORY", db, TRUE);
  gtk_init ();
  adw_init ();
}

static void
spin (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The `n`th widget (0-based, depth first) under `root` of `type`. */
static GtkWidget *
find_nth (GtkWidget *root, GType type, int *n)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) && (*n)-- == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_nth (c, type, n);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find (GtkWidget *root, GType type, int index)
{
  return find_nth (root, type, &index);
}

static guint
count_rows (GtkWidget *list)
{
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (list); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += GTK_IS_LIST_BOX_ROW (c);
  return n;
}

static const char *
page (GtkWidget *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (find (window, GTK_TYPE_STACK, 0)));
}

/* Runs the loop until the window shows `name` (a button shows itself
 * pressed for a moment before it clicks), at most a few seconds. */
static void
wait_for_page (GtkWidget *window, const char *name)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (g_strcmp0 (page (window), name) != 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  spin ();
}

/* The page widget of type `name` ("UiHistoryGame"). */
static GtkWidget *
page_widget (GtkWidget *window, const char *name)
{
  GtkWidget *w = find (window, g_type_from_name (name), 0);
  cr_assert_not_null (w, "no %s", name);
  return w;
}

/* The text of the first label under `root` with CSS class `style`. */
static const char *
label_with_class (GtkWidget *root, const char *style)
{
  for (int i = 0;; i++)
    {
      GtkWidget *label = find (root, GTK_TYPE_LABEL, i);
      if (label == NULL)
        return NULL;
      if (gtk_widget_has_css_class (label, style))
        return gtk_label_get_text (GTK_LABEL (label));
    }
}

Test (history_window, a_row_opens_its_game_and_a_player_their_page, .init = setup)
{
  GtkWidget *window = GTK_WIDGET (ui_history_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  spin ();
  cr_assert_str_eq (page (window), "list");
  GtkWidget *games = find (window, GTK_TYPE_LIST_BOX, 0);
  cr_assert_eq (count_rows (games), 6, "every game of the history");

  /* the newest game first: the row opens its page */
  gtk_widget_activate (gtk_widget_get_first_child (games));
  spin ();
  cr_assert_str_eq (page (window), "game");
  GtkWidget *game = page_widget (window, "UiHistoryGame");
  const char *title = label_with_class (game, "title-2");
  cr_assert_not_null (title);
  cr_assert (g_str_has_prefix (title, "Katua — 2026-11-28"), "the newest game: %s", title);

  /* its players, the winner first: Bea's page */
  GtkWidget *players = find (game, GTK_TYPE_LIST_BOX, 0);
  cr_assert_not_null (players);
  cr_assert_eq (count_rows (players), 2);
  gtk_widget_activate (gtk_widget_get_first_child (players));
  spin ();
  cr_assert_str_eq (page (window), "player");
  cr_assert_str_eq (label_with_class (page_widget (window, "UiHistoryPlayer"), "title-1"), "Bea");

  /* back to the game, then to the list */
  cr_assert (gtk_widget_activate_action (window, "history.back", NULL));
  spin ();
  cr_assert_str_eq (page (window), "game");
  cr_assert (gtk_widget_activate_action (window, "history.back", NULL));
  spin ();
  cr_assert_str_eq (page (window), "list");
  gtk_window_destroy (GTK_WINDOW (window));
}

Test (history_window, the_player_filter_narrows_the_list, .init = setup)
{
  GtkWidget *window = GTK_WIDGET (ui_history_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  spin ();
  GtkDropDown *player = GTK_DROP_DOWN (find (window, GTK_TYPE_DROP_DOWN, 1));
  GListModel *names = gtk_drop_down_get_model (player);
  guint jose = GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (names), i), "José") == 0)
      jose = i;
  cr_assert_neq (jose, GTK_INVALID_LIST_POSITION, "José is among the players, as written");
  gtk_drop_down_set_selected (player, jose);
  spin ();
  GtkWidget *games = find (window, GTK_TYPE_LIST_BOX, 0);
  cr_assert_eq (count_rows (games), 1, "José played one game");
  /* the player's page button opens his page */
  GtkWidget *button = NULL;
  for (int i = 0; (button = find (window, GTK_TYPE_BUTTON, i)) != NULL; i++)
    if (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)), "_Player's Page") == 0)
      break;
  cr_assert_not_null (button);
  cr_assert (gtk_widget_is_sensitive (button));
  gtk_widget_activate (button);
  wait_for_page (window, "player");
  cr_assert_str_eq (page (window), "player");
  gtk_window_destroy (GTK_WINDOW (window));
}
