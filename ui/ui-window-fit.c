#include "ui-window-fit.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* The size a window prefers on a large screen: four fifths of it, at
 * least 1280x800 (the panel and a picture large enough to read stickers),
 * never more than the screen. */
#define PREFERRED_WIDTH 1280
#define PREFERRED_HEIGHT 800
#define PANEL_MIN 360
#define PANEL_MAX 520

UiWindowFit
ui_window_fit_for_area (int area_width, int area_height)
{
  UiWindowFit fit = { PREFERRED_WIDTH, PREFERRED_HEIGHT, FALSE, PANEL_MIN };
  if (area_width <= 0 || area_height <= 0)
    return fit;
  int width = MAX (PREFERRED_WIDTH, area_width * 4 / 5);
  int height = MAX (PREFERRED_HEIGHT, area_height * 4 / 5);
  fit.maximize = width >= area_width || height >= area_height;
  fit.width = MIN (width, area_width);
  fit.height = MIN (height, area_height);
  /* a third of the width for the panel, within what its words need */
  fit.panel_width = CLAMP (fit.width * 3 / 10, PANEL_MIN, PANEL_MAX);
  return fit;
}

static GdkMonitor *
window_monitor (GtkWindow *window)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (window));
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  if (surface != NULL && gtk_widget_get_mapped (GTK_WIDGET (window)))
    {
      GdkMonitor *monitor = gdk_display_get_monitor_at_surface (display, surface);
      if (monitor != NULL)
        return g_object_ref (monitor);
    }
#ifdef GDK_WINDOWING_X11
  if (GDK_IS_X11_DISPLAY (display))
    {
      GdkMonitor *primary = gdk_x11_display_get_primary_monitor (display);
      if (primary != NULL)
        return g_object_ref (primary);
    }
#endif
  GListModel *monitors = gdk_display_get_monitors (display);
  return g_list_model_get_n_items (monitors) > 0 ? g_list_model_get_item (monitors, 0) : NULL;
}

gboolean
ui_window_fit_monitor (GtkWindow *window, GdkRectangle *area, int *width, int *height)
{
  g_return_val_if_fail (GTK_IS_WINDOW (window), FALSE);
  g_autoptr (GdkMonitor) monitor = window_monitor (window);
  if (monitor == NULL)
    return FALSE;
  GdkRectangle geometry;
  gdk_monitor_get_geometry (monitor, &geometry);
  if (width != NULL)
    *width = geometry.width;
  if (height != NULL)
    *height = geometry.height;
  if (area != NULL)
    {
      *area = geometry;
#ifdef GDK_WINDOWING_X11
      if (GDK_IS_X11_MONITOR (monitor))
        gdk_x11_monitor_get_workarea (monitor, area);
#endif
    }
  return TRUE;
}

void
ui_window_fit_monitor_size (GtkWindow *window, int *width, int *height)
{
  if (!ui_window_fit_monitor (window, NULL, width, height))
    {
      *width = 1280;
      *height = 720;
    }
}

int
ui_window_fit_to_monitor (GtkWindow *window)
{
  g_return_val_if_fail (GTK_IS_WINDOW (window), PANEL_MIN);
  GdkRectangle area = { 0 };
  if (!ui_window_fit_monitor (window, &area, NULL, NULL))
    area.width = area.height = 0;
  UiWindowFit fit = ui_window_fit_for_area (area.width, area.height);
  gtk_window_set_default_size (window, fit.width, fit.height);
  if (fit.maximize)
    gtk_window_maximize (window);
  return fit.panel_width;
}

/* A dialog being realized: its default size is read when it is first
 * shown, right after. */
static gboolean
on_realize (GSignalInvocationHint *hint, guint n_params, const GValue *params, gpointer data)
{
  GObject *object = g_value_get_object (&params[0]);
  if (!GTK_IS_WINDOW (object) || gtk_window_get_transient_for (GTK_WINDOW (object)) == NULL)
    return TRUE;
  GtkWindow *dialog = GTK_WINDOW (object);
  GdkRectangle area;
  if (!ui_window_fit_monitor (gtk_window_get_transient_for (dialog), &area, NULL, NULL))
    return TRUE;
  int width, height;
  gtk_window_get_default_size (dialog, &width, &height);
  /* a margin, so the window manager's placing leaves it on screen */
  int room_w = area.width - 24, room_h = area.height - 24;
  if (width > room_w || height > room_h)
    gtk_window_set_default_size (dialog, MIN (width, room_w), MIN (height, room_h));
  return TRUE;
}

void
ui_window_fit_dialogs (void)
{
  static gsize installed = 0;
  if (!g_once_init_enter (&installed))
    return;
  g_type_class_unref (g_type_class_ref (GTK_TYPE_WINDOW));
  g_signal_add_emission_hook (g_signal_lookup ("realize", GTK_TYPE_WIDGET), 0, on_realize, NULL, NULL);
  g_once_init_leave (&installed, 1);
}
