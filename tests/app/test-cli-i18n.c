/* tablero-cli's own words in the table's language: errors, usage, the
 * command list and --help come out in Spanish or Catalan under
 * LANGUAGE=es / ca, in English in the C locale, and bad input still exits 2
 * naming the option and the value.  The "tablero-cli CMD: " prefix and
 * option names are never translated (scripts grep them).  The catalogues
 * are the build's (TABLERO_LOCALEDIR, tests/app/meson.build).
 *
 * GLib's own words ("Unknown option", "Usage:") come from the system's
 * GLib catalogue, which a minimal install may lack: they are not asserted. */
#include <criterion/criterion.h>

#include <glib.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* gettext ignores LANGUAGE when the messages locale is C, so a language is
 * tried under C.UTF-8 (always present); NULL: plain C with LANGUAGE=es set,
 * which must stay English. */
static int
run_cli (const char *language, const char *const *args, char **out, char **err)
{
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "LC_ALL", language ? "C.UTF-8" : "C", TRUE);
  env = g_environ_setenv (env, "LANGUAGE", language ? language : "es", TRUE);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, getenv ("TABLERO_CLI"));
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  int wait_status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) argv->pdata, env, 0, NULL, NULL, out, err, &wait_status, NULL));
  g_ptr_array_unref (argv);
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
}

typedef struct {
  const char *args[8];
  int status;
  bool on_stdout;      /* --help prints on stdout, errors on stderr */
  const char *says[3]; /* en, es, ca: each a whole line or a piece of one */
} Case;

static const char *const languages[] = { NULL, "es", "ca" };

/* A build without vision has no watch: its cases are skipped. */
static bool
have_watch (void)
{
  g_autofree char *out = NULL, *err = NULL;
  return run_cli (NULL, (const char *[]) { "watch", "--help", NULL }, &out, &err) == 0;
}

static void
check (const Case *cases, size_t n)
{
  for (size_t i = 0; i < n; i++)
    for (size_t l = 0; l < G_N_ELEMENTS (languages); l++)
      {
        g_autofree char *out = NULL, *err = NULL;
        int rc = run_cli (languages[l], cases[i].args, &out, &err);
        const char *lang = languages[l] ? languages[l] : "C";
        const char *text = cases[i].on_stdout ? out : err;
        cr_expect_eq (rc, cases[i].status, "case %zu (%s %s) in %s: exit %d\nstderr:\n%s", i, cases[i].args[0],
                      cases[i].args[1] ? cases[i].args[1] : "", lang, rc, err);
        cr_expect_not_null (strstr (text, cases[i].says[l]), "case %zu in %s lacks \"%s\":\n%s", i, lang,
                            cases[i].says[l], text);
        /* the other languages' texts must not leak in */
        for (size_t o = 0; o < G_N_ELEMENTS (languages); o++)
          if (strcmp (cases[i].says[o], cases[i].says[l]) != 0)
            cr_expect_null (strstr (text, cases[i].says[o]), "case %zu in %s says the %s text:\n%s", i, lang,
                            languages[o] ? languages[o] : "C", text);
      }
}

Test (cli_i18n, watch_errors_in_the_table_language_exit_2)
{
  if (!have_watch ())
    cr_skip_test ("a build without vision has no watch");
  static const Case cases[] = {
    { { "watch", "--source", "demo", "--game", "katua", "--players", "Ana", NULL }, 2, false,
      { "tablero-cli watch: --players takes 2 to 4 comma-separated names, not 1",
        "tablero-cli watch: --players admite de 2 a 4 nombres separados por comas, no 1",
        "tablero-cli watch: --players admet de 2 a 4 noms separats per comes, no 1" } },
    { { "watch", NULL }, 2, false,
      { "tablero-cli watch: --source SPEC is required\nTry 'tablero-cli watch --help'.\n",
        "tablero-cli watch: --source ESPEC es obligatorio\nPrueba «tablero-cli watch --help».\n",
        "tablero-cli watch: --source ESPEC és obligatori\nProva «tablero-cli watch --help».\n" } },
    /* GLib words the unknown option; the pointer to --help is ours */
    { { "watch", "--source", "demo", "--bogus=1", NULL }, 2, false,
      { "\nTry 'tablero-cli watch --help'.\n", "\nPrueba «tablero-cli watch --help».\n",
        "\nProva «tablero-cli watch --help».\n" } },
    { { "watch", "--source", "demo", "--fps", "nan", NULL }, 2, false,
      { "tablero-cli watch: --fps takes a number from 0.1 to 1000, not 'nan'",
        "tablero-cli watch: --fps admite un número de 0.1 a 1000, no «nan»",
        "tablero-cli watch: --fps admet un nombre de 0.1 a 1000, no «nan»" } },
    { { "watch", "--source", "demo", "--first", "Zed", NULL }, 2, false,
      { "tablero-cli watch: --first names nobody in --players: 'Zed'",
        "tablero-cli watch: --first no nombra a nadie de --players: «Zed»",
        "tablero-cli watch: --first no anomena ningú de --players: «Zed»" } },
    /* the option's description and its placeholder, as the GUI says it */
    { { "watch", "--help", NULL }, 0, true,
      { "--source=SPEC ", "--source=ESPEC ", "--source=ESPEC " } },
    { { "watch", "--help", NULL }, 0, true,
      { "Frames from SPEC (required)\n", "Imágenes de ESPEC (obligatorio)\n", "Imatges d'ESPEC (obligatori)\n" } },
    { { "watch", "--help", NULL }, 0, true,
      { "Show this help\n", "Muestra esta ayuda\n", "Mostra aquesta ajuda\n" } },
  };
  check (cases, G_N_ELEMENTS (cases));
}

Test (cli_i18n, usage_and_command_list_in_the_table_language)
{
  static const Case cases[] = {
    { { "--help", NULL }, 0, true,
      { "usage: tablero-cli COMMAND [ARGS]\n\ncommands:\n", "uso: tablero-cli ORDEN [ARGUMENTOS]\n\nórdenes:\n",
        "ús: tablero-cli ORDRE [ARGUMENTS]\n\nordres:\n" } },
    /* the command's name and syntax stay, its summary is translated */
    { { "--help", NULL }, 0, true,
      { "  bench     engine|history|vision|latency  measure speed and memory\n",
        "  bench     engine|history|vision|latency  mide velocidad y memoria\n",
        "  bench     engine|history|vision|latency  mesura velocitat i memòria\n" } },
    { { "frobnicate", NULL }, 2, false,
      { "tablero-cli: unknown command 'frobnicate'\n", "tablero-cli: orden desconocida «frobnicate»\n",
        "tablero-cli: ordre desconeguda «frobnicate»\n" } },
    { { "replay", NULL }, 2, false,
      { "usage: tablero-cli replay [--continue] [--verbose] RECORD\nTry 'tablero-cli replay --help'.\n",
        "uso: tablero-cli replay [--continue] [--verbose] RECORD\nPrueba «tablero-cli replay --help».\n",
        "ús: tablero-cli replay [--continue] [--verbose] RECORD\nProva «tablero-cli replay --help».\n" } },
    { { "bench", "engine", "--games", "abc", NULL }, 2, false,
      { "tablero-cli bench engine: --games takes a whole number from 1 to 100000000, not 'abc'\n",
        "tablero-cli bench engine: --games admite un número entero de 1 a 100000000, no «abc»\n",
        "tablero-cli bench engine: --games admet un nombre enter de 1 a 100000000, no «abc»\n" } },
  };
  check (cases, G_N_ELEMENTS (cases));
}
