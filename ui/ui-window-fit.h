/* ui-window-fit.h: a window sized for the screen it is on.  Laptops from
 * 1024x600 up: the main window opens at a size its monitor's usable area
 * holds (maximized when that area is smaller than the size the window
 * prefers), the panel beside the picture takes a share of that width, and
 * table mode's type is sized for the monitor's height. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What a window opening on a usable area of `area_width` x `area_height`
 * px should do: open at `width` x `height` (never larger than the area),
 * maximized when `maximize`; the side panel `panel_width` px wide. */
typedef struct {
  int width, height;
  gboolean maximize;
  int panel_width;
} UiWindowFit;

/* The sizes for an area (pure: tests call it).  An area of 0 or less in
 * either direction (no monitor known) gives 1280x800, not maximized. */
UiWindowFit ui_window_fit_for_area (int area_width, int area_height);

/* The monitor `window` is on (its surface's monitor once mapped, else the
 * display's primary one on X11, else the first): its usable area (the
 * work area the panels leave, on X11) in `area`, its whole size in
 * `width` and `height` (either pointer may be NULL).  FALSE, and nothing
 * written, when the display has no monitor. */
gboolean ui_window_fit_monitor (GtkWindow *window, GdkRectangle *area, int *width, int *height);

/* The whole size of `window`'s monitor (1280x720 when none is known). */
void ui_window_fit_monitor_size (GtkWindow *window, int *width, int *height);

/* Sets `window`'s default size (and maximizes it when needed) for its
 * monitor's usable area, before it is presented; returns the panel width
 * for that area. */
int ui_window_fit_to_monitor (GtkWindow *window);

/* From now on every dialog (a window with a parent) opens no larger than
 * its monitor's usable area, less a margin: a rules or setup window made
 * for 720 lines still fits 1024x600.  Once per process. */
void ui_window_fit_dialogs (void);

G_END_DECLS
