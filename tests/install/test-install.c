/* Tablero as a family installs it: `meson install` into a DESTDIR, then the
 * installed programs run from there with the source and build trees out of
 * reach (a private mount namespace with an empty tmpfs over each), no
 * TABLERO_DATADIR: they must find their data, catalogues and schema beside
 * themselves.  The desktop files must pass the freedesktop validators.
 *
 * The build dir, source dir, prefix and tools come from tests/meson.build. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "eng-game.h"

typedef struct {
  int status;   /* exit status, 128 + signal, or -1 when it could not start */
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

static Run
run_argv (const char *const *argv, char **envp)
{
  Run run = { -1, NULL, NULL };
  int wait_status = 0;
  GError *error = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &run.out,
                     &run.err, &wait_status, &error))
    {
      run.err = g_strdup (error->message);
      g_error_free (error);
      return run;
    }
  run.status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128 + WTERMSIG (wait_status);
  return run;
}

static const char *
env (const char *name)
{
  const char *v = getenv (name);
  cr_assert (v != NULL && *v != '\0', "%s is not set (tests/meson.build sets it)", name);
  return v;
}

/* The DESTDIR of the current test and its prefix inside it. */
static char *destdir;
static char *root;      /* destdir + prefix */

static char *
installed (const char *relative)
{
  return g_build_filename (root, relative, NULL);
}

static void
rm_rf (const char *path)
{
  const char *argv[] = { "rm", "-rf", path, NULL };
  Run run = run_argv (argv, NULL);
  run_clear (&run);
}

/* Installs the current build into a fresh DESTDIR, as a packager would,
 * and compiles its schemas as the system's trigger does after a real
 * install (meson skips that for a DESTDIR). */
static void
install (void)
{
  GError *error = NULL;
  destdir = g_dir_make_tmp ("tablero-install-XXXXXX", &error);
  cr_assert_not_null (destdir, "%s", error ? error->message : "?");
  root = g_build_filename (destdir, env ("TABLERO_PREFIX"), NULL);
  const char *argv[] = { env ("MESON"), "install", "-C", env ("TABLERO_BUILD_ROOT"),
                         "--no-rebuild", "--quiet", "--destdir", destdir, NULL };
  Run run = run_argv (argv, NULL);
  cr_assert_eq (run.status, 0, "meson install failed (%d): %s%s", run.status, run.out, run.err);
  run_clear (&run);
  g_autofree char *schemas = installed ("share/glib-2.0/schemas");
  if (g_file_test (schemas, G_FILE_TEST_IS_DIR))
    {
      const char *compile[] = { "glib-compile-schemas", schemas, NULL };
      run = run_argv (compile, NULL);
      cr_assert_eq (run.status, 0, "glib-compile-schemas failed: %s", run.err);
      run_clear (&run);
    }
}

static void
uninstall (void)
{
  if (destdir != NULL)
    rm_rf (destdir);
  g_clear_pointer (&destdir, g_free);
  g_clear_pointer (&root, g_free);
}

static char *
installed_bin (const char *name)
{
  return g_build_filename (root, env ("TABLERO_BINDIR"), name, NULL);
}

/* The mount namespace needs user namespaces (or root); a machine that
 * refuses both cannot run this test honestly, so it says so. */
static void
require_namespace (void)
{
  const char *argv[] = { "unshare", "--mount", "--map-root-user", "true", NULL };
  Run run = run_argv (argv, NULL);
  if (run.status != 0)
    cr_skip_test ("cannot make a mount namespace to hide the source tree: %s", run.err);
  run_clear (&run);
}

/* Runs argv from the installed tree with the source and build trees
 * covered by empty tmpfs mounts, in a clean environment: no TABLERO_*
 * variable, the schemas and state inside the DESTDIR.  `extra_env` adds
 * NAME=VALUE pairs (NULL-terminated, may be NULL). */
static Run
run_hidden (const char *const *argv, const char *const *extra_env)
{
  GPtrArray *args = g_ptr_array_new ();
  g_ptr_array_add (args, (char *) "unshare");
  g_ptr_array_add (args, (char *) "--mount");
  g_ptr_array_add (args, (char *) "--map-root-user");
  g_ptr_array_add (args, (char *) "sh");
  g_ptr_array_add (args, (char *) "-e");
  g_ptr_array_add (args, (char *) "-c");
  /* The build dir first: when it lies inside the source dir it would be
   * gone once the source dir is covered.  Then prove both are empty. */
  g_ptr_array_add (args, (char *) "mount -t tmpfs tablero-hidden \"$TABLERO_HIDE_BUILD\"\n"
                                  "mount -t tmpfs tablero-hidden \"$TABLERO_HIDE_SOURCE\"\n"
                                  "test ! -e \"$TABLERO_HIDE_SOURCE/meson.build\"\n"
                                  "test ! -e \"$TABLERO_HIDE_BUILD/build.ninja\"\n"
                                  "unset TABLERO_HIDE_BUILD TABLERO_HIDE_SOURCE\n"
                                  "exec \"$@\"");
  g_ptr_array_add (args, (char *) "sh");
  for (const char *const *a = argv; *a; a++)
    g_ptr_array_add (args, (char *) *a);
  g_ptr_array_add (args, NULL);

  char **envp = g_get_environ ();
  const char *drop[] = { "TABLERO_DATADIR", "TABLERO_LOCALEDIR", "TABLERO_CLI", "TABLERO_APP",
                         "TABLERO_SCREENSHOT_DIR", NULL };
  for (const char **d = drop; *d; d++)
    envp = g_environ_unsetenv (envp, *d);
  envp = g_environ_setenv (envp, "TABLERO_HIDE_BUILD", env ("TABLERO_BUILD_ROOT"), TRUE);
  envp = g_environ_setenv (envp, "TABLERO_HIDE_SOURCE", env ("TABLERO_SOURCE_ROOT"), TRUE);
  g_autofree char *schemas = installed ("share/glib-2.0/schemas");
  envp = g_environ_setenv (envp, "GSETTINGS_SCHEMA_DIR", schemas, TRUE);
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "memory", TRUE);
  g_autofree char *state = g_build_filename (destdir, "state", NULL);
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", state, TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", "en", TRUE);
  /* The installed programs are built like the tests; their leak report
   * is the other suites' business. */
  envp = g_environ_setenv (envp, "ASAN_OPTIONS", "detect_leaks=0", TRUE);
  for (const char *const *e = extra_env; e != NULL && *e; e++)
    {
      g_auto (GStrv) kv = g_strsplit (*e, "=", 2);
      envp = g_environ_setenv (envp, kv[0], kv[1], TRUE);
    }
  Run run = run_argv ((const char *const *) args->pdata, envp);
  g_strfreev (envp);
  g_ptr_array_free (args, TRUE);
  return run;
}

static off_t
file_size (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISREG (st.st_mode) ? st.st_size : -1;
}

TestSuite (install, .init = install, .fini = uninstall, .timeout = 120);

/* The data the programs read at run time is installed, not just the
 * binaries. */
Test (install, data_in_datadir)
{
  const char *files[] = { "rules/katua.es.rules", "rules/katua.options", "games/demo-katua.script",
                          "scenes/demo-katua-game.scene", NULL };
  for (const char **f = files; *f; f++)
    {
      g_autofree char *rel = g_build_filename ("share/tablero", *f, NULL);
      g_autofree char *path = installed (rel);
      cr_expect_gt (file_size (path), 0, "%s is not installed", path);
    }
  /* every registered game's set, zones and rule explanations */
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const char *game = eng_game_class_get (g)->name;
      const char *kinds[][2] = { { "cards", "set" }, { "zones", "zones" }, { "rules", "rules" } };
      for (size_t k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          g_autofree char *rel = g_strdup_printf ("share/tablero/%s/%s.%s", kinds[k][0], game,
                                                  kinds[k][1]);
          g_autofree char *path = installed (rel);
          cr_expect_gt (file_size (path), 0, "%s is not installed", path);
        }
    }
  g_autofree char *mo = installed ("share/locale/es/LC_MESSAGES/tablero.mo");
  cr_expect_gt (file_size (mo), 0, "%s is not installed", mo);
}

/* The control: with the trees hidden, the source tree's data/ named
 * explicitly is not there, so the runs below cannot be reading it. */
Test (install, source_tree_is_out_of_reach)
{
  require_namespace ();
  g_autofree char *cli = installed_bin ("tablero-cli");
  g_autofree char *pdf = g_build_filename (destdir, "katua.pdf", NULL);
  g_autofree char *source_data = g_build_filename (env ("TABLERO_SOURCE_ROOT"), "data", NULL);
  g_autofree char *datadir_env = g_strconcat ("TABLERO_DATADIR=", source_data, NULL);
  const char *argv[] = { cli, "stickers", "--game", "katua", "-o", pdf, NULL };
  const char *extra[] = { datadir_env, NULL };
  Run run = run_hidden (argv, extra);
  cr_expect_neq (run.status, 0, "stickers found the hidden source data: %s", run.err);
  cr_expect_eq (file_size (pdf), -1, "a PDF was written from hidden data");
  run_clear (&run);
}

Test (install, cli_stickers)
{
  require_namespace ();
  g_autofree char *cli = installed_bin ("tablero-cli");
  g_autofree char *pdf = g_build_filename (destdir, "katua.pdf", NULL);
  const char *argv[] = { cli, "stickers", "--game", "katua", "-o", pdf, NULL };
  Run run = run_hidden (argv, NULL);
  cr_assert_eq (run.status, 0, "installed stickers failed (%d): %s", run.status, run.err);
  /* Every card of Katua, anchors and seats: several pages of vector QR codes. */
  cr_expect_gt (file_size (pdf), 20000, "%s is %ld bytes", pdf, (long) file_size (pdf));
  g_autofree char *head = NULL;
  cr_assert (g_file_get_contents (pdf, &head, NULL, NULL));
  cr_expect (g_str_has_prefix (head, "%PDF-"), "not a PDF");
  run_clear (&run);
}

/* The bundled demo table refereed headless: moves announced as JSON lines,
 * in the language the installed catalogues give (Spanish here). */
Test (install, cli_watch_demo)
{
  require_namespace ();
  g_autofree char *cli = installed_bin ("tablero-cli");
  const char *argv[] = { cli, "watch", "--source", "demo", "--game", "katua",
                         "--frames", env ("TABLERO_WATCH_FRAMES"), NULL };
  const char *extra[] = { "LANGUAGE=es", "LANG=C.UTF-8", "LC_ALL=", NULL };
  Run run = run_hidden (argv, extra);
  cr_assert_eq (run.status, 0, "installed watch failed (%d): %s", run.status, run.err);
  g_auto (GStrv) lines = g_strsplit (run.out, "\n", -1);
  int json = 0, moves = 0, spanish = 0;
  for (char **l = lines; *l; l++)
    {
      if (**l == '\0')
        continue;
      cr_expect (**l == '{', "not a JSON line: %s", *l);
      json++;
      moves += strstr (*l, "\"event\":\"accepted\"") != NULL;
      spanish += strstr (*l, "El árbitro ve la mesa") != NULL;
    }
  cr_expect_gt (json, 0, "watch said nothing");
  cr_expect_gt (spanish, 0, "the installed Spanish catalogue was not used:\n%s", run.out);
  cr_expect_gt (moves, 0, "no move announced in %s frames:\n%s", env ("TABLERO_WATCH_FRAMES"), run.out);
  run_clear (&run);
}

Test (install, gui_screenshot)
{
  if (getenv ("TABLERO_HAVE_GUI") == NULL)
    cr_skip_test ("this build has no GTK app");
  require_namespace ();
  g_autofree char *app = installed_bin ("tablero");
  g_autofree char *png = g_build_filename (destdir, "installed.png", NULL);
  g_autofree char *shot = g_strconcat ("--screenshot=", png, NULL);
  const char *argv[] = { "xvfb-run", "-a", "-s", "-screen 0 1280x800x24", app,
                         "--game", "katua", "--source", "demo", shot,
                         "--screenshot-frames=40", NULL };
  Run run = run_hidden (argv, NULL);
  cr_assert_eq (run.status, 0, "installed app failed (%d): %s", run.status, run.err);
  cr_expect_gt (file_size (png), 10000, "%s is %ld bytes", png, (long) file_size (png));
  /* Kept for a person to look at (docs/architecture.md, "Install and data lookup"). */
  const char *keep = getenv ("TABLERO_INSTALL_SCREENSHOT");
  if (keep != NULL && *keep != '\0')
    {
      g_autofree char *bytes = NULL;
      gsize len = 0;
      if (g_file_get_contents (png, &bytes, &len, NULL))
        g_file_set_contents (keep, bytes, (gssize) len, NULL);
    }
  run_clear (&run);
}

/* What the desktop reads: the launcher, the AppStream metainfo, the
 * settings schema, both icons, all as installed. */
static void
validate (const char *tool, const char *const *argv)
{
  g_autofree char *found = g_find_program_in_path (tool);
  if (found == NULL)
    cr_skip_test ("%s is not installed", tool);
  Run run = run_argv (argv, NULL);
  cr_expect_eq (run.status, 0, "%s refused it (%d):\n%s%s", tool, run.status, run.out, run.err);
  run_clear (&run);
}

Test (install, desktop_file_validates)
{
  if (getenv ("TABLERO_HAVE_GUI") == NULL)
    cr_skip_test ("this build has no GTK app");
  g_autofree char *path = installed ("share/applications/org.tablero.Tablero.desktop");
  const char *argv[] = { "desktop-file-validate", path, NULL };
  validate ("desktop-file-validate", argv);
}

/* The launcher and the AppStream text speak the table's languages: the
 * translations of po/ are merged into the installed files. */
Test (install, launcher_and_metainfo_are_translated)
{
  if (getenv ("TABLERO_HAVE_GUI") == NULL)
    cr_skip_test ("this build has no GTK app");
  g_autofree char *desktop_path = installed ("share/applications/org.tablero.Tablero.desktop");
  g_autoptr (GKeyFile) desktop = g_key_file_new ();
  /* every language's lines, not only the running locale's */
  cr_assert (g_key_file_load_from_file (desktop, desktop_path, G_KEY_FILE_KEEP_TRANSLATIONS, NULL), "%s",
             desktop_path);
  const char *langs[] = { "es", "ca" };
  for (size_t i = 0; i < G_N_ELEMENTS (langs); i++)
    {
      g_autofree char *english = g_key_file_get_string (desktop, "Desktop Entry", "Comment", NULL);
      g_autofree char *comment = g_key_file_get_locale_string (desktop, "Desktop Entry", "Comment", langs[i], NULL);
      g_autofree char *generic = g_key_file_get_locale_string (desktop, "Desktop Entry", "GenericName", langs[i],
                                                               NULL);
      cr_assert_not_null (comment);
      cr_expect_str_neq (comment, english, "the launcher's comment is not translated to %s", langs[i]);
      cr_expect_str_neq (generic, "Card Game Referee", "the launcher's generic name is not translated to %s",
                         langs[i]);
    }
  g_autofree char *metainfo_path = installed ("share/metainfo/org.tablero.Tablero.metainfo.xml");
  g_autofree char *metainfo = NULL;
  cr_assert (g_file_get_contents (metainfo_path, &metainfo, NULL, NULL), "%s", metainfo_path);
  cr_expect_not_null (strstr (metainfo, "<summary xml:lang=\"es\">Arbitra partidas de cartas reales"),
                      "no Spanish summary in the metainfo");
  cr_expect_not_null (strstr (metainfo, "<summary xml:lang=\"ca\">Arbitra partides de cartes reals"),
                      "no Catalan summary in the metainfo");
  cr_expect_not_null (strstr (metainfo, "<p xml:lang=\"ca\">Tablero arbitra jocs de cartes"),
                      "no Catalan description in the metainfo");
}

Test (install, metainfo_validates)
{
  if (getenv ("TABLERO_HAVE_GUI") == NULL)
    cr_skip_test ("this build has no GTK app");
  g_autofree char *path = installed ("share/metainfo/org.tablero.Tablero.metainfo.xml");
  const char *argv[] = { "appstreamcli", "validate", "--no-net", path, NULL };
  validate ("appstreamcli", argv);
}

Test (install, schema_and_icons)
{
  if (getenv ("TABLERO_HAVE_GUI") == NULL)
    cr_skip_test ("this build has no GTK app");
  const char *icons[] = { "share/icons/hicolor/scalable/apps/org.tablero.Tablero.svg",
                          "share/icons/hicolor/symbolic/apps/org.tablero.Tablero-symbolic.svg",
                          NULL };
  for (const char **i = icons; *i; i++)
    {
      g_autofree char *path = installed (*i);
      g_autofree char *svg = NULL;
      cr_assert (g_file_get_contents (path, &svg, NULL, NULL), "%s is not installed", path);
      cr_expect_not_null (strstr (svg, "<svg"), "%s is not an SVG", path);
    }
  g_autofree char *schemas = installed ("share/glib-2.0/schemas");
  g_autofree char *compiled = g_build_filename (schemas, "gschemas.compiled", NULL);
  cr_expect_gt (file_size (compiled), 0, "the schema was not compiled in the DESTDIR");
  const char *argv[] = { "glib-compile-schemas", "--strict", "--dry-run", schemas, NULL };
  validate ("glib-compile-schemas", argv);
}
