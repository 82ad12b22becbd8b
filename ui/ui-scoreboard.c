#include "ui-scoreboard.h"

#include <glib/gi18n-lib.h>

#include <adwaita.h>

#include "ui-list.h"

struct _UiScoreboard
{
  GtkBox parent_instance;

  UiReferee *referee;
  gulong changed_id;
  GtkLabel *turn_label;
  GtkListBox *players;
};

G_DEFINE_FINAL_TYPE (UiScoreboard, ui_scoreboard, GTK_TYPE_BOX)

static void
rebuild (UiScoreboard *self)
{
  ui_list_clear (self->players);
  if (self->referee == NULL)
    {
      gtk_label_set_text (self->turn_label, _ ("No game"));
      return;
    }
  g_autofree char *status = ui_referee_dup_status (self->referee);
  gtk_label_set_text (self->turn_label, status);
  const EngView *view = ui_referee_get_view (self->referee);
  /* the marker points at whoever the table waits for: the defender during
   * a defence, not the player whose turn it is */
  int waiting_for = ui_referee_get_waiting_for (self->referee);

  for (unsigned p = 0; p < view->n_players; p++)
    {
      const EngViewPlayer *vp = &view->players[p];
      GtkWidget *row = adw_action_row_new ();
      const char *mark = (int) p == waiting_for
                           ? ((int) p == view->active ? _ ("  ◀ turn") : _ ("  ◀ to answer"))
                         : (vp->flags & ENG_VIEW_PLAYER_OUT) ? _ ("  (out)") : "";
      g_autofree char *title = g_strdup_printf ("%s%s", vp->name, mark);
      g_autofree char *captured = ui_referee_dup_captured (self->referee, p);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), captured);
      /* a game without points shows the cards in hand instead */
      g_autofree char *score = view->scored ? g_strdup_printf ("%d", vp->score)
                               : vp->hand >= 0 ? g_strdup_printf (_ ("%d in hand"), vp->hand)
                               : g_strdup ("");
      GtkWidget *score_label = gtk_label_new (score);
      gtk_widget_add_css_class (score_label, view->scored ? "title-2" : "title-4");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), score_label);
      gtk_list_box_append (self->players, row);
    }
  /* the game's own panels ("Cards left: 2"), described as data */
  for (unsigned i = 0; i < view->n_panels; i++)
    {
      const EngViewPanel *panel = &view->panels[i];
      GString *rows = g_string_new (NULL);
      for (unsigned r = 0; r < panel->n_rows; r++)
        g_string_append_printf (rows, "%s%s: %s", r ? " · " : "", panel->rows[r].label,
                                panel->rows[r].value);
      GtkWidget *row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), panel->title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), rows->str);
      g_string_free (rows, TRUE);
      gtk_list_box_append (self->players, row);
    }
}

void
ui_scoreboard_set_referee (UiScoreboard *self, UiReferee *referee)
{
  g_return_if_fail (UI_IS_SCOREBOARD (self));
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_set_object (&self->referee, referee);
  if (referee != NULL)
    self->changed_id = g_signal_connect_swapped (referee, "changed", G_CALLBACK (rebuild), self);
  rebuild (self);
}

static void
ui_scoreboard_dispose (GObject *object)
{
  UiScoreboard *self = UI_SCOREBOARD (object);
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_clear_object (&self->referee);
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_SCOREBOARD);
  G_OBJECT_CLASS (ui_scoreboard_parent_class)->dispose (object);
}

static void
ui_scoreboard_class_init (UiScoreboardClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_scoreboard_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-scoreboard.ui");
  gtk_widget_class_bind_template_child (widget_class, UiScoreboard, turn_label);
  gtk_widget_class_bind_template_child (widget_class, UiScoreboard, players);
}

static void
ui_scoreboard_init (UiScoreboard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  rebuild (self);
}

GtkWidget *
ui_scoreboard_new (void)
{
  return g_object_new (UI_TYPE_SCOREBOARD, NULL);
}
