#include "ui-table-mode.h"

#include "eng-i18n.h"

#include <glib/gi18n-lib.h>

struct _UiTableMode
{
  GtkBox parent_instance;

  UiReferee *referee;
  gulong changed_id;
  GtkLabel *headline;
  GtkLabel *phase;
  GtkLabel *next;
  GtkButton *new_game;
  GtkBox *refusal_box;
  GtkLabel *refusal;
  GtkBox *scores;
  GtkLabel *notice;
  guint notice_timeout;
  GtkCssProvider *type_size;   /* the font size for the screen (ui_table_mode_fit) */
};

G_DEFINE_FINAL_TYPE (UiTableMode, ui_table_mode, GTK_TYPE_BOX)

static GtkWidget *
big_label (const char *text, double scale, gboolean bold)
{
  GtkWidget *label = gtk_label_new (text);
  PangoAttrList *attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_scale_new (scale));
  if (bold)
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  gtk_label_set_attributes (GTK_LABEL (label), attrs);
  pango_attr_list_unref (attrs);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  return label;
}

/* A player's column: the name, then the score (or cards in hand for a game
 * without points); the player the table waits for is marked. */
static GtkWidget *
player_column (const EngView *view, unsigned p, int waiting_for)
{
  const EngViewPlayer *vp = &view->players[p];
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (box, "card");
  gboolean waits = (int) p == waiting_for;
  g_autofree char *name = waits ? g_strdup_printf ("▶ %s", vp->name) : g_strdup (vp->name);
  GtkWidget *name_label = big_label (name, 2.4, waits);
  gtk_widget_set_margin_top (name_label, 12);
  gtk_widget_set_margin_start (name_label, 12);
  gtk_widget_set_margin_end (name_label, 12);
  if (waits)
    gtk_widget_add_css_class (name_label, "accent");
  if (vp->flags & ENG_VIEW_PLAYER_OUT)
    gtk_widget_add_css_class (name_label, "dim-label");
  gtk_box_append (GTK_BOX (box), name_label);
  g_autofree char *score = view->scored ? g_strdup_printf ("%d", vp->score)
                           : vp->hand >= 0 ? g_strdup_printf (_ ("%d in hand"), vp->hand)
                           : g_strdup ("");
  GtkWidget *score_label = big_label (score, view->scored ? 5.0 : 2.6, TRUE);
  gtk_widget_set_margin_bottom (score_label, 12);
  gtk_box_append (GTK_BOX (box), score_label);
  if (vp->status[0] != '\0')
    {
      GtkWidget *status = big_label (vp->status, 1.6, FALSE);
      gtk_widget_add_css_class (status, "dim-label");
      gtk_widget_set_margin_bottom (status, 12);
      gtk_box_append (GTK_BOX (box), status);
    }
  return box;
}

/* What to do next: the open questions, then the table's expectations; at
 * most three lines, so the type stays large. */
static char *
next_text (UiReferee *referee)
{
  g_auto (GStrv) questions = ui_referee_dup_questions (referee);
  g_auto (GStrv) todo = ui_referee_dup_expectations (referee);
  GString *text = g_string_new (NULL);
  guint n = 0;
  for (char **q = questions; q != NULL && *q != NULL && n < 3; q++, n++)
    g_string_append_printf (text, "%s%s", n ? "\n" : "", *q);
  for (char **t = todo; t != NULL && *t != NULL && n < 3; t++, n++)
    g_string_append_printf (text, "%s%s", n ? "\n" : "", *t);
  return g_string_free (text, FALSE);
}

static void
rebuild (UiTableMode *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->scores))) != NULL)
    gtk_box_remove (self->scores, child);
  if (self->referee == NULL)
    {
      gtk_label_set_text (self->headline, _ ("No game"));
      gtk_label_set_text (self->phase, "");
      gtk_label_set_text (self->next, "");
      gtk_widget_set_visible (GTK_WIDGET (self->new_game), TRUE);
      return;
    }
  const EngView *view = ui_referee_get_view (self->referee);
  g_autofree char *headline = ui_referee_dup_headline (self->referee);
  gtk_label_set_text (self->headline, headline);
  gboolean over = ui_referee_is_over (self->referee);
  int waiting_for = ui_referee_get_waiting_for (self->referee);
  g_autofree char *phase = NULL;
  if (!over && view->active >= 0 && waiting_for != view->active)
    /* Translators: whose turn it is while another player must answer, then the phase. */
    {
      phase = g_strdup_printf (_ ("%s's turn · %s"), view->players[view->active].name, view->phase);
      eng_i18n_elide (phase);   /* "Torn d'Ana" */
    }
  if (phase == NULL)
    {
      phase = g_strdup (view->phase);
      eng_i18n_capitalize (phase);   /* the phase alone starts the line */
    }
  gtk_label_set_text (self->phase, over ? "" : phase);
  g_autofree char *next = over ? g_strdup ("") : next_text (self->referee);
  gtk_label_set_text (self->next, next);
  gtk_widget_set_visible (GTK_WIDGET (self->next), next[0] != '\0');
  gtk_widget_set_visible (GTK_WIDGET (self->new_game), over);
  if (over)
    ui_table_mode_clear_refusal (self);
  for (unsigned p = 0; p < view->n_players; p++)
    gtk_box_append (self->scores, player_column (view, p, waiting_for));
}

void
ui_table_mode_set_referee (UiTableMode *self, UiReferee *referee)
{
  g_return_if_fail (UI_IS_TABLE_MODE (self));
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_set_object (&self->referee, referee);
  if (referee != NULL)
    self->changed_id = g_signal_connect_swapped (referee, "changed", G_CALLBACK (rebuild), self);
  ui_table_mode_clear_refusal (self);
  rebuild (self);
}

void
ui_table_mode_show_refusal (UiTableMode *self, const char *what, const char *rule_title)
{
  g_return_if_fail (UI_IS_TABLE_MODE (self));
  /* read from across the table: the referee's words (what to do instead);
   * the rule's name for who looks closer */
  gtk_label_set_text (self->refusal, what);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->refusal), rule_title);
  gtk_widget_set_visible (GTK_WIDGET (self->refusal_box), TRUE);
}

void
ui_table_mode_clear_refusal (UiTableMode *self)
{
  g_return_if_fail (UI_IS_TABLE_MODE (self));
  gtk_label_set_text (self->refusal, "");
  gtk_widget_set_visible (GTK_WIDGET (self->refusal_box), FALSE);
}

const char *
ui_table_mode_get_headline (UiTableMode *self)
{
  g_return_val_if_fail (UI_IS_TABLE_MODE (self), NULL);
  return gtk_label_get_text (self->headline);
}

const char *
ui_table_mode_get_next (UiTableMode *self)
{
  g_return_val_if_fail (UI_IS_TABLE_MODE (self), NULL);
  return gtk_label_get_text (self->next);
}

const char *
ui_table_mode_get_refusal (UiTableMode *self)
{
  g_return_val_if_fail (UI_IS_TABLE_MODE (self), NULL);
  return gtk_label_get_text (self->refusal);
}

void
ui_table_mode_fit (UiTableMode *self, int width, int height)
{
  g_return_if_fail (UI_IS_TABLE_MODE (self));
  /* the scales in ui-table-mode.ui are of this size: 15 px on 1080 lines
   * (a score near 75 px), in proportion below, bounded for tall screens;
   * a narrow screen gets the size its width allows (4:3 and portrait) */
  double lines = MIN ((double) height, width * 9.0 / 16.0);
  double px = CLAMP (15.0 * lines / 1080.0, 7.5, 22.0);
  g_autofree char *css = g_strdup_printf (".table-mode { font-size: %.1fpx; }", px);
  gtk_css_provider_load_from_data (self->type_size, css, -1);
}

static gboolean
hide_notice (gpointer data)
{
  UiTableMode *self = data;
  self->notice_timeout = 0;
  gtk_label_set_text (self->notice, "");
  gtk_widget_set_visible (GTK_WIDGET (self->notice), FALSE);
  return G_SOURCE_REMOVE;
}

void
ui_table_mode_show_notice (UiTableMode *self, const char *text)
{
  g_return_if_fail (UI_IS_TABLE_MODE (self));
  gtk_label_set_text (self->notice, text);
  gtk_widget_set_visible (GTK_WIDGET (self->notice), TRUE);
  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  self->notice_timeout = g_timeout_add_seconds (8, hide_notice, self);
}

const char *
ui_table_mode_get_notice (UiTableMode *self)
{
  g_return_val_if_fail (UI_IS_TABLE_MODE (self), NULL);
  return gtk_label_get_text (self->notice);
}

static void
ui_table_mode_dispose (GObject *object)
{
  UiTableMode *self = UI_TABLE_MODE (object);
  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  if (self->type_size != NULL)
    {
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_remove_provider (gtk_widget_get_style_context (GTK_WIDGET (self)),
                                         GTK_STYLE_PROVIDER (self->type_size));
      G_GNUC_END_IGNORE_DEPRECATIONS
      g_clear_object (&self->type_size);
    }
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_clear_object (&self->referee);
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_TABLE_MODE);
  G_OBJECT_CLASS (ui_table_mode_parent_class)->dispose (object);
}

static void
ui_table_mode_class_init (UiTableModeClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_table_mode_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-table-mode.ui");
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, headline);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, phase);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, next);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, new_game);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, refusal_box);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, refusal);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, scores);
  gtk_widget_class_bind_template_child (widget_class, UiTableMode, notice);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ui_table_mode_init (UiTableMode *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* the font size every scale of the template multiplies: a provider of
   * this widget's own (font-size is inherited by the labels) */
  self->type_size = gtk_css_provider_new ();
  gtk_widget_add_css_class (GTK_WIDGET (self), "table-mode");
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_add_provider (gtk_widget_get_style_context (GTK_WIDGET (self)),
                                  GTK_STYLE_PROVIDER (self->type_size),
                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  G_GNUC_END_IGNORE_DEPRECATIONS
  ui_table_mode_fit (self, 1920, 1080);
  rebuild (self);
}

GtkWidget *
ui_table_mode_new (void)
{
  return g_object_new (UI_TYPE_TABLE_MODE, NULL);
}
