/* ui-screenshot.h: a widget saves a picture of itself, as a person sees it.
 * Used by `tablero --screenshot FILE` and the GUI tests under Xvfb. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define UI_SCREENSHOT_ERROR (ui_screenshot_error_quark ())
GQuark ui_screenshot_error_quark (void);

typedef enum {
  UI_SCREENSHOT_ERROR_NOT_REALIZED,
  UI_SCREENSHOT_ERROR_EMPTY,
} UiScreenshotError;

/* Renders `widget` (realized, with a non-zero size) to a PNG at `path`.
 * Returns FALSE and sets `error` when the widget cannot be drawn or the file
 * cannot be written. */
gboolean ui_screenshot_save_png (GtkWidget *widget, const char *path, GError **error);

G_END_DECLS
