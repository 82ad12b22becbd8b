#include "ui-rules-dialog.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"
#include "eng-i18n.h"
#include "ui-option-docs.h"

struct _UiRulesDialog
{
  AdwWindow parent_instance;

  AdwPreferencesPage *page;
  AdwPreferencesGroup *about_group;
  AdwPreferencesGroup *options_group;
  GtkSearchEntry *search;
  GPtrArray *rule_docs;      /* UiRuleDoc, file order */
  GPtrArray *groups;         /* AdwPreferencesGroup, one per heading, file order */
  GPtrArray *rows;           /* AdwActionRow, parallel to rule_docs */
  guint n_shown;             /* rules the search shows now */
};

G_DEFINE_FINAL_TYPE (UiRulesDialog, ui_rules_dialog, ADW_TYPE_WINDOW)

static GtkWidget *
add_row (AdwPreferencesGroup *group, const char *title, const char *text)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_text = g_markup_escape_text (text, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_text);
  adw_preferences_group_add (group, row);
  return row;
}

/* One row a rule: its name, its plain explanation under it in full-size
 * type (what a new player reads), and its id (the rulings' "K12") small
 * at the end, for who asks. */
static GtkWidget *
add_rule_row (AdwPreferencesGroup *group, const UiRuleDoc *doc)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 10);
  gtk_widget_set_margin_bottom (box, 10);
  GtkWidget *heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title = gtk_label_new (doc->title);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_add_css_class (title, "heading");
  GtkWidget *id = gtk_label_new (doc->id);
  gtk_widget_add_css_class (id, "dim-label");
  gtk_widget_add_css_class (id, "caption");
  gtk_widget_set_valign (id, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (heading), title);
  gtk_box_append (GTK_BOX (heading), id);
  GtkWidget *text = gtk_label_new (doc->text);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), text);
  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, doc->title, -1);
  /* Translators: the rule's id in the rulings, said by a screen reader. */
  g_autofree char *described = g_strdup_printf (_ ("Rule %s: %s"), doc->id, doc->text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  described, -1);
  adw_preferences_group_add (group, row);
  return row;
}

/* The rules under their headings, in the file's order: the groups are
 * the data's (data/rules/GAME[.LANG].rules), never a list in code.  The
 * house rules follow them. */
static void
fill_rules (UiRulesDialog *self, const char *game)
{
  self->rule_docs = ui_rule_docs_load_game (game);
  self->groups = g_ptr_array_new ();
  self->rows = g_ptr_array_new ();
  g_object_ref (self->options_group);
  adw_preferences_page_remove (self->page, self->options_group);
  AdwPreferencesGroup *group = NULL;
  const char *heading = NULL;
  for (guint i = 0; i < self->rule_docs->len; i++)
    {
      const UiRuleDoc *doc = self->rule_docs->pdata[i];
      if (group == NULL || g_strcmp0 (heading, doc->group) != 0)
        {
          group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
          adw_preferences_group_set_title (group, doc->group[0] != '\0' ? doc->group : _ ("Rules"));
          adw_preferences_page_add (self->page, group);
          g_ptr_array_add (self->groups, group);
          heading = doc->group;
        }
      g_ptr_array_add (self->rows, add_rule_row (group, doc));
    }
  self->n_shown = self->rule_docs->len;
  adw_preferences_page_add (self->page, self->options_group);
  g_object_unref (self->options_group);
  if (self->rule_docs->len == 0)
    adw_preferences_group_set_description (self->about_group,
                                           _ ("The referee has no written explanations for this game: its refusals say the rule they apply."));
}

/* Shows the rules that answer `query` (ui_rule_doc_matches) and the
 * headings that still hold one; the house rules stay. */
static void
filter_rules (UiRulesDialog *self, const char *query)
{
  self->n_shown = 0;
  for (guint g = 0; g < self->groups->len; g++)
    {
      GtkWidget *group = self->groups->pdata[g];
      gboolean any = FALSE;
      for (guint i = 0; i < self->rows->len; i++)
        {
          GtkWidget *row = self->rows->pdata[i];
          if (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP) != group)
            continue;
          gboolean match = ui_rule_doc_matches (self->rule_docs->pdata[i], query);
          gtk_widget_set_visible (row, match);
          any |= match;
          self->n_shown += match;
        }
      gtk_widget_set_visible (group, any);
    }
}

static void
on_search_changed (UiRulesDialog *self)
{
  filter_rules (self, gtk_editable_get_text (GTK_EDITABLE (self->search)));
}

void
ui_rules_dialog_search (UiRulesDialog *self, const char *query)
{
  g_return_if_fail (UI_IS_RULES_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search), query != NULL ? query : "");
  filter_rules (self, query);
}

char **
ui_rules_dialog_dup_shown (UiRulesDialog *self)
{
  g_return_val_if_fail (UI_IS_RULES_DIALOG (self), NULL);
  GPtrArray *out = g_ptr_array_new ();
  for (guint g = 0; g < self->groups->len; g++)
    {
      GtkWidget *group = self->groups->pdata[g];
      if (!gtk_widget_get_visible (group))
        continue;
      g_ptr_array_add (out, g_strdup_printf ("[%s]", adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (group))));
      for (guint i = 0; i < self->rows->len; i++)
        if (gtk_widget_get_visible (self->rows->pdata[i])
            && gtk_widget_get_ancestor (self->rows->pdata[i], ADW_TYPE_PREFERENCES_GROUP) == group)
          g_ptr_array_add (out, g_strdup (((UiRuleDoc *) self->rule_docs->pdata[i])->id));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static void
fill_options (UiRulesDialog *self, const char *game)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) docs = ui_option_docs_load_game (game, &error);
  if (docs == NULL)
    {
      g_autofree char *why = g_strdup_printf (_ ("This game's rule options could not be read: %s"),
                                              error ? error->message : _ ("no data directory"));
      adw_preferences_group_set_description (self->options_group, why);
      return;
    }
  if (docs->len == 0)
    adw_preferences_group_set_description (self->options_group, _ ("This game has no rule options."));
  for (guint i = 0; i < docs->len; i++)
    {
      const UiOptionDoc *doc = docs->pdata[i];
      g_autofree char *title = doc->rule[0] ? g_strdup_printf ("%s (%s)", doc->title, doc->rule)
                                            : g_strdup (doc->title);
      GString *text = g_string_new (doc->description);
      for (guint k = 0; doc->choices != NULL && doc->choices[k] != NULL; k++)
        g_string_append_printf (text, "\n%s: %s", doc->labels[k],
                                doc->meanings != NULL && doc->meanings[k] != NULL ? doc->meanings[k] : "");
      /* Translators: the value a rule switch has unless the table changes it. */
      const char *shown = doc->value;
      for (guint k = 0; doc->choices != NULL && doc->choices[k] != NULL; k++)
        if (g_strcmp0 (doc->choices[k], doc->value) == 0)
          shown = doc->labels[k];
      g_string_append_printf (text, "\n%s %s", _ ("Default:"), shown);
      add_row (self->options_group, title, text->str);
      g_string_free (text, TRUE);
    }
}

static void
ui_rules_dialog_dispose (GObject *object)
{
  UiRulesDialog *self = UI_RULES_DIALOG (object);
  g_clear_pointer (&self->rule_docs, g_ptr_array_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_RULES_DIALOG);
  G_OBJECT_CLASS (ui_rules_dialog_parent_class)->dispose (object);
}

static void
ui_rules_dialog_class_init (UiRulesDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_rules_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-rules-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, UiRulesDialog, page);
  gtk_widget_class_bind_template_child (widget_class, UiRulesDialog, about_group);
  gtk_widget_class_bind_template_child (widget_class, UiRulesDialog, options_group);
  gtk_widget_class_bind_template_child (widget_class, UiRulesDialog, search);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ui_rules_dialog_init (UiRulesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* typing anywhere in the dialog searches */
  gtk_search_entry_set_key_capture_widget (self->search, GTK_WIDGET (self));
}

UiRulesDialog *
ui_rules_dialog_new (GtkWindow *parent, const char *game)
{
  UiRulesDialog *self = g_object_new (UI_TYPE_RULES_DIALOG, "transient-for", parent, NULL);
  if (parent != NULL)
    gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
  const EngGameClass *klass = eng_game_class_find (game);
  if (klass != NULL)
    {
      /* Translators: the dialog's title, with the game's name ("Katua"). */
      g_autofree char *title = g_strdup_printf (_ ("Rules of %s"),
                                                klass->title != NULL ? klass->title : klass->name);
      eng_i18n_elide (title);   /* "Regles d'Exploding Kittens" */
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  fill_rules (self, game);
  fill_options (self, game);
  return self;
}
