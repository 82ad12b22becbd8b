#include "cli.h"

#include "eng-data.h"
#include "eng-game.h"

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *
cli_data_path (const char *relative)
{
  char *path = eng_data_path (relative);
  char *copy = g_strdup (path);   /* callers g_free() */
  free (path);
  return copy;
}

/* "katua, catchy": the registry's games, for messages (transfer full). */
static char *
known_games (void)
{
  GString *known = g_string_new (NULL);
  for (size_t i = 0; i < eng_game_class_count (); i++)
    g_string_append_printf (known, "%s%s", i ? ", " : "", eng_game_class_get (i)->name);
  return g_string_free (known, FALSE);
}

const char *
cli_default_game (void)
{
  return eng_game_class_get (0)->name;
}

/* A game's short name: lower-case letters, digits and '-' (it names files). */
static bool
game_name_ok (const char *game)
{
  if (game == NULL || game[0] == '\0' || strlen (game) > 32)
    return false;
  for (const char *c = game; *c != '\0'; c++)
    if (!g_ascii_islower (*c) && !g_ascii_isdigit (*c) && *c != '-')
      return false;
  return true;
}

char *
cli_card_set_path (const char *game)
{
  /* any game whose card set is bundled: stickers are printed for a game
   * before its rules are written */
  if (game_name_ok (game))
    {
      g_autofree char *name = g_strdup_printf ("%s.set", game);
      g_autofree char *rel = g_build_filename ("cards", name, NULL);
      char *path = cli_data_path (rel);
      if (path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return path;
      g_free (path);
    }
  g_autofree char *known = known_games ();
  g_autofree char *shown = g_strescape (game ? game : "", NULL);
  fprintf (stderr, "tablero-cli: unknown game '%s' (known: %s)\n", shown, known);
  return NULL;
}

const EngGameClass *
cli_game_class (const char *game)
{
  const EngGameClass *klass = eng_game_class_find (game);
  if (klass != NULL)
    return klass;
  g_autofree char *known = known_games ();
  g_autofree char *shown = g_strescape (game ? game : "", NULL);
  fprintf (stderr, "tablero-cli: no rules for the game '%s' (known: %s)\n", shown, known);
  return NULL;
}

/* The name and letter a card set file declares on its `game` line
 * (docs/card-sets.md), read without loading the set: a broken set is
 * still found, so loading it can say where it is broken. */
static bool
declared_game (const char *path, char *name, size_t size, char *letter)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return false;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (char **line = lines; *line != NULL; line++)
    {
      g_auto (GStrv) w = g_strsplit_set (g_strstrip (*line), " \t", 4);
      if (g_strv_length (w) >= 3 && strcmp (w[0], "game") == 0 && strlen (w[2]) == 1)
        {
          g_strlcpy (name, w[1], size);
          *letter = w[2][0];
          return true;
        }
    }
  return false;
}

const char *
cli_game_for_letter (char letter)
{
  /* the letter is the card set's own: each bundled set says it; the name
   * is kept for the process's life */
  static char found[64];
  g_autofree char *dir_path = cli_data_path ("cards");
  GDir *dir = dir_path != NULL ? g_dir_open (dir_path, 0, NULL) : NULL;
  const char *entry;
  const char *game = NULL;
  while (dir != NULL && game == NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      char name[64], declared = 0;
      g_autofree char *path = g_build_filename (dir_path, entry, NULL);
      if (g_str_has_suffix (entry, ".set") && declared_game (path, name, sizeof name, &declared)
          && declared == letter && game_name_ok (name))
        game = g_strlcpy (found, name, sizeof found) < sizeof found ? found : NULL;
    }
  if (dir != NULL)
    g_dir_close (dir);
  return game;
}

void
cli_json_string (GString *out, const char *s, size_t len)
{
  g_string_append_c (out, '"');
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}
