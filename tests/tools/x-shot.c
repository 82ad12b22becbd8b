/* x-shot: saves the whole X screen ($DISPLAY's root window) as a PNG, the
 * window manager's frames and every window on it included: what a person
 * sees on that screen, where the app's own --screenshot saves only its
 * window's drawing.  Used by tests/tools/screenshots.sh through the app's
 * TABLERO_SCREENSHOT_HOOK.
 *
 *   x-shot FILE.png
 *
 * Exit 0 when written, 2 on a bad command line, 1 when the display or the
 * file fails (said on stderr). */
#include <X11/Xlib.h>
#include <cairo-xlib.h>
#include <cairo.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: x-shot FILE.png\n");
      return 2;
    }
  Display *dpy = XOpenDisplay (NULL);
  if (dpy == NULL)
    {
      fprintf (stderr, "x-shot: cannot open the display\n");
      return 1;
    }
  int screen = DefaultScreen (dpy);
  Window root = RootWindow (dpy, screen);
  XWindowAttributes attrs;
  XGetWindowAttributes (dpy, root, &attrs);
  cairo_surface_t *x = cairo_xlib_surface_create (dpy, root, attrs.visual, attrs.width, attrs.height);
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_RGB24, attrs.width, attrs.height);
  cairo_t *cr = cairo_create (image);
  cairo_set_source_surface (cr, x, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_status_t status = cairo_surface_write_to_png (image, argv[1]);
  cairo_surface_destroy (image);
  cairo_surface_destroy (x);
  XCloseDisplay (dpy);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      fprintf (stderr, "x-shot: %s: %s\n", argv[1], cairo_status_to_string (status));
      return 1;
    }
  return 0;
}
