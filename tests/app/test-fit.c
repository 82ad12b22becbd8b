/* The window fits the screen it opens on, as a real window manager shows
 * it: an X server of a laptop's size (Xvfb) with openbox managing it.  While
 * the app plays a demo game (a Catchy! hand, whose "what to do next" is
 * the longest text), the window is looked at again and again: it must stay
 * on the screen, never grow past it, and be able to shrink to 800x600; in
 * table mode it must fill the screen exactly (fullscreen).
 *
 * The app runs with --screenshot, so it quits by itself once it has shown
 * the frames asked for: the test watches until then, waiting for that
 * exit, never for the clock. */
#include <criterion/criterion.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  GPid server, wm;
  char display[16];
  Display *dpy;
} Screen_;

/* What a test started, stopped by the suite's fini even when an
 * assertion ends the test early: no X server or manager is left behind. */
static Screen_ *current_screen;
static GPid current_app;

/* What was seen of the app's main window over a run. */
typedef struct {
  guint samples;             /* looks at a mapped main window */
  int max_right, max_bottom; /* the farthest edges seen (root coordinates) */
  int min_x, min_y;
  int min_width, min_height; /* the size hints' minimum, largest seen */
  int last_width, last_height;
  char offending[160];       /* the first look that did not fit ("" none) */
} Seen;

static GPid
spawn (const char *const *argv, const char *display)
{
  char **envp = g_get_environ ();
  if (display != NULL)
    envp = g_environ_setenv (envp, "DISPLAY", display, TRUE);
  GPid pid = 0;
  GError *error = NULL;
  gboolean ok = g_spawn_async (NULL, (char **) argv, envp,
                               G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                                 | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &pid, &error);
  g_strfreev (envp);
  cr_assert (ok, "could not start %s: %s", argv[0], error ? error->message : "?");
  return pid;
}

static void
stop (GPid *pid)
{
  if (*pid > 0)
    {
      kill (*pid, SIGTERM);
      waitpid (*pid, NULL, 0);
      *pid = 0;
    }
}

/* Whether a window manager has said it manages the root window. */
static gboolean
wm_running (Display *dpy)
{
  Atom check = XInternAtom (dpy, "_NET_SUPPORTING_WM_CHECK", False);
  Atom type;
  int format;
  unsigned long n, after;
  unsigned char *data = NULL;
  int status = XGetWindowProperty (dpy, DefaultRootWindow (dpy), check, 0, 1, False, XA_WINDOW, &type,
                                   &format, &n, &after, &data);
  gboolean running = status == Success && data != NULL && n == 1;
  if (data != NULL)
    XFree (data);
  return running;
}

/* A window can go between the look at the tree and the look at it (a
 * dialog closing, the app quitting): that look is skipped, not fatal. */
static int
ignore_x_errors (Display *dpy, XErrorEvent *event)
{
  return 0;
}

/* An X server `width` x `height` and openbox on it, both waited for: the
 * display Xvfb picked (-displayfd), then the manager's check window. */
static void
screen_start (Screen_ *s, int width, int height)
{
  memset (s, 0, sizeof *s);
  current_screen = s;
  int fds[2];
  cr_assert_eq (pipe (fds), 0);
  g_autofree char *fd = g_strdup_printf ("%d", fds[1]);
  g_autofree char *geometry = g_strdup_printf ("%dx%dx24", width, height);
  const char *xvfb[] = { "Xvfb", "-displayfd", fd, "-screen", "0", geometry, "-nolisten", "tcp", NULL };
  GError *error = NULL;
  gboolean ok = g_spawn_async (NULL, (char **) xvfb, NULL,
                               G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH | G_SPAWN_LEAVE_DESCRIPTORS_OPEN
                                 | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &s->server, &error);
  close (fds[1]);
  cr_assert (ok, "could not start Xvfb: %s", error ? error->message : "?");
  char number[16] = "";
  ssize_t n = read (fds[0], number, sizeof number - 1);
  close (fds[0]);
  cr_assert_gt (n, 0, "Xvfb gave no display number");
  g_snprintf (s->display, sizeof s->display, ":%d", atoi (number));
  s->dpy = XOpenDisplay (s->display);
  cr_assert_not_null (s->dpy, "cannot open %s", s->display);
  XSetErrorHandler (ignore_x_errors);
  const char *openbox[] = { "openbox", NULL };
  s->wm = spawn (openbox, s->display);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!wm_running (s->dpy))
    {
      cr_assert_lt (g_get_monotonic_time (), deadline, "openbox did not start on %s", s->display);
      g_usleep (G_USEC_PER_SEC / 20);
    }
}

static void
screen_stop (Screen_ *s)
{
  if (s->dpy != NULL)
    XCloseDisplay (s->dpy);
  s->dpy = NULL;
  stop (&s->wm);
  stop (&s->server);
  current_screen = NULL;
}

static void
stop_all (void)
{
  stop (&current_app);
  if (current_screen != NULL)
    screen_stop (current_screen);
}

TestSuite (fit, .fini = stop_all);

/* The app's main window among the root's (grand)children: the client
 * window titled "Tablero" (openbox may have framed it). */
static Window
find_main (Display *dpy, Window w, int depth)
{
  char *name = NULL;
  if (XFetchName (dpy, w, &name) && name != NULL)
    {
      gboolean main = strcmp (name, "Tablero") == 0;
      XFree (name);
      if (main)
        return w;
    }
  if (depth > 3)
    return None;
  Window root, parent, *children = NULL;
  unsigned n = 0;
  if (!XQueryTree (dpy, w, &root, &parent, &children, &n))
    return None;
  Window found = None;
  for (unsigned i = 0; i < n && found == None; i++)
    found = find_main (dpy, children[i], depth + 1);
  if (children != NULL)
    XFree (children);
  return found;
}

/* One look at the main window: where it is on the root and its minimum. */
static void
look (Display *dpy, int width, int height, Seen *seen)
{
  XSync (dpy, False);
  Window main = find_main (dpy, DefaultRootWindow (dpy), 0);
  XWindowAttributes attrs;
  if (main == None || !XGetWindowAttributes (dpy, main, &attrs) || attrs.map_state != IsViewable)
    return;
  int x, y;
  Window child;
  XTranslateCoordinates (dpy, main, DefaultRootWindow (dpy), 0, 0, &x, &y, &child);
  seen->samples++;
  seen->min_x = MIN (seen->min_x, x);
  seen->min_y = MIN (seen->min_y, y);
  seen->max_right = MAX (seen->max_right, x + attrs.width);
  seen->max_bottom = MAX (seen->max_bottom, y + attrs.height);
  seen->last_width = attrs.width;
  seen->last_height = attrs.height;
  XSizeHints hints;
  long supplied = 0;
  if (XGetWMNormalHints (dpy, main, &hints, &supplied) && (hints.flags & PMinSize))
    {
      seen->min_width = MAX (seen->min_width, hints.min_width);
      seen->min_height = MAX (seen->min_height, hints.min_height);
    }
  if (seen->offending[0] == '\0' && (x < 0 || y < 0 || x + attrs.width > width || y + attrs.height > height))
    g_snprintf (seen->offending, sizeof seen->offending, "%dx%d at %d,%d on a %dx%d screen", attrs.width,
                attrs.height, x, y, width, height);
}

/* Runs the app on screen `width` x `height` with `extra` arguments until
 * it quits by itself (its --screenshot), looking at its window all along;
 * returns its wait status. */
static int
run_and_watch (int width, int height, const char *const *extra, Seen *seen)
{
  static Screen_ s;   /* static: the suite's fini may stop it after an assertion */
  screen_start (&s, width, height);
  g_autofree char *state = g_dir_make_tmp ("tablero-fit-XXXXXX", NULL);
  g_autofree char *shot = g_build_filename (state, "fit.png", NULL);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_APP"));
  const char *base[] = { "--game", "catchy", "--source", "demo", "--screenshot", shot };
  for (size_t i = 0; i < G_N_ELEMENTS (base); i++)
    g_ptr_array_add (argv, (char *) base[i]);
  for (const char *const *a = extra; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  current_app = spawn ((const char *const *) argv->pdata, s.display);
  g_ptr_array_free (argv, TRUE);

  memset (seen, 0, sizeof *seen);
  int status = 0;
  gint64 deadline = g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
  while (waitpid (current_app, &status, WNOHANG) == 0)
    {
      look (s.dpy, width, height, seen);
      cr_assert_leq (g_get_monotonic_time (), deadline, "the app did not finish its run on %dx%d", width, height);
      g_usleep (G_USEC_PER_SEC / 10);
    }
  current_app = 0;
  screen_stop (&s);
  g_remove (shot);
  g_rmdir (state);
  cr_assert_gt (seen->samples, 5, "the app's window was hardly seen on %dx%d (%u looks)", width, height,
                seen->samples);
  return status;
}

static void
assert_exited_well (int status, int width, int height)
{
  cr_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0, "the app failed on %dx%d (status %d)", width,
             height, status);
}

/* The desk: on the screen all through a Catchy! hand, as large as the
 * screen allows, and able to shrink to 800x600. */
static void
desk_fits (int width, int height)
{
  Seen seen;
  const char *extra[] = { "--screenshot-frames", "220", NULL };
  int status = run_and_watch (width, height, extra, &seen);
  /* what was seen, for a person reading the log */
  fprintf (stderr, "%dx%d: %u looks, the window within %d..%d x %d..%d, %dx%d at the end, minimum %dx%d\n",
           width, height, seen.samples, seen.min_x, seen.max_right, seen.min_y, seen.max_bottom, seen.last_width,
           seen.last_height, seen.min_width, seen.min_height);
  cr_expect_eq (seen.offending[0], '\0', "the window left the screen: %s", seen.offending);
  cr_expect_leq (seen.max_right, width);
  cr_expect_leq (seen.max_bottom, height, "the window grew to %d px on a %d px screen", seen.max_bottom, height);
  cr_expect_leq (seen.min_width, 800, "the window cannot shrink below %d px wide", seen.min_width);
  cr_expect_leq (seen.min_height, 600, "the window cannot shrink below %d px high", seen.min_height);
  /* a small screen is used whole (the window opens maximized) */
  cr_expect_geq (seen.last_width, width * 9 / 10, "the window is %d px wide on a %d px screen",
                 seen.last_width, width);
  assert_exited_well (status, width, height);
}

Test (fit, desk_at_1280x720, .timeout = 600)
{
  desk_fits (1280, 720);
}

Test (fit, desk_at_1024x600, .timeout = 600)
{
  desk_fits (1024, 600);
}

/* Table mode is a real fullscreen window: exactly the screen. */
static void
table_mode_fills (int width, int height)
{
  Seen seen;
  const char *extra[] = { "--screenshot-page", "table", "--screenshot-frames", "60", NULL };
  int status = run_and_watch (width, height, extra, &seen);
  cr_expect_eq (seen.offending[0], '\0', "table mode left the screen: %s", seen.offending);
  cr_expect_eq (seen.last_width, width, "table mode is %dx%d on a %dx%d screen", seen.last_width,
                seen.last_height, width, height);
  cr_expect_eq (seen.last_height, height, "table mode is %dx%d on a %dx%d screen", seen.last_width,
                seen.last_height, width, height);
  assert_exited_well (status, width, height);
}

Test (fit, table_mode_at_1280x720, .timeout = 600)
{
  table_mode_fills (1280, 720);
}

Test (fit, table_mode_at_1024x600, .timeout = 600)
{
  table_mode_fills (1024, 600);
}
