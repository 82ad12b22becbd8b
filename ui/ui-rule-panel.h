/* ui-rule-panel.h: explains a refused or unexpected play: what happened
 * and what to do instead (the referee's words), the rule it breaks by its
 * name and that same rule in plain words, so new players learn while they
 * play.  The rule's id is a detail, in small type under the explanation. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define UI_TYPE_RULE_PANEL (ui_rule_panel_get_type ())
G_DECLARE_FINAL_TYPE (UiRulePanel, ui_rule_panel, UI, RULE_PANEL, GtkBox)

GtkWidget *ui_rule_panel_new (void);

/* Shows `what` (the referee's words), the rule broken, `rule_id` ("K5";
 * may be empty), by its `title` and its `explanation` (both may be NULL:
 * an id that is no ruling, "table").  All copied. */
void ui_rule_panel_explain (UiRulePanel *self, const char *what, const char *rule_id,
                            const char *title, const char *explanation);

/* The rule the panel explains now ("" when it names none or is hidden),
 * and the explanation it shows ("" none): for tests. */
const char *ui_rule_panel_get_rule_id (UiRulePanel *self);
const char *ui_rule_panel_get_explanation (UiRulePanel *self);

/* Hides the panel. */
void ui_rule_panel_dismiss (UiRulePanel *self);

G_END_DECLS
