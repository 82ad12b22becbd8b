#include "ui-guide.h"

#include <glib/gi18n-lib.h>

struct _UiGuide
{
  AdwWindow parent_instance;

  AdwCarousel *carousel;
  GtkButton *next_button;
  guint pending_page;      /* ui_guide_show_page() before the guide had a size */
};

G_DEFINE_FINAL_TYPE (UiGuide, ui_guide, ADW_TYPE_WINDOW)

guint
ui_guide_get_n_pages (UiGuide *self)
{
  return adw_carousel_get_n_pages (self->carousel);
}

static guint
current_page (UiGuide *self)
{
  double position = adw_carousel_get_position (self->carousel);
  return position < 0 ? 0 : (guint) (position + 0.5);
}

/* Back is off on the first page; on the last, Next says Done and closes. */
static void
update_buttons (UiGuide *self)
{
  guint page = current_page (self);
  gboolean last = page + 1 >= ui_guide_get_n_pages (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "guide.back", page > 0);
  gtk_button_set_label (self->next_button, last ? _ ("_Done") : _ ("_Next"));
}

/* A carousel scrolls only once it has a size: a page asked for before the
 * guide is on screen waits until it has one. */
static gboolean
scroll_when_allocated (gpointer data)
{
  UiGuide *self = UI_GUIDE (data);
  if (gtk_widget_get_width (GTK_WIDGET (self->carousel)) <= 0)
    return G_SOURCE_CONTINUE;
  adw_carousel_scroll_to (self->carousel, adw_carousel_get_nth_page (self->carousel, self->pending_page), FALSE);
  update_buttons (self);
  return G_SOURCE_REMOVE;
}

void
ui_guide_show_page (UiGuide *self, guint index)
{
  g_return_if_fail (UI_IS_GUIDE (self));
  guint n = ui_guide_get_n_pages (self);
  if (n == 0)
    return;
  self->pending_page = MIN (index, n - 1);
  if (scroll_when_allocated (self) == G_SOURCE_CONTINUE)
    g_timeout_add_full (G_PRIORITY_DEFAULT, 50, scroll_when_allocated, g_object_ref (self), g_object_unref);
}

static void
next_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiGuide *self = UI_GUIDE (widget);
  guint page = current_page (self);
  if (page + 1 >= ui_guide_get_n_pages (self))
    gtk_window_close (GTK_WINDOW (self));
  else
    adw_carousel_scroll_to (self->carousel, adw_carousel_get_nth_page (self->carousel, page + 1), TRUE);
}

static void
back_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiGuide *self = UI_GUIDE (widget);
  guint page = current_page (self);
  if (page > 0)
    adw_carousel_scroll_to (self->carousel, adw_carousel_get_nth_page (self->carousel, page - 1), TRUE);
}

/* A page's button runs an action of the main window or the app (a detailed
 * name, "win.show-page::calibration"): the guide's own widget tree has
 * neither.  The last page's action starts the game, so the guide is done. */
static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiGuide *self = UI_GUIDE (widget);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  g_autofree char *name = NULL;
  g_autoptr (GVariant) target = NULL;
  if (parent == NULL || !g_action_parse_detailed_name (g_variant_get_string (parameter, NULL), &name, &target, NULL))
    return;
  gtk_widget_activate_action_variant (GTK_WIDGET (parent), name, target);
  if (current_page (self) + 1 >= ui_guide_get_n_pages (self))
    gtk_window_close (GTK_WINDOW (self));
}

static void
ui_guide_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_GUIDE);
  G_OBJECT_CLASS (ui_guide_parent_class)->dispose (object);
}

static void
ui_guide_class_init (UiGuideClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_guide_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-guide.ui");
  gtk_widget_class_bind_template_child (widget_class, UiGuide, carousel);
  gtk_widget_class_bind_template_child (widget_class, UiGuide, next_button);
  gtk_widget_class_install_action (widget_class, "guide.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "guide.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "guide.run", "s", run_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "guide.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "guide.back", NULL);
}

static void
ui_guide_init (UiGuide *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->carousel, "page-changed", G_CALLBACK (update_buttons), self);
  update_buttons (self);
}

UiGuide *
ui_guide_new (GtkWindow *parent)
{
  UiGuide *self = g_object_new (UI_TYPE_GUIDE, "transient-for", parent, NULL);
  if (parent != NULL)
    gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
  return self;
}
