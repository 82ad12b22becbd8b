/* One Tablero per session: under one D-Bus session bus and one X display, a
 * second launch hands over to the first (which raises its window) and
 * exits, instead of opening the camera and the journal again.  The first
 * then quits through its app.quit action (Ctrl+Q) over D-Bus. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>

/* Runs inside `dbus-run-session -- xvfb-run -a sh -c SCRIPT`: prints
 * "owned=yes", "second=RC" and "first=RC"; each instance's output (GLib
 * debug messages included) goes to $OUT/first.err and $OUT/second.err. */
static const char script[] =
  "\"$TABLERO_APP\" --source demo >\"$OUT/first.err\" 2>&1 & first=$!\n"
  "owned=no\n"
  "for i in $(seq 200); do\n"
  "  if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \\\n"
  "       --method org.freedesktop.DBus.NameHasOwner org.tablero.Tablero 2>/dev/null | grep -q true; then\n"
  "    owned=yes; break; fi\n"
  "  sleep 0.1\n"
  "done\n"
  "echo \"owned=$owned\"\n"
  "timeout 30 \"$TABLERO_APP\" --source demo >\"$OUT/second.err\" 2>&1; echo \"second=$?\"\n"
  "sleep 1\n"
  "gdbus call --session --dest org.tablero.Tablero --object-path /org/tablero/Tablero \\\n"
  "  --method org.gtk.Actions.Activate quit [] {} >/dev/null\n"
  "( sleep 30; kill $first ) >/dev/null 2>&1 & guard=$!\n"
  "wait $first; echo \"first=$?\"\n"
  "kill $guard 2>/dev/null\n";

Test (instance, second_launch_raises_the_first, .timeout = 110)
{
  g_autofree char *out = g_dir_make_tmp ("tablero-instance-XXXXXX", NULL);
  cr_assert_not_null (out);
  g_setenv ("OUT", out, TRUE);
  g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
  const char *argv[] = { "dbus-run-session", "--", "xvfb-run", "-a", "sh", "-c", script, NULL };
  g_autofree char *stdout_text = NULL, *stderr_text = NULL;
  int wait_status = -1;
  g_autoptr (GError) error = NULL;
  cr_assert (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                           &stdout_text, &stderr_text, &wait_status, &error),
             "could not run dbus-run-session: %s", error ? error->message : "?");
  cr_assert (strstr (stdout_text, "owned=yes") != NULL,
             "the first instance never owned org.tablero.Tablero:\n%s\n%s", stdout_text, stderr_text);
  cr_assert (strstr (stdout_text, "second=0") != NULL,
             "the second launch did not hand over and exit 0:\n%s", stdout_text);
  cr_assert (strstr (stdout_text, "first=0") != NULL,
             "the first instance did not quit through app.quit:\n%s", stdout_text);

  g_autofree char *first_path = g_build_filename (out, "first.err", NULL);
  g_autofree char *second_path = g_build_filename (out, "second.err", NULL);
  g_autofree char *first_err = NULL, *second_err = NULL;
  cr_assert (g_file_get_contents (first_path, &first_err, NULL, NULL));
  cr_assert (g_file_get_contents (second_path, &second_err, NULL, NULL));
  cr_assert (strstr (first_err, "activated again: raising the window") != NULL,
             "the first instance was not asked to raise its window:\n%s", first_err);
  /* the second opened no window of its own: no frame source, no journal */
  cr_assert (strstr (second_err, "activated again") == NULL);
  cr_assert (strstr (second_err, "pipeline") == NULL && strstr (second_err, "journal") == NULL,
             "the second launch started a table of its own:\n%s", second_err);
  g_remove (first_path);
  g_remove (second_path);
  g_rmdir (out);
}
