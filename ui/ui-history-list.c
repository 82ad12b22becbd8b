#include "ui-history-list.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

/* A page shows the newest games; the filters narrow a longer history. */
#define MAX_ROWS 200

enum { PERIOD_ANY, PERIOD_WEEK, PERIOD_MONTH, PERIOD_YEAR };

struct _UiHistoryList
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkDropDown *game_filter;
  GtkStringList *game_names;
  GtkDropDown *player_filter;
  GtkStringList *player_names;
  GtkDropDown *period_filter;
  GtkWidget *player_button;
  GtkLabel *count_label;
  GtkStack *list_stack;
  GtkListBox *games_list;
  AdwStatusPage *empty_page;

  HstStore *store;          /* borrowed */
  GPtrArray *game_keys;     /* registry name of each game_names row; row 0: NULL, all */
  gboolean filling;         /* the filters are being rebuilt: not a choice */
};

G_DEFINE_FINAL_TYPE (UiHistoryList, ui_history_list, GTK_TYPE_WIDGET)

char *
ui_history_list_dup_players (const HstGame *game)
{
  GString *text = g_string_new (NULL);
  for (guint p = 0; p < game->n_seats; p++)
    {
      const HstSeat *s = &game->seats[p];
      if (p > 0)
        g_string_append (text, " · ");
      if (game->scored)
        g_string_append_printf (text, "%s %d", s->name, s->score);
      else
        g_string_append (text, s->name);
      if (s->won)
        /* Translators: after a player's name and score in a game's row */
        g_string_append_printf (text, " %s", _ ("(won)"));
    }
  return g_string_free (text, FALSE);
}

static char *
row_subtitle (const HstGame *game)
{
  g_autofree char *players = ui_history_list_dup_players (game);
  if (game->finished)
    return g_steal_pointer (&players);
  g_autofree char *left = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "left after %u move",
                                                        "left after %u moves", game->n_moves),
                                           game->n_moves);
  return g_strdup_printf ("%s · %s", players, left);
}

static GtkWidget *
game_row (const HstGame *game)
{
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
  g_autofree char *when = hst_format_time (game->started > 0 ? game->started : game->ended);
  g_autofree char *title = g_strdup_printf ("%s — %s", hst_game_title (game), when);
  g_autofree char *subtitle = row_subtitle (game);
  /* names are shown as given: never read as markup */
  g_autofree char *title_text = g_markup_escape_text (title, -1);
  g_autofree char *subtitle_text = g_markup_escape_text (subtitle, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title_text);
  adw_action_row_set_subtitle (row, subtitle_text);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (row, gtk_image_new_from_icon_name ("go-next-symbolic"));
  g_object_set_data_full (G_OBJECT (row), "game", g_memdup2 (&game->id, sizeof game->id), g_free);
  return GTK_WIDGET (row);
}

static void
on_row_activated (GtkListBox *list, GtkListBoxRow *row, UiHistoryList *self)
{
  const gint64 *id = g_object_get_data (G_OBJECT (row), "game");
  if (id != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "history.show-game", "x", *id);
}

static const char *
chosen_player (UiHistoryList *self)
{
  guint i = gtk_drop_down_get_selected (self->player_filter);
  if (i == 0 || i == GTK_INVALID_LIST_POSITION)
    return NULL;
  return gtk_string_list_get_string (self->player_names, i);
}

static void
read_filter (UiHistoryList *self, HstFilter *filter)
{
  guint g = gtk_drop_down_get_selected (self->game_filter);
  *filter = (HstFilter) { .limit = MAX_ROWS, .player = chosen_player (self) };
  if (g != GTK_INVALID_LIST_POSITION && g < self->game_keys->len)
    filter->game = self->game_keys->pdata[g];
  static const gint64 days[] = { [PERIOD_WEEK] = 7, [PERIOD_MONTH] = 30, [PERIOD_YEAR] = 365 };
  guint period = gtk_drop_down_get_selected (self->period_filter);
  if (period != PERIOD_ANY && period < G_N_ELEMENTS (days))
    filter->since = g_get_real_time () / G_USEC_PER_SEC - days[period] * 24 * 3600;
}

static void
clear_rows (GtkListBox *list)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static void
show_count (UiHistoryList *self, guint shown, guint total)
{
  g_autofree char *text = NULL;
  if (shown < total)
    /* Translators: "200 of 10000 games shown" */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u game shown", "%u of %u games shown", total),
                            shown, total);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u game", "%u games", total), total);
  gtk_label_set_text (self->count_label, text);
}

void
ui_history_list_reload (UiHistoryList *self)
{
  g_return_if_fail (UI_IS_HISTORY_LIST (self));
  if (self->filling || self->store == NULL)
    return;
  HstFilter filter;
  read_filter (self, &filter);
  gtk_widget_set_sensitive (self->player_button, filter.player != NULL);
  guint total = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) games = hst_store_list (self->store, &filter, &total, &error);
  clear_rows (self->games_list);
  if (games == NULL)
    {
      adw_status_page_set_title (self->empty_page, _ ("The History Cannot Be Read"));
      adw_status_page_set_description (self->empty_page, error->message);
      gtk_stack_set_visible_child_name (self->list_stack, "empty");
      return;
    }
  for (guint i = 0; i < games->len; i++)
    gtk_list_box_append (self->games_list, game_row (games->pdata[i]));
  show_count (self, games->len, total);
  if (games->len == 0 && (filter.game != NULL || filter.player != NULL || filter.since > 0))
    {
      adw_status_page_set_title (self->empty_page, _ ("No Game Matches"));
      adw_status_page_set_description (self->empty_page, _ ("Choose another game, player or time."));
    }
  gtk_stack_set_visible_child_name (self->list_stack, games->len > 0 ? "games" : "empty");
}

/* The filters' lists from what the history holds; the choices kept when
 * they still exist. */
static void
fill_filters (UiHistoryList *self)
{
  g_autofree char *player = g_strdup (chosen_player (self));
  self->filling = TRUE;
  g_auto (GStrv) games = self->store != NULL ? hst_store_game_names (self->store, NULL) : NULL;
  g_auto (GStrv) players = self->store != NULL ? hst_store_player_names (self->store, NULL) : NULL;
  gtk_string_list_splice (self->game_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->game_names)), NULL);
  g_ptr_array_set_size (self->game_keys, 0);
  gtk_string_list_append (self->game_names, _ ("All games"));
  g_ptr_array_add (self->game_keys, NULL);
  for (char **g = games; g != NULL && *g != NULL; g++)
    {
      const EngGameClass *klass = eng_game_class_find (*g);
      gtk_string_list_append (self->game_names, klass != NULL && klass->title != NULL ? klass->title : *g);
      g_ptr_array_add (self->game_keys, g_strdup (*g));
    }
  gtk_string_list_splice (self->player_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->player_names)),
                          NULL);
  gtk_string_list_append (self->player_names, _ ("Everyone"));
  guint chosen = 0;
  for (char **p = players; p != NULL && *p != NULL; p++)
    {
      gtk_string_list_append (self->player_names, *p);
      if (g_strcmp0 (*p, player) == 0)
        chosen = (guint) (p - players) + 1;
    }
  gtk_drop_down_set_selected (self->game_filter, 0);
  gtk_drop_down_set_selected (self->player_filter, chosen);
  self->filling = FALSE;
}

void
ui_history_list_set_store (UiHistoryList *self, HstStore *store, const char *why)
{
  g_return_if_fail (UI_IS_HISTORY_LIST (self));
  self->store = store;
  fill_filters (self);
  if (store == NULL)
    {
      adw_status_page_set_title (self->empty_page, _ ("The History Cannot Be Read"));
      adw_status_page_set_description (self->empty_page, why);
      gtk_stack_set_visible_child_name (self->list_stack, "empty");
      return;
    }
  ui_history_list_reload (self);
}

static void
on_filter_changed (UiHistoryList *self)
{
  ui_history_list_reload (self);
}

static void
show_player_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiHistoryList *self = UI_HISTORY_LIST (widget);
  const char *player = chosen_player (self);
  if (player != NULL)
    gtk_widget_activate_action (widget, "history.show-player", "s", player);
}

static void
ui_history_list_dispose (GObject *object)
{
  UiHistoryList *self = UI_HISTORY_LIST (object);
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_HISTORY_LIST);
  g_clear_pointer (&self->game_keys, g_ptr_array_unref);
  G_OBJECT_CLASS (ui_history_list_parent_class)->dispose (object);
}

static void
ui_history_list_class_init (UiHistoryListClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_history_list_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-history-list.ui");
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, box);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, game_filter);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, game_names);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, player_filter);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, player_names);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, period_filter);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, player_button);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, count_label);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, list_stack);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, games_list);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryList, empty_page);
  gtk_widget_class_install_action (widget_class, "list.show-player", NULL, show_player_action);
}

static void
ui_history_list_init (UiHistoryList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->game_keys = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (self->games_list, "row-activated", G_CALLBACK (on_row_activated), self);
  g_signal_connect_swapped (self->game_filter, "notify::selected", G_CALLBACK (on_filter_changed), self);
  g_signal_connect_swapped (self->player_filter, "notify::selected", G_CALLBACK (on_filter_changed), self);
  g_signal_connect_swapped (self->period_filter, "notify::selected", G_CALLBACK (on_filter_changed), self);
}
