#include "ui-screenshot.h"

G_DEFINE_QUARK (ui-screenshot-error-quark, ui_screenshot_error)

gboolean
ui_screenshot_save_png (GtkWidget *widget, const char *path, GError **error)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  GtkNative *native = gtk_widget_get_native (widget);
  if (native == NULL || !gtk_widget_get_realized (widget))
    {
      g_set_error (error, UI_SCREENSHOT_ERROR, UI_SCREENSHOT_ERROR_NOT_REALIZED,
                   "the window is not shown yet");
      return FALSE;
    }
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL || width <= 0 || height <= 0)
    {
      g_set_error (error, UI_SCREENSHOT_ERROR, UI_SCREENSHOT_ERROR_EMPTY,
                   "the window has nothing to draw (%dx%d)", width, height);
      return FALSE;
    }
  GskRenderer *renderer = gtk_native_get_renderer (native);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (renderer, node, &bounds);
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   "could not write the screenshot to %s", path);
      return FALSE;
    }
  return TRUE;
}
