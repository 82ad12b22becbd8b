#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

char *
cli_data_path (const char *relative)
{
  const char *env = g_getenv ("TABLERO_DATADIR");
  if (env != NULL && *env != '\0')
    return g_build_filename (env, relative, NULL);
  if (g_file_test (TABLERO_SOURCE_DATADIR, G_FILE_TEST_IS_DIR))
    return g_build_filename (TABLERO_SOURCE_DATADIR, relative, NULL);
  return g_build_filename (TABLERO_INSTALLED_DATADIR, relative, NULL);
}

char *
cli_card_set_path (const char *game)
{
  static const char *const games[] = { "katua", "catchy", "kittens" };
  for (size_t i = 0; i < G_N_ELEMENTS (games); i++)
    if (g_strcmp0 (game, games[i]) == 0)
      {
        g_autofree char *name = g_strdup_printf ("%s.set", game);
        g_autofree char *rel = g_build_filename ("cards", name, NULL);
        return cli_data_path (rel);
      }
  fprintf (stderr, "tablero-cli: unknown game '%s' (known: katua, catchy, kittens)\n",
           game ? game : "");
  return NULL;
}
