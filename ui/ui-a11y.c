#include "ui-a11y.h"

#include <glib/gi18n.h>


/* The text of a mnemonic label: "_Next" is "Next", "__" an underscore. */
static char *
strip_mnemonic (const char *label)
{
  GString *text = g_string_new (NULL);
  for (const char *p = label; *p != '\0'; p++)
    {
      if (*p == '_' && p[1] != '\0')
        p++;
      g_string_append_c (text, *p);
    }
  return g_string_free (text, FALSE);
}

/* The button's name is its label's text alone: GTK 4.8 gives it the raw
 * label beside the child label that also names it ("_Next Next"). */
static void
name_button (GtkButton *button)
{
  const char *label = gtk_button_get_label (button);
  /* an icon-only close button nobody named (a toast's, libadwaita's own) */
  if (label == NULL && gtk_widget_get_tooltip_text (GTK_WIDGET (button)) == NULL
      && g_strcmp0 (gtk_button_get_icon_name (button), "window-close-symbolic") == 0)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _ ("Dismiss"), -1);
      return;
    }
  if (!gtk_button_get_use_underline (button) || label == NULL)
    return;
  g_autofree char *text = strip_mnemonic (label);
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

static void
prepare_button (GtkButton *button)
{
  if (g_object_get_data (G_OBJECT (button), "ui-a11y") == NULL)
    {
      g_object_set_data (G_OBJECT (button), "ui-a11y", GINT_TO_POINTER (1));
      /* after GtkButton's own handler, which names it its way again */
      g_signal_connect_after (button, "notify::label", G_CALLBACK (name_button), NULL);
      g_signal_connect_after (button, "notify::use-underline", G_CALLBACK (name_button), NULL);
    }
  name_button (button);
}

static void
prepare_tree (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    prepare_button (GTK_BUTTON (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    prepare_tree (child);
}

/* A window shown: every button in it, on a page shown or not (a hidden
 * page's buttons are in the tree too); a button shown later (built as the
 * game goes): that one. */
static gboolean
on_map (GSignalInvocationHint *hint, guint n_params, const GValue *params, gpointer data)
{
  GtkWidget *widget = g_value_get_object (&params[0]);
  if (GTK_IS_WINDOW (widget))
    prepare_tree (widget);
  else if (GTK_IS_BUTTON (widget))
    prepare_button (GTK_BUTTON (widget));
  return TRUE;
}

void
ui_a11y_install (void)
{
  static gsize installed = 0;
  if (!g_once_init_enter (&installed))
    return;
  /* the signal exists once the class is initialized */
  g_type_class_unref (g_type_class_ref (GTK_TYPE_BUTTON));
  g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0, on_map, NULL, NULL);
  g_once_init_leave (&installed, 1);
}

void
ui_a11y_name_control (GtkWidget *control, const char *name, const char *description)
{
  g_return_if_fail (GTK_IS_WIDGET (control));
  gtk_accessible_update_property (GTK_ACCESSIBLE (control), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  if (description != NULL && description[0] != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (control), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);
  /* a drop-down is pressed through its inner button: it is named too */
  if (GTK_IS_DROP_DOWN (control) && gtk_widget_get_first_child (control) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_first_child (control)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}
