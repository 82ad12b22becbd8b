/* tablero-cli's front door: usage, version and unknown commands. */
#include <criterion/criterion.h>

#include <glib.h>
#include <stdlib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

static int
run_cli (const char *arg, char **out, char **err)
{
  const char *argv[] = { getenv ("TABLERO_CLI"), arg, NULL };
  int wait_status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, out, err, &wait_status, NULL));
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
}

Test (cli, help_lists_every_command)
{
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq (run_cli ("--help", &out, &err), 0);
  const char *commands[] = { "tag", "stickers", "replay", "bench" };
  for (size_t i = 0; i < G_N_ELEMENTS (commands); i++)
    cr_expect_not_null (strstr (out, commands[i]), "help lacks %s: %s", commands[i], out);
}

Test (cli, version_names_the_release)
{
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq (run_cli ("--version", &out, &err), 0);
  cr_assert (g_str_has_prefix (out, "tablero-cli "), "%s", out);
}

Test (cli, unknown_command_is_usage_error)
{
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq (run_cli ("frobnicate", &out, &err), 2);
  cr_assert_not_null (strstr (err, "unknown command 'frobnicate'"), "%s", err);
}

/* Runs tablero-cli with `args` (NULL-terminated, command first). */
static int
run_cli_argv (const char *const *args, char **out, char **err)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, getenv ("TABLERO_CLI"));
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  int wait_status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, out, err, &wait_status, NULL));
  g_ptr_array_unref (argv);
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
}

static void
expect_no_control_bytes (const char *text)
{
  for (const unsigned char *p = (const unsigned char *) text; *p; p++)
    cr_assert (*p >= 0x20 || *p == '\n', "control byte 0x%02x in:\n%s", *p, text);
}

typedef struct {
  const char *args[12];
  const char *says;   /* the option and the value, as stderr must name them */
} BadOption;

/* Every number an option takes is range-checked before anything runs: exit
 * 2 and a message naming the option and the value refused. */
Test (cli, out_of_range_options_exit_2_naming_option_and_value)
{
  static const BadOption cases[] = {
    { { "watch", "--source", "demo", "--fps", "1e308" }, "--fps takes a number from 0.1 to 1000, not '1e308'" },
    { { "watch", "--source", "demo", "--fps", "inf" }, "--fps takes a number from 0.1 to 1000, not 'inf'" },
    { { "watch", "--source", "demo", "--fps", "nan" }, "--fps takes a number from 0.1 to 1000, not 'nan'" },
    { { "watch", "--source", "demo", "--fps", "0" }, "not '0'" },
    { { "watch", "--source", "demo", "--fps", "-30" }, "not '-30'" },
    { { "watch", "--source", "demo", "--fps", "" }, "--fps takes a number from 0.1 to 1000, not ''" },
    { { "watch", "--source", "demo", "--frames", "abc" }, "--frames takes a whole number from 1 to 1000000000, not 'abc'" },
    { { "watch", "--source", "demo", "--frames", "12x" }, "--frames takes a whole number from 1 to 1000000000, not '12x'" },
    { { "watch", "--source", "demo", "--frames", "99999999999999999999" }, "not '99999999999999999999'" },
    { { "watch", "--source", "demo", "--seconds", "-1" }, "--seconds takes a number from 0.001 to 604800, not '-1'" },
    { { "scan", "--calibrate-lens", "100000x100000:1", "--save-calibration", "l.cal", "a.png" },
      "--calibrate-lens COLS takes a whole number from 2 to 64, not '100000'" },
    { { "scan", "--calibrate-lens", "9x100000:1", "--save-calibration", "l.cal", "a.png" },
      "--calibrate-lens ROWS takes a whole number from 2 to 64, not '100000'" },
    { { "scan", "--calibrate-lens", "9x6:nan", "--save-calibration", "l.cal", "a.png" },
      "--calibrate-lens SQUARE_MM takes a number from 0.1 to 1000, not 'nan'" },
    { { "scan", "--calibrate-lens", "9x6", "--save-calibration", "l.cal", "a.png" },
      "--calibrate-lens takes COLSxROWS:SQUARE_MM (inner corners), not '9x6'" },
    { { "render", "s.scene", "-o", "out", "--fps", "1e308" }, "--fps takes a number from 0.1 to 1000, not '1e308'" },
    { { "render", "s.scene", "-o", "out", "--seed", "-1" }, "--seed takes a whole number from 0 to 18446744073709551615, not '-1'" },
    { { "scene", "s.script", "-o", "s.scene", "--fps", "inf" }, "--fps takes a number from 0.1 to 120, not 'inf'" },
    { { "scene", "s.script", "-o", "s.scene", "--change", "-2" }, "--change takes a number from 0.1 to 60, not '-2'" },
    { { "scene", "s.script", "-o", "s.scene", "--nudge", "soon" }, "--nudge takes a number from 0 to 604800, not 'soon'" },
    { { "bench", "engine", "--games", "abc" }, "--games takes a whole number from 1 to 100000000, not 'abc'" },
    { { "bench", "engine", "--players", "9x" }, "--players takes a whole number from 1 to", /* ENG_MAX_PLAYERS */ },
    { { "bench", "latency", "--fps", "nan" }, "--fps takes a number from 1 to 120, not 'nan'" },
    { { "bench", "vision", "--frames", "1" }, "--frames takes a whole number from 2 to 10000, not '1'" },
    { { "stickers", "--game", "katua", "--size-mm", "nan", "-o", "x.pdf" }, "--size-mm takes a number from 0 to 500, not 'nan'" },
    { { "stickers", "--game", "katua", "--size-mm", "1e9", "-o", "x.pdf" }, "--size-mm takes a number from 0 to 500, not '1e9'" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      int rc = run_cli_argv (cases[i].args, &out, &err);
      if (strstr (err, "unknown command") != NULL)
        continue;   /* a build without vision has no watch, scan, render, scene */
      cr_expect_eq (rc, 2, "case %zu (%s %s): exit %d, stderr:\n%s", i, cases[i].args[0], cases[i].args[1], rc, err);
      cr_expect_not_null (strstr (err, cases[i].says), "case %zu: stderr lacks \"%s\":\n%s", i, cases[i].says, err);
      cr_expect_str_eq (out, "", "case %zu ran anyway", i);
    }
}

/* What the user typed comes back escaped, never as a terminal escape. */
Test (cli, errors_never_echo_control_bytes)
{
  static const BadOption cases[] = {
    { { "\x1b[2Jfrob" }, "unknown command '\\x1b[2Jfrob'" },
    { { "watch", "--source", "demo", "--fps", "\x1b]0;pwned\x07" }, "not '\\x1b]0;pwned\\x07'" },
    { { "watch", "--source", "demo", "--b\x1b[5m", "1" }, "Unknown option --b\\x1b[5m" },
    { { "stickers", "--game", "katua", "--paper", "a\x9b" "5", "-o", "x.pdf" }, "unknown paper 'a\\x9b5'" },
    { { "bench", "engine", "--seed", "1\r2" }, "not '1\\x0d2'" },
    { { "watch", "--source", "demo", "--first", "Zed\x1b[2J" }, "--first names nobody in --players: 'Zed\\x1b[2J'" },
    { { "watch", "--source", "demo", "--seats", "1,\x1b[8m" }, "--seats takes a whole number from 1 to" /* ENG_MAX_PLAYERS */ },
    { { "watch", "--source", "file:/nonexistent/\x1b[41m" }, "/nonexistent/\\x1b[41m" },
    { { "scan", "/nonexistent/\x1b[41m.png" }, "scan: /nonexistent/\\x1b[41m.png:" },
    { { "stickers", "--game", "\x1b[1mpoker", "-o", "x.pdf" }, "unknown game '\\x1b[1mpoker'" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      int rc = run_cli_argv (cases[i].args, &out, &err);
      if (i > 0 && strstr (err, "unknown command") != NULL)
        continue;
      cr_expect_eq (rc, 2, "case %zu: exit %d", i, rc);
      expect_no_control_bytes (err);
      cr_expect_not_null (strstr (err, cases[i].says), "case %zu: stderr lacks \"%s\":\n%s", i, cases[i].says, err);
    }
}

/* A scene file's error quotes the bad line escaped, file name included. */
Test (cli, scene_file_errors_escape_terminal_escapes)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-cli-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *scene = g_build_filename (dir, "esc\x1b[1m.scene", NULL);
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  cr_assert (g_file_set_contents (scene, "image width=640 height=480\n\x1b]2;owned\x07 x=1\n", -1, NULL));
  g_autofree char *out = NULL, *err = NULL;
  int rc = run_cli_argv ((const char *[]) { "render", scene, "-o", outdir, NULL }, &out, &err);
  g_unlink (scene);
  g_rmdir (outdir);
  g_rmdir (dir);
  if (strstr (err, "unknown command") != NULL)
    return;
  cr_assert_eq (rc, 2, "%s", err);
  expect_no_control_bytes (err);
  cr_expect_not_null (strstr (err, "\\x1b]2;owned\\x07"), "%s", err);
  cr_expect_not_null (strstr (err, "esc\\x1b[1m.scene:2"), "%s", err);
}

/* Every command parses its options with GOptionContext: --x=y is --x y,
 * --help prints the options and exits 0, an unknown option is named. */
Test (cli, options_behave_alike_in_every_command)
{
  static const char *const commands[][2] = {
    { "watch", NULL }, { "scan", NULL }, { "render", NULL }, { "scene", NULL },
    { "bench", "engine" }, { "bench", "latency" }, { "bench", "vision" },
    { "tag", NULL }, { "stickers", NULL }, { "replay", NULL },
    { "bench", "history" }, { "history", "list" }, { "history", "show" }, { "history", "stats" },
    { "history", "export" }, { "history", "import" }, { "history", "forget" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *help[] = { commands[i][0], commands[i][1] ? commands[i][1] : "--help",
                             commands[i][1] ? "--help" : NULL, NULL };
      g_autofree char *out = NULL, *err = NULL;
      int rc = run_cli_argv (help, &out, &err);
      if (strstr (err, "unknown command") != NULL)
        continue;
      cr_expect_eq (rc, 0, "%s %s --help: exit %d\n%s", help[0], help[1], rc, err);
      cr_expect_not_null (strstr (out, "--help"), "%s help lists its options:\n%s", help[0], out);
      const char *bogus[] = { commands[i][0], commands[i][1] ? commands[i][1] : "--bogus=1",
                              commands[i][1] ? "--bogus=1" : NULL, NULL };
      g_autofree char *out2 = NULL, *err2 = NULL;
      cr_expect_eq (run_cli_argv (bogus, &out2, &err2), 2, "%s: %s", bogus[0], err2);
      cr_expect_not_null (strstr (err2, "--bogus"), "%s names the option: %s", bogus[0], err2);
      cr_expect_not_null (strstr (err2, "--help'"), "%s points to --help: %s", bogus[0], err2);
    }
  static const BadOption equals[] = {
    { { "watch", "--source=demo", "--fps=nan" }, "--fps takes a number from 0.1 to 1000, not 'nan'" },
    { { "watch", "--source=demo", "--frames=abc" }, "--frames takes a whole number from 1 to 1000000000, not 'abc'" },
    { { "scan", "--calibrate-lens=100000x100000:1", "--save-calibration=l.cal", "a.png" },
      "--calibrate-lens COLS takes a whole number from 2 to 64, not '100000'" },
    { { "render", "s.scene", "--output=out", "--frames=0" }, "--frames takes a whole number from 1 to 1000000, not '0'" },
    { { "bench", "engine", "--games=-5" }, "--games takes a whole number from 1 to 100000000, not '-5'" },
    { { "watch", "--source", "demo", "--fps" }, "--fps" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (equals); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      int rc = run_cli_argv (equals[i].args, &out, &err);
      if (strstr (err, "unknown command") != NULL)
        continue;
      cr_expect_eq (rc, 2, "case %zu: exit %d\n%s", i, rc, err);
      cr_expect_not_null (strstr (err, equals[i].says), "case %zu: stderr lacks \"%s\":\n%s", i, equals[i].says, err);
    }
}

/* Option values are bytes as given: a UTF-8 name passes whatever the
 * locale (GOption's string options would refuse it under LC_ALL=C). */
Test (cli, utf8_option_values_pass_under_the_c_locale)
{
  const char *argv[] = { getenv ("TABLERO_CLI"), "watch", "--source", "demo", "--players", "Jos\xc3\xa9,Mar\xc3\xad" "a",
                         "--first", "Mar\xc3\xad" "a", "--frames", "1", NULL };
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "LC_ALL", "C", TRUE);
  g_autofree char *out = NULL, *err = NULL;
  int wait_status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) argv, env, 0, NULL, NULL, &out, &err, &wait_status, NULL));
  if (strstr (err, "unknown command") != NULL)
    return;
  cr_expect (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0, "stderr: %s", err);
  cr_expect_null (strstr (err, "Invalid byte"), "%s", err);
}

/* "--" ends the options: what follows is an argument even with a dash. */
Test (cli, double_dash_ends_the_options)
{
  g_autofree char *out = NULL, *err = NULL;
  int rc = run_cli_argv ((const char *[]) { "tag", "--", "-x", "TB1K01F002U", NULL }, &out, &err);
  cr_expect_eq (rc, 1, "%s", err);
  cr_expect_not_null (strstr (out, "{\"payload\":\"-x\""), "%s", out);
  cr_expect_null (strstr (out, "{\"payload\":\"--\""), "%s", out);
  cr_expect_not_null (strstr (out, "\"type\":\"cat-red-1\""), "%s", out);
}
