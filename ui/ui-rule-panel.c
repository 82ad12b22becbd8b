#include "ui-rule-panel.h"

#include <glib/gi18n-lib.h>

struct _UiRulePanel
{
  GtkBox parent_instance;

  GtkLabel *title;
  GtkLabel *what;
  GtkLabel *rule;
  GtkLabel *details;
  char *rule_id;
};

G_DEFINE_FINAL_TYPE (UiRulePanel, ui_rule_panel, GTK_TYPE_BOX)

void
ui_rule_panel_explain (UiRulePanel *self, const char *what, const char *rule_id,
                       const char *title, const char *explanation)
{
  g_return_if_fail (UI_IS_RULE_PANEL (self));
  gboolean has_rule = rule_id != NULL && rule_id[0] != '\0';
  /* Translators: the heading of a refusal, then the name of the rule it
   * breaks ("Not allowed: The Hook"). */
  g_autofree char *heading = title != NULL ? g_strdup_printf (_ ("Not allowed: %s"), title)
                                           : g_strdup (_ ("Not allowed"));
  gtk_label_set_text (self->title, heading);
  gtk_label_set_text (self->what, what);
  gtk_label_set_text (self->rule, explanation != NULL ? explanation : "");
  gtk_widget_set_visible (GTK_WIDGET (self->rule), explanation != NULL);
  /* the ruling's id, for who asks (RULINGS.md, the rules dialog) */
  g_autofree char *details = has_rule && explanation != NULL
                               ? g_strdup_printf (_ ("Rule %s in the rules (F1)"), rule_id)
                               : NULL;
  gtk_label_set_text (self->details, details != NULL ? details : "");
  gtk_widget_set_visible (GTK_WIDGET (self->details), details != NULL);
  g_free (self->rule_id);
  self->rule_id = g_strdup (has_rule ? rule_id : "");
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

const char *
ui_rule_panel_get_rule_id (UiRulePanel *self)
{
  g_return_val_if_fail (UI_IS_RULE_PANEL (self), "");
  return gtk_widget_get_visible (GTK_WIDGET (self)) && self->rule_id != NULL ? self->rule_id : "";
}

const char *
ui_rule_panel_get_explanation (UiRulePanel *self)
{
  g_return_val_if_fail (UI_IS_RULE_PANEL (self), "");
  return gtk_widget_get_visible (GTK_WIDGET (self)) ? gtk_label_get_text (self->rule) : "";
}

void
ui_rule_panel_dismiss (UiRulePanel *self)
{
  g_return_if_fail (UI_IS_RULE_PANEL (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
dismiss_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ui_rule_panel_dismiss (UI_RULE_PANEL (widget));
}

static void
ui_rule_panel_dispose (GObject *object)
{
  g_clear_pointer (&UI_RULE_PANEL (object)->rule_id, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_RULE_PANEL);
  G_OBJECT_CLASS (ui_rule_panel_parent_class)->dispose (object);
}

static void
ui_rule_panel_class_init (UiRulePanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_rule_panel_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-rule-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, UiRulePanel, title);
  gtk_widget_class_bind_template_child (widget_class, UiRulePanel, what);
  gtk_widget_class_bind_template_child (widget_class, UiRulePanel, rule);
  gtk_widget_class_bind_template_child (widget_class, UiRulePanel, details);
  gtk_widget_class_install_action (widget_class, "rule-panel.dismiss", NULL, dismiss_action);
}

static void
ui_rule_panel_init (UiRulePanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
ui_rule_panel_new (void)
{
  return g_object_new (UI_TYPE_RULE_PANEL, NULL);
}
