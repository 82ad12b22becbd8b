/* The app driven through its accessibility tree (AT-SPI), as a person with
 * a screen reader, or a test robot, uses it: every control is found by
 * its accessible name and pressed through its action, never by widget
 * internals.  Run under dbus-run-session (the accessibility bus) and Xvfb
 * (tests/app/meson.build); the app is a separate process.
 *
 * Every wait is for a state of the tree (a node appearing, a name or a
 * description changing) with a generous deadline, never for the clock:
 * CI is a loaded 2-core machine and runs this under ASan too. */
#include <criterion/criterion.h>

#include <glib.h>
/* libatspi's headers declare functions without prototypes */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <atspi/atspi.h>
#pragma GCC diagnostic pop
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "eng-game.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtspiAccessible, g_object_unref)

/* Deadlines (s): a window to appear, the demo to render, a reply. */
#define DEADLINE (getenv ("TABLERO_A11Y_DEADLINE") != NULL ? atof (getenv ("TABLERO_A11Y_DEADLINE")) : 180.0)

static GPid app_pid;
static char *state_dir;

/* ---- the app ----------------------------------------------------------- */

/* Starts the app with `args` (NULL terminated) in a fresh state directory
 * and settings of its own (GSETTINGS_BACKEND=memory from the test env): a
 * first start, as a family's. */
static void
start_app (const char *const *args)
{
  state_dir = g_dir_make_tmp ("tablero-a11y-XXXXXX", NULL);
  cr_assert_not_null (state_dir);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_APP"));
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  char **envp = g_get_environ ();
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", state_dir, TRUE);
  /* the bridge is on: this test is its user */
  envp = g_environ_unsetenv (envp, "NO_AT_BRIDGE");
  envp = g_environ_setenv (envp, "GTK_A11Y", "atspi", TRUE);
  GError *error = NULL;
  gboolean ok = g_spawn_async (NULL, (char **) argv->pdata, envp, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                               &app_pid, &error);
  g_strfreev (envp);
  g_ptr_array_free (argv, TRUE);
  cr_assert (ok, "could not start the app: %s", error ? error->message : "?");
}

static void
rm_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          rm_tree (child);
        }
      g_dir_close (dir);
    }
  g_remove (path);
}

static void
stop_app (void)
{
  if (app_pid > 0)
    {
      kill (app_pid, SIGTERM);
      int status;
      waitpid (app_pid, &status, 0);
      app_pid = 0;
    }
  if (state_dir != NULL)
    rm_tree (state_dir);
  g_clear_pointer (&state_dir, g_free);
}

/* ---- the tree ---------------------------------------------------------- */

static char *
name_of (AtspiAccessible *node)
{
  char *name = atspi_accessible_get_name (node, NULL);
  return name != NULL ? name : g_strdup ("");
}

static char *
description_of (AtspiAccessible *node)
{
  char *text = atspi_accessible_get_description (node, NULL);
  return text != NULL ? text : g_strdup ("");
}

/* A text node's whole text ("" when it has none). */
static char *
text_of (AtspiAccessible *node)
{
  AtspiText *text = atspi_accessible_get_text_iface (node);
  if (text == NULL)
    return g_strdup ("");
  char *s = atspi_text_get_text (text, 0, -1, NULL);
  g_object_unref (text);
  return s != NULL ? s : g_strdup ("");
}

static gboolean
has_state (AtspiAccessible *node, AtspiStateType state)
{
  AtspiStateSet *set = atspi_accessible_get_state_set (node);
  gboolean has = set != NULL && atspi_state_set_contains (set, state);
  g_clear_object (&set);
  return has;
}

/* The app's node on the desktop (by its process id), or NULL. */
static AtspiAccessible *
app_node (void)
{
  AtspiAccessible *desktop = atspi_get_desktop (0);
  AtspiAccessible *found = NULL;
  int n = atspi_accessible_get_child_count (desktop, NULL);
  for (int i = 0; i < n && found == NULL; i++)
    {
      AtspiAccessible *app = atspi_accessible_get_child_at_index (desktop, i, NULL);
      if (app == NULL)
        continue;
      if ((GPid) atspi_accessible_get_process_id (app, NULL) == app_pid)
        found = g_object_ref (app);
      g_object_unref (app);
    }
  g_object_unref (desktop);
  if (found != NULL)
    atspi_accessible_set_cache_mask (found, ATSPI_CACHE_NONE);
  return found;
}

typedef gboolean (*Match) (AtspiAccessible *node, gconstpointer data);

/* The first node under `root` (depth first, `root` included) that
 * `match` takes, among those showing on screen; a new reference. */
static AtspiAccessible *
find (AtspiAccessible *root, Match match, gconstpointer data)
{
  if (root == NULL)
    return NULL;
  /* what is not on screen is not searched: a hidden part's buttons are
   * not a person's to press (GTK 4.8 says "visible" of what is shown,
   * "showing" only of windows) */
  if (!has_state (root, ATSPI_STATE_VISIBLE) && atspi_accessible_get_role (root, NULL) != ATSPI_ROLE_APPLICATION)
    return NULL;
  if (match (root, data))
    return g_object_ref (root);
  int n = atspi_accessible_get_child_count (root, NULL);
  for (int i = 0; i < n; i++)
    {
      AtspiAccessible *child = atspi_accessible_get_child_at_index (root, i, NULL);
      AtspiAccessible *hit = find (child, match, data);
      g_clear_object (&child);
      if (hit != NULL)
        return hit;
    }
  return NULL;
}

/* (find() has checked that the node is on screen.) */
static gboolean
named (AtspiAccessible *node, gconstpointer data)
{
  g_autofree char *name = name_of (node);
  return strcmp (name, data) == 0;
}

static gboolean
named_prefix (AtspiAccessible *node, gconstpointer data)
{
  g_autofree char *name = name_of (node);
  return g_str_has_prefix (name, data);
}

/* A picture (the camera's, the table map) named `data`. */
static gboolean
image_named (AtspiAccessible *node, gconstpointer data)
{
  return atspi_accessible_get_role (node, NULL) == ATSPI_ROLE_IMAGE && named (node, data);
}

/* A field a person types in (a player's name) named `data`. */
static gboolean
editable_named (AtspiAccessible *node, gconstpointer data)
{
  AtspiEditableText *editable = atspi_accessible_get_editable_text_iface (node);
  if (editable == NULL)
    return FALSE;
  g_object_unref (editable);
  return named (node, data);
}

/* A list (the announcements) named `data`. */
static gboolean
list_named (AtspiAccessible *node, gconstpointer data)
{
  return atspi_accessible_get_role (node, NULL) == ATSPI_ROLE_LIST && named (node, data);
}

static gboolean
role_is (AtspiAccessible *node, gconstpointer data)
{
  return atspi_accessible_get_role (node, NULL) == (AtspiRole) GPOINTER_TO_INT (data);
}

/* One of two names (`data` is a NULL-terminated array). */
static gboolean
named_either (AtspiAccessible *node, gconstpointer data)
{
  const char *const *names = data;
  g_autofree char *name = name_of (node);
  return g_strv_contains (names, name);
}

/* A top-level window of the app whose name starts with `prefix`. */
static AtspiAccessible *
window_named (const char *prefix)
{
  g_autoptr (AtspiAccessible) app = app_node ();
  if (app == NULL)
    return NULL;
  int n = atspi_accessible_get_child_count (app, NULL);
  for (int i = 0; i < n; i++)
    {
      AtspiAccessible *window = atspi_accessible_get_child_at_index (app, i, NULL);
      g_autofree char *name = window != NULL ? name_of (window) : g_strdup ("");
      if (window != NULL && g_str_has_prefix (name, prefix))
        return window;
      g_clear_object (&window);
    }
  return NULL;
}

/* The app's tree on stderr (roles, names, showing or not): what the test
 * saw when it gave up waiting. */
static void
dump (AtspiAccessible *node, int depth)
{
  if (node == NULL || depth > 40)
    return;
  g_autofree char *name = name_of (node);
  g_autofree char *role = atspi_accessible_get_role_name (node, NULL);
  g_autofree char *description = description_of (node);
  g_autofree char *text = text_of (node);
  GString *states = g_string_new (NULL);
  AtspiStateSet *set = atspi_accessible_get_state_set (node);
  GArray *all = set != NULL ? atspi_state_set_get_states (set) : NULL;
  GEnumClass *names = g_type_class_ref (ATSPI_TYPE_STATE_TYPE);
  for (guint i = 0; all != NULL && i < all->len; i++)
    {
      GEnumValue *v = g_enum_get_value (names, g_array_index (all, AtspiStateType, i));
      g_string_append_printf (states, " %s", v != NULL ? v->value_nick : "?");
    }
  g_type_class_unref (names);
  if (all != NULL)
    g_array_unref (all);
  g_clear_object (&set);
  fprintf (stderr, "%*s%s \"%s\" [%s ]%s%s%s%s\n", depth * 2, "", role, name, states->str,
           description[0] ? " — " : "", description, text[0] ? " text: " : "", text);
  g_string_free (states, TRUE);
  int n = atspi_accessible_get_child_count (node, NULL);
  for (int i = 0; i < n; i++)
    {
      AtspiAccessible *child = atspi_accessible_get_child_at_index (node, i, NULL);
      dump (child, depth + 1);
      g_clear_object (&child);
    }
}

static void
dump_app (void)
{
  int status;
  if (app_pid > 0 && waitpid (app_pid, &status, WNOHANG) == app_pid)
    {
      fprintf (stderr, "the app is gone: %s %d\n", WIFSIGNALED (status) ? "signal" : "exit",
               WIFSIGNALED (status) ? WTERMSIG (status) : WEXITSTATUS (status));
      app_pid = 0;
    }
  AtspiAccessible *desktop = atspi_get_desktop (0);
  int n = atspi_accessible_get_child_count (desktop, NULL);
  fprintf (stderr, "the desktop holds %d applications:", n);
  for (int i = 0; i < n; i++)
    {
      AtspiAccessible *other = atspi_accessible_get_child_at_index (desktop, i, NULL);
      g_autofree char *other_name = other != NULL ? name_of (other) : g_strdup ("?");
      fprintf (stderr, " %s (pid %u)", other_name, other != NULL ? atspi_accessible_get_process_id (other, NULL) : 0);
      g_clear_object (&other);
    }
  fprintf (stderr, "; the app is pid %d\n", (int) app_pid);
  g_object_unref (desktop);
  AtspiAccessible *app = app_node ();
  fprintf (stderr, "the app's accessibility tree:\n");
  dump (app, 1);
  g_clear_object (&app);
}

typedef struct {
  const char *window;   /* a window name prefix; NULL: the whole app */
  Match match;
  gconstpointer data;
} Query;

static AtspiAccessible *query_ (const Query *q);
static AtspiAccessible *
query (const Query *q)
{
  gint64 t0 = g_get_monotonic_time ();
  AtspiAccessible *r = query_ (q);
  if (getenv ("A11Y_DEBUG") != NULL)
    fprintf (stderr, "query %s/%s: %s in %.2f s\n", q->window,
             q->match == named || q->match == named_prefix ? (const char *) q->data : "…", r ? "found" : "none",
             (g_get_monotonic_time () - t0) / 1e6);
  return r;
}
static AtspiAccessible *
query_ (const Query *q)
{
  if (q->window == NULL)
    {
      g_autoptr (AtspiAccessible) app = app_node ();
      return find (app, q->match, q->data);
    }
  g_autoptr (AtspiAccessible) window = window_named (q->window);
  return find (window, q->match, q->data);
}

/* Waits until `q` finds a node (a new reference), or fails the test after
 * the deadline saying what it waited for. */
static AtspiAccessible *
wait_for (const Query *q, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (DEADLINE * G_USEC_PER_SEC);
  for (;;)
    {
      AtspiAccessible *node = query (q);
      if (node != NULL)
        return node;
      if (g_get_monotonic_time () >= deadline)
        dump_app ();
      cr_assert_lt (g_get_monotonic_time (), deadline, "waited %.0f s for %s", DEADLINE, what);
      /* let the bus deliver, then look again */
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (G_USEC_PER_SEC / 10);
    }
}

/* Waits until a window of the app named `prefix` is there (`present`)
 * or gone. */
static void
wait_window_state (const char *prefix, gboolean present)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (DEADLINE * G_USEC_PER_SEC);
  for (;;)
    {
      g_autoptr (AtspiAccessible) window = window_named (prefix);
      if ((window != NULL) == present)
        return;
      if (g_get_monotonic_time () >= deadline)
        dump_app ();
      cr_assert_lt (g_get_monotonic_time (), deadline, "waited %.0f s for the window %s to %s", DEADLINE, prefix,
                    present ? "open" : "close");
      g_usleep (G_USEC_PER_SEC / 10);
    }
}

static void
wait_window (const char *prefix)
{
  wait_window_state (prefix, TRUE);
}

static void
wait_window_gone (const char *prefix)
{
  wait_window_state (prefix, FALSE);
}

/* Waits until `q` finds a node, which is not needed further. */
static void
wait_present (const Query *q, const char *what)
{
  g_object_unref (wait_for (q, what));
}

/* Waits until `q` finds nothing (what it looks for left the screen). */
static void
wait_absent (const Query *q, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (DEADLINE * G_USEC_PER_SEC);
  for (;;)
    {
      AtspiAccessible *node = query (q);
      if (node == NULL)
        return;
      g_object_unref (node);
      if (g_get_monotonic_time () >= deadline)
        dump_app ();
      cr_assert_lt (g_get_monotonic_time (), deadline, "waited %.0f s for %s", DEADLINE, what);
      g_usleep (G_USEC_PER_SEC / 10);
    }
}

typedef gboolean (*Check) (AtspiAccessible *node, gconstpointer data);

/* Waits until `check` holds for `node`. */
static void
wait_until (AtspiAccessible *node, Check check, gconstpointer data, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (DEADLINE * G_USEC_PER_SEC);
  while (!check (node, data))
    {
      if (g_get_monotonic_time () >= deadline)
        dump_app ();
      cr_assert_lt (g_get_monotonic_time (), deadline, "waited %.0f s for %s", DEADLINE, what);
      g_usleep (G_USEC_PER_SEC / 10);
    }
}

static gboolean
more_children (AtspiAccessible *node, gconstpointer data)
{
  return atspi_accessible_get_child_count (node, NULL) > GPOINTER_TO_INT (data);
}

static gboolean
description_has (AtspiAccessible *node, gconstpointer data)
{
  g_autofree char *text = description_of (node);
  return strstr (text, data) != NULL;
}

/* GTK 4.8 gives a label no text interface: a label, the latest
 * announcement among them, is named by its words. */
static gboolean
name_differs (AtspiAccessible *node, gconstpointer data)
{
  g_autofree char *text = name_of (node);
  return text[0] != '\0' && strcmp (text, data) != 0;
}


/* The control's action, or the first of its children's (a menu button
 * is a wrapper around the button that is pressed); a new reference. */
static AtspiAction *
action_of (AtspiAccessible *node)
{
  AtspiAction *action = atspi_accessible_get_action_iface (node);
  if (action != NULL && atspi_action_get_n_actions (action, NULL) > 0)
    return action;
  g_clear_object (&action);
  int n = atspi_accessible_get_child_count (node, NULL);
  for (int i = 0; i < n && action == NULL; i++)
    {
      AtspiAccessible *child = atspi_accessible_get_child_at_index (node, i, NULL);
      if (child != NULL)
        action = action_of (child);
      g_clear_object (&child);
    }
  return action;
}

/* Presses a control through its first action (a click). */
static void
press (AtspiAccessible *node)
{
  g_autofree char *name = name_of (node);
  AtspiAction *action = action_of (node);
  cr_assert_not_null (action, "%s has no action to press", name);
  GError *error = NULL;
  gboolean ok = atspi_action_do_action (action, 0, &error);
  g_object_unref (action);
  cr_assert (ok, "pressing %s failed: %s", name, error ? error->message : "?");
}

/* Finds the showing control named `name` in window `window` and presses it. */
static void
press_named (const char *window, const char *name)
{
  Query q = { window, named, name };
  g_autofree char *what = g_strdup_printf ("a control named \"%s\"", name);
  g_autoptr (AtspiAccessible) node = wait_for (&q, what);
  press (node);
}

/* ---- every control has a name ------------------------------------------ */

static gboolean
is_control (AtspiRole role)
{
  switch (role)
    {
    case ATSPI_ROLE_PUSH_BUTTON:
    case ATSPI_ROLE_TOGGLE_BUTTON:
    case ATSPI_ROLE_CHECK_BOX:
    case ATSPI_ROLE_RADIO_BUTTON:
    case ATSPI_ROLE_COMBO_BOX:
    case ATSPI_ROLE_ENTRY:
    case ATSPI_ROLE_PASSWORD_TEXT:
    case ATSPI_ROLE_SPIN_BUTTON:
    case ATSPI_ROLE_SLIDER:
    case ATSPI_ROLE_MENU_ITEM:
    case ATSPI_ROLE_CHECK_MENU_ITEM:
    case ATSPI_ROLE_RADIO_MENU_ITEM:
    case ATSPI_ROLE_PAGE_TAB:
    case ATSPI_ROLE_LINK:
    case ATSPI_ROLE_TOOL_BAR:
    case ATSPI_ROLE_STATUS_BAR:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Adds to `unnamed` every showing control under `node` without a name. */
static void
collect_unnamed (AtspiAccessible *node, GString *unnamed, guint *n_controls, const char *path)
{
  AtspiRole role = atspi_accessible_get_role (node, NULL);
  if (role != ATSPI_ROLE_APPLICATION && !has_state (node, ATSPI_STATE_VISIBLE))
    return;
  g_autofree char *name = name_of (node);
  g_autofree char *role_name = atspi_accessible_get_role_name (node, NULL);
  g_autofree char *here = g_strdup_printf ("%s/%s", path, name[0] ? name : role_name);
  if (is_control (role))
    {
      (*n_controls)++;
      /* GTK 4.8 names a control that has no name by its type ("GtkImage") */
      g_autofree char *stripped = g_strstrip (g_strdup (name));
      gboolean type_name = (g_str_has_prefix (stripped, "Gtk") || g_str_has_prefix (stripped, "Adw"))
                           && g_ascii_isupper (stripped[3]) && strchr (stripped, ' ') == NULL;
      if (stripped[0] == '\0' || type_name || strchr (stripped, '_') != NULL)
        g_string_append_printf (unnamed, "\n  %s (%s)", here, role_name);
    }
  int n = atspi_accessible_get_child_count (node, NULL);
  for (int i = 0; i < n; i++)
    {
      AtspiAccessible *child = atspi_accessible_get_child_at_index (node, i, NULL);
      if (child != NULL)
        collect_unnamed (child, unnamed, n_controls, here);
      g_clear_object (&child);
    }
}

/* Fails on any control on screen without an accessible name, in the
 * window named `window` (a prefix; NULL: every window of the app);
 * returns how many controls were checked. */
static guint
assert_all_named (const char *window)
{
  g_autoptr (AtspiAccessible) root = window != NULL ? window_named (window) : app_node ();
  cr_assert_not_null (root, "no window %s to check", window ? window : "at all");
  GString *unnamed = g_string_new (NULL);
  guint n = 0;
  collect_unnamed (root, unnamed, &n, "");
  cr_expect_eq (unnamed->len, 0, "controls without an accessible name:%s", unnamed->str);
  g_string_free (unnamed, TRUE);
  return n;
}

/* ---- the tests ----------------------------------------------------------- */

static void
setup_atspi (void)
{
  cr_assert_eq (atspi_init (), 0, "no accessibility bus (run under dbus-run-session)");
  /* a loaded machine answers slowly: a call waits for its answer (ms) */
  atspi_set_timeout (20000, 60000);
}

TestSuite (a11y, .init = setup_atspi, .fini = stop_app, .timeout = 1500);

/* A family's first start: the guide first, with nothing playing behind it;
 * the demo once the guide is closed, said as no camera was found; every
 * control on screen named. */
Test (a11y, first_start_guide_then_demo)
{
  const char *args[] = { "--game", "katua", NULL };
  start_app (args);
  wait_window ("Getting started");

  /* the table waits behind the guide: no picture, nothing said */
  Query picture = { "Tablero", image_named, "Camera picture" };
  g_autoptr (AtspiAccessible) camera = wait_for (&picture, "the camera picture");
  g_autofree char *held = description_of (camera);
  cr_expect_str_eq (held, "No picture yet", "the demo played behind the guide: %s", held);
  if (!g_file_test ("/dev/video0", G_FILE_TEST_EXISTS))
    {
      Query notice = { "Tablero", named_prefix, "No camera found" };
      wait_present (&notice, "the no-camera notice");
    }
  guint n_guide = assert_all_named (NULL);
  cr_expect_gt (n_guide, 10, "only %u controls seen: is the tree there?", n_guide);

  /* through the guide as a person does: Next, page after page, until the
   * last page's Done closes it */
  const char *next_or_done[] = { "Next", "Done", NULL };
  Query step = { "Getting started", named_either, next_or_done };
  gint64 deadline = g_get_monotonic_time () + (gint64) (DEADLINE * G_USEC_PER_SEC);
  guint presses = 0;
  for (;;)
    {
      g_autoptr (AtspiAccessible) guide_window = window_named ("Getting started");
      if (guide_window == NULL)
        break;
      cr_assert_lt (g_get_monotonic_time (), deadline, "the guide did not close after %u presses", presses);
      g_autoptr (AtspiAccessible) button = query (&step);
      AtspiAction *action = button != NULL ? atspi_accessible_get_action_iface (button) : NULL;
      /* the window may close between the look and the press */
      if (action != NULL && atspi_action_do_action (action, 0, NULL))
        presses++;
      g_clear_object (&action);
      g_usleep (G_USEC_PER_SEC / 5);
    }
  cr_expect_geq (presses, 6, "the guide closed after %u presses, before its last page", presses);

  /* now the demo plays and the referee speaks */
  wait_until (camera, description_has, "stickers seen", "the demo's first frame");
  /* the latest announcement is a status a screen reader can read */
  Query status = { "Tablero", role_is, GINT_TO_POINTER (ATSPI_ROLE_STATUS_BAR) };
  g_autoptr (AtspiAccessible) latest = wait_for (&status, "the latest announcement (a status bar)");
  wait_until (latest, name_differs, "", "something said");
  Query map = { "Tablero", image_named, "Table map" };
  g_autoptr (AtspiAccessible) table_map = wait_for (&map, "the table map");
  wait_until (table_map, description_has, "Ana", "the table map described");
  assert_all_named ("Tablero");
}

/* The table plays: a new game of each game set up by name, a command
 * given, the rules opened, table mode in and out. */
Test (a11y, setup_each_game_command_rules_table_mode)
{
  g_autofree char *scene = g_build_filename (getenv ("TABLERO_TEST_SCENES"), "still-katua.scene", NULL);
  g_autofree char *source = g_strdup_printf ("demo:%s", scene);
  const char *args[] = { "--game", "katua", "--source", source, NULL };
  start_app (args);
  /* a first start here too: the guide is closed as a person closes it */
  wait_window ("Getting started");
  press_named ("Getting started", "Close");
  wait_window_gone ("Getting started");

  /* setup: each game of the registry in turn (a new game is tried too),
   * then Katua, whose still table this is, started */
  press_named ("Tablero", "New game");
  g_autoptr (GPtrArray) games = g_ptr_array_new ();
  for (size_t i = 0; i < eng_game_class_count (); i++)
    if (strcmp (eng_game_class_get (i)->name, "katua") != 0)
      g_ptr_array_add (games, (gpointer) eng_game_class_get (i)->title);
  g_ptr_array_add (games, (gpointer) eng_game_class_find ("katua")->title);
  cr_assert_gt (games->len, 1);
  for (guint i = 0; i < games->len; i++)
    {
      const char *game = games->pdata[i];
      fprintf (stderr, "setup: %s\n", game);
      press_named ("New game", game);
      g_autofree char *title = g_strdup_printf ("New game of %s", game);
      wait_window (title);
      Query seat = { title, named, "Seat marker of player 2" };
      g_autoptr (AtspiAccessible) seat_field = wait_for (&seat, "the seat marker of player 2");
      cr_expect_eq (atspi_accessible_get_role (seat_field, NULL), ATSPI_ROLE_SPIN_BUTTON);
      assert_all_named (title);
    }
  /* a name as people write it, with a space, typed as a person types it */
  Query first_name = { "New game of Katua", editable_named, "Player 1" };
  g_autoptr (AtspiAccessible) name_field = wait_for (&first_name, "the name of player 1");
  AtspiEditableText *editable = atspi_accessible_get_editable_text_iface (name_field);
  cr_assert (atspi_editable_text_set_text_contents (editable, "Mari Carmen", NULL));
  g_object_unref (editable);
  press_named ("New game of Katua", "Start game");
  wait_window_gone ("New game of");
  Query map = { "Tablero", image_named, "Table map" };
  g_autoptr (AtspiAccessible) table_map = wait_for (&map, "the table map");
  wait_until (table_map, description_has, "Mari Carmen", "the table map naming Mari Carmen");

  /* a command: on a still table, only the command makes the referee
   * refuse something (no abduction to let through), and the refusal shows */
  Query picture = { "Tablero", image_named, "Camera picture" };
  g_autoptr (AtspiAccessible) camera = wait_for (&picture, "the camera picture");
  wait_until (camera, description_has, "stickers seen", "the table's first frame");
  Query refused = { "Tablero", named, "Refused play" };
  AtspiAccessible *early = query (&refused);
  cr_expect_null (early, "a refusal shown before any command");
  g_clear_object (&early);
  /* until the referee has taken in the table it answers "not seen the
   * table yet": a person presses again, once the answer is said */
  Query log = { "Tablero", list_named, "Announcements" };
  Query button = { "Tablero", named, "No defence" };
  gint64 deadline = g_get_monotonic_time () + (gint64) (DEADLINE * G_USEC_PER_SEC);
  for (;;)
    {
      g_autoptr (AtspiAccessible) list = wait_for (&log, "the announcements");
      int said = atspi_accessible_get_child_count (list, NULL);
      g_autoptr (AtspiAccessible) no_defence = wait_for (&button, "No defence");
      press (no_defence);
      wait_until (list, more_children, GINT_TO_POINTER (said), "the referee's answer to No defence");
      g_autoptr (AtspiAccessible) refusal = query (&refused);
      if (refusal != NULL)
        break;
      if (g_get_monotonic_time () >= deadline)
        dump_app ();
      cr_assert_lt (g_get_monotonic_time (), deadline, "No defence was never refused as a play");
    }
  Query status = { "Tablero", role_is, GINT_TO_POINTER (ATSPI_ROLE_STATUS_BAR) };
  g_autoptr (AtspiAccessible) latest = wait_for (&status, "the latest announcement (a status bar)");
  wait_until (latest, name_differs, "", "the refusal said");

  /* the rules of the game, from the main menu */
  press_named ("Tablero", "Main menu");
  press_named ("Tablero", "Rules of this game");
  wait_window ("Rules");
  assert_all_named ("Rules");
  press_named ("Rules", "Close");
  wait_window_gone ("Rules");

  /* table mode and back: the header goes and comes back */
  Query header_new_game = { "Tablero", named, "New game" };
  wait_present (&header_new_game, "the New game button");
  Query leave = { "Tablero", named, "Leave table mode" };
  cr_expect_null (query (&leave), "table mode's Leave button is on screen outside table mode");
  press_named ("Tablero", "Table mode");
  g_autoptr (AtspiAccessible) leave_button = wait_for (&leave, "table mode's Leave button");
  wait_absent (&header_new_game, "the header hidden in table mode");
  assert_all_named ("Tablero");
  press (leave_button);
  wait_present (&header_new_game, "the header back after table mode");
  wait_absent (&leave, "table mode left");
}
