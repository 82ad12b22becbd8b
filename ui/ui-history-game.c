#include "ui-history-game.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "ui-score-chart.h"

struct _UiHistoryGame
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkLabel *title_label;
  GtkLabel *summary_label;
  UiScoreChart *chart;
  GtkListBox *players_list;
  GtkStack *text_stack;
  GtkLabel *report_view;
  GtkLabel *record_view;

  HstStore *store;   /* borrowed */
};

G_DEFINE_FINAL_TYPE (UiHistoryGame, ui_history_game, GTK_TYPE_WIDGET)

void
ui_history_game_set_store (UiHistoryGame *self, HstStore *store)
{
  g_return_if_fail (UI_IS_HISTORY_GAME (self));
  self->store = store;
}

/* The game's end and length, and the house rules it was played with. */
static char *
summary (const HstGame *game)
{
  g_autofree char *end = hst_game_summary (game);
  GString *text = g_string_new (end);
  if (game->options.n > 0)
    {
      g_string_append (text, " · ");
      g_string_append (text, _ ("house rules:"));
      for (size_t i = 0; i < game->options.n; i++)
        g_string_append_printf (text, "%s %s = %s", i ? "," : "", game->options.items[i].name,
                                game->options.items[i].value);
    }
  return g_string_free (text, FALSE);
}

/* A player's row: their colour on the chart, name, score, and whether
 * they won; activating it opens their page. */
static GtkWidget *
player_row (const HstGame *game, guint p)
{
  const HstSeat *s = &game->seats[p];
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
  g_autofree char *name = g_markup_escape_text (s->name, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  GString *sub = g_string_new (NULL);
  if (s->won)
    g_string_append (sub, _ ("Winner"));
  if (s->first)
    g_string_append_printf (sub, "%s%s", sub->len ? " · " : "", _ ("started"));
  if (s->marker > 0)
    /* Translators: the seat marker a player sat behind */
    g_string_append_printf (sub, "%s%s %u", sub->len ? " · " : "", _ ("seat"), s->marker);
  adw_action_row_set_subtitle (row, sub->str);
  g_string_free (sub, TRUE);
  GtkWidget *swatch = gtk_label_new (NULL);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  g_autofree char *markup = g_strdup_printf ("<span foreground=\"%s\" size=\"x-large\">●</span>",
                                             ui_score_chart_seat_colour (p, dark));
  gtk_label_set_markup (GTK_LABEL (swatch), markup);
  adw_action_row_add_prefix (row, swatch);
  g_autofree char *score = game->scored ? g_strdup_printf ("%d", s->score)
                                        : g_strdup (s->score > 0 ? _ ("still in") : _ ("out"));
  GtkWidget *score_label = gtk_label_new (score);
  gtk_widget_add_css_class (score_label, game->scored ? "title-3" : "heading");
  adw_action_row_add_suffix (row, score_label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data_full (G_OBJECT (row), "player", g_strdup (s->name), g_free);
  return GTK_WIDGET (row);
}

static void
on_player_activated (GtkListBox *list, GtkListBoxRow *row, UiHistoryGame *self)
{
  const char *name = g_object_get_data (G_OBJECT (row), "player");
  if (name != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "history.show-player", "s", name);
}

gboolean
ui_history_game_show (UiHistoryGame *self, gint64 id)
{
  g_return_val_if_fail (UI_IS_HISTORY_GAME (self), FALSE);
  if (self->store == NULL)
    return FALSE;
  g_autoptr (HstGame) game = hst_store_get_game (self->store, id, NULL);
  if (game == NULL)
    return FALSE;
  g_autofree char *when = hst_format_time (game->started > 0 ? game->started : game->ended);
  g_autofree char *title = g_strdup_printf ("%s — %s", hst_game_title (game), when);
  gtk_label_set_text (self->title_label, title);
  g_autofree char *text = summary (game);
  gtk_label_set_text (self->summary_label, text);
  ui_score_chart_set_game (self->chart, game);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->players_list))) != NULL)
    gtk_list_box_remove (self->players_list, child);
  for (guint p = 0; p < game->n_seats; p++)
    gtk_list_box_append (self->players_list, player_row (game, p));
  g_autofree char *report = hst_game_report (game);
  gtk_label_set_text (self->report_view, report);
  gtk_label_set_text (self->record_view, game->record);
  gtk_stack_set_visible_child_name (self->text_stack, "report");
  return TRUE;
}

static void
ui_history_game_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_HISTORY_GAME);
  G_OBJECT_CLASS (ui_history_game_parent_class)->dispose (object);
}

static void
ui_history_game_class_init (UiHistoryGameClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_history_game_dispose;
  g_type_ensure (UI_TYPE_SCORE_CHART);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-history-game.ui");
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, box);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, title_label);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, summary_label);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, chart);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, players_list);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, text_stack);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, report_view);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryGame, record_view);
}

static void
ui_history_game_init (UiHistoryGame *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->players_list, "row-activated", G_CALLBACK (on_player_activated), self);
}
