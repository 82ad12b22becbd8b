#include "ui-history-player.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "hst-stats.h"
#include "ui-option-docs.h"

/* The rules a player is shown to practise: the most frequent refusals. */
#define MAX_RULES 8

struct _UiHistoryPlayer
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkLabel *name_label;
  GtkLabel *summary_label;
  GtkLevelBar *win_bar;
  GtkListBox *kinds_list;
  GtkListBox *rivals_list;
  GtkListBox *rules_list;

  HstStore *store;           /* borrowed */
  GHashTable *explanations;  /* game -> its UiRuleDocs, read once per game */
};

G_DEFINE_FINAL_TYPE (UiHistoryPlayer, ui_history_player, GTK_TYPE_WIDGET)

void
ui_history_player_set_store (UiHistoryPlayer *self, HstStore *store)
{
  g_return_if_fail (UI_IS_HISTORY_PLAYER (self));
  self->store = store;
}

/* `rule` of `game` in the table's language; NULL when its rules file
 * does not name it. */
static const UiRuleDoc *
explain (UiHistoryPlayer *self, const char *game, const char *rule)
{
  GPtrArray *rules = g_hash_table_lookup (self->explanations, game);
  if (rules == NULL)
    {
      rules = ui_rule_docs_load_game (game);
      g_hash_table_insert (self->explanations, g_strdup (game), rules);
    }
  for (guint i = 0; i < rules->len; i++)
    {
      const UiRuleDoc *doc = rules->pdata[i];
      if (g_strcmp0 (doc->id, rule) == 0)
        return doc;
    }
  return NULL;
}

static const char *
game_title (const char *game)
{
  const EngGameClass *klass = eng_game_class_find (game);
  return klass != NULL && klass->title != NULL ? klass->title : game;
}

/* A row with an escaped title and subtitle and, when `rate` >= 0, a bar
 * showing it (0 to 1). */
static GtkWidget *
stat_row (const char *title, const char *subtitle, double rate)
{
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
  g_autofree char *t = g_markup_escape_text (title, -1);
  g_autofree char *s = g_markup_escape_text (subtitle, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
  adw_action_row_set_subtitle (row, s);
  adw_action_row_set_subtitle_lines (row, 0);
  if (rate >= 0)
    {
      GtkWidget *bar = gtk_level_bar_new_for_interval (0, 1);
      gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), rate);
      gtk_widget_set_size_request (bar, 90, -1);
      gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (row, bar);
    }
  return GTK_WIDGET (row);
}

static void
clear (GtkListBox *list)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static void
fill_kinds (UiHistoryPlayer *self, const HstPlayerStats *s)
{
  clear (self->kinds_list);
  for (guint i = 0; i < s->kinds->len; i++)
    {
      const HstKindStats *k = &g_array_index (s->kinds, HstKindStats, i);
      GString *sub = g_string_new (NULL);
      g_string_append_printf (sub, g_dngettext (GETTEXT_PACKAGE, "%u played, %u won (%.0f %%)",
                                                "%u played, %u won (%.0f %%)", k->played),
                              k->played, k->won, hst_win_rate (k->won, k->played));
      if (k->scored && k->played > 0)
        {
          g_string_append (sub, " · ");
          /* Translators: a player's average and best score at the end of a game */
          g_string_append_printf (sub, _ ("average %.1f, best %d"), k->average, k->best);
        }
      if (k->abandoned > 0)
        {
          g_string_append (sub, " · ");
          g_string_append_printf (sub, g_dngettext (GETTEXT_PACKAGE, "%u left unfinished", "%u left unfinished",
                                                    k->abandoned), k->abandoned);
        }
      gtk_list_box_append (self->kinds_list, stat_row (game_title (k->game), sub->str,
                                                       k->played > 0 ? (double) k->won / k->played : 0));
      g_string_free (sub, TRUE);
    }
}

static void
fill_rivals (UiHistoryPlayer *self, const HstPlayerStats *s)
{
  clear (self->rivals_list);
  for (guint i = 0; i < s->rivals->len; i++)
    {
      const HstRival *r = &g_array_index (s->rivals, HstRival, i);
      /* Translators: a player's record against another: "against Bea" */
      g_autofree char *title = g_strdup_printf (_ ("against %s"), r->name);
      g_autofree char *sub = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u game together: %s won %u, %s won %u",
                                                           "%u games together: %s won %u, %s won %u", r->together),
                                              r->together, s->name, r->won, r->name, r->rival_won);
      gtk_list_box_append (self->rivals_list,
                           stat_row (title, sub, r->together > 0 ? (double) r->won / r->together : 0));
    }
  if (s->rivals->len == 0)
    gtk_list_box_append (self->rivals_list, stat_row (_ ("No finished game against anyone yet"), "", -1));
}

static void
fill_rules (UiHistoryPlayer *self, const HstPlayerStats *s)
{
  clear (self->rules_list);
  for (guint i = 0; i < s->refusals->len; i++)
    {
      const HstRuleCount *r = &g_array_index (s->refusals, HstRuleCount, i);
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u move refused",
                                                             "%s: %u moves refused", r->count),
                                                game_title (r->game), r->count);
      const UiRuleDoc *doc = explain (self, r->game, r->rule);
      /* the rule by its name and in plain words (its id is in the rules
       * dialog, F1, for who looks it up); a rule the file lacks by its id */
      g_autofree char *sub = doc != NULL ? g_strdup_printf ("%s: %s", doc->title, doc->text) : g_strdup (r->rule);
      gtk_list_box_append (self->rules_list, stat_row (title, sub, -1));
    }
  if (s->refusals->len == 0)
    gtk_list_box_append (self->rules_list, stat_row (_ ("No move refused yet: nothing to practise"), "", -1));
}

gboolean
ui_history_player_show (UiHistoryPlayer *self, const char *name)
{
  g_return_val_if_fail (UI_IS_HISTORY_PLAYER (self), FALSE);
  if (self->store == NULL || name == NULL)
    return FALSE;
  g_autoptr (HstPlayerStats) s = hst_store_player_stats (self->store, name, MAX_RULES, NULL);
  if (s == NULL)
    return FALSE;
  gtk_label_set_text (self->name_label, s->name);
  g_autofree char *played = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u game played", "%u games played",
                                                          s->played), s->played);
  g_autofree char *won = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u won (%.0f %%)", "%u won (%.0f %%)",
                                                       s->won), s->won, hst_win_rate (s->won, s->played));
  g_autofree char *line = g_strdup_printf ("%s · %s", played, won);
  gtk_label_set_text (self->summary_label, line);
  gtk_level_bar_set_value (self->win_bar, s->played > 0 ? (double) s->won / s->played : 0);
  fill_kinds (self, s);
  fill_rivals (self, s);
  fill_rules (self, s);
  return TRUE;
}

static void
ui_history_player_dispose (GObject *object)
{
  UiHistoryPlayer *self = UI_HISTORY_PLAYER (object);
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_HISTORY_PLAYER);
  g_clear_pointer (&self->explanations, g_hash_table_unref);
  G_OBJECT_CLASS (ui_history_player_parent_class)->dispose (object);
}

static void
ui_history_player_class_init (UiHistoryPlayerClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_history_player_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-history-player.ui");
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, box);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, name_label);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, summary_label);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, win_bar);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, kinds_list);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, rivals_list);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryPlayer, rules_list);
}

static void
ui_history_player_init (UiHistoryPlayer *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->explanations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
}
