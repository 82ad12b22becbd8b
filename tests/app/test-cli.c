/* tablero-cli's front door: usage, version and unknown commands. */
#include <criterion/criterion.h>

#include <glib.h>
#include <stdlib.h>
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
