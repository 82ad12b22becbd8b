#include "cli.h"

#include "eng-data.h"
#include "eng-game.h"
#include "eng-replay.h"
#include "eng-status.h"

#include <errno.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>
#include <math.h>
#include <stdarg.h>
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
  char known[256];
  eng_game_class_names (known, sizeof known);
  g_autofree char *shown = cli_escape (game);
  fprintf (stderr, "tablero-cli: ");
  fprintf (stderr, _("unknown game '%s' (known: %s)"), shown, known);
  fputc ('\n', stderr);
  return NULL;
}

const EngGameClass *
cli_game_class (const char *game)
{
  const EngGameClass *klass = eng_game_class_find (game);
  if (klass != NULL)
    return klass;
  char known[256];
  eng_game_class_names (known, sizeof known);
  g_autofree char *shown = cli_escape (game);
  fprintf (stderr, "tablero-cli: ");
  fprintf (stderr, _("no rules for the game '%s' (known: %s)"), shown, known);
  fputc ('\n', stderr);
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
  /* JSON is UTF-8: bytes that are not (an image name, a foreign code's
   * text) become U+FFFD rather than breaking the line */
  g_autofree char *valid = g_utf8_make_valid (s, (gssize) len);
  g_autoptr (JsonNode) node = json_node_init_string (json_node_alloc (), valid);
  g_autofree char *text = json_to_string (node, FALSE);
  g_string_append (out, text);
}

void
cli_event_json (GString *out, const EngEvent *event, const EngSetup *setup, unsigned line,
                const EngRuleDocs *details)
{
  char buf[1024];
  eng_event_to_json (event, setup, line, buf, sizeof buf);
  size_t n = strlen (buf);
  const EngRuleDoc *doc = eng_rule_docs_find (details, event->rule);
  if (doc == NULL || n == 0 || buf[n - 1] != '}')
    {
      g_string_append (out, buf);
      return;
    }
  g_string_append_len (out, buf, (gssize) n - 1);
  g_string_append (out, ",\"rule_title\":");
  cli_json_cstring (out, doc->title);
  g_string_append (out, ",\"explanation\":");
  cli_json_cstring (out, doc->text);
  g_string_append_c (out, '}');
}

char *
cli_escape (const char *text)
{
  if (text == NULL)
    return g_strdup ("");
  size_t len = strlen (text);
  size_t need = eng_escape_text (NULL, 0, text, len);
  char *out = g_malloc (need + 1);
  eng_escape_text (out, need + 1, text, len);
  return out;
}

/* "NAME takes a number from MIN to MAX, not 'TEXT'": one sentence per kind
 * of value, so a translator sees it whole; TEXT escaped with the rest. */
gboolean
cli_parse_double (const char *cmd, const char *name, const char *text, double min, double max, double *out)
{
  char *end = NULL;
  double v = 0;
  errno = 0;
  if (text != NULL && *text != '\0' && !g_ascii_isspace (*text))
    v = g_ascii_strtod (text, &end);
  if (end == NULL || end == text || *end != '\0' || errno == ERANGE || !isfinite (v) || v < min || v > max)
    {
      cli_say (cmd, _("%s takes a number from %g to %g, not '%s'"), name, min, max, text ? text : "");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
cli_parse_long (const char *cmd, const char *name, const char *text, long min, long max, long *out)
{
  gint64 v;
  if (text == NULL || !g_ascii_string_to_signed (text, 10, min, max, &v, NULL))
    {
      cli_say (cmd, _("%s takes a whole number from %ld to %ld, not '%s'"), name, min, max, text ? text : "");
      return FALSE;
    }
  *out = (long) v;
  return TRUE;
}

gboolean
cli_parse_uint64 (const char *cmd, const char *name, const char *text, guint64 *out)
{
  guint64 v;
  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &v, NULL))
    {
      cli_say (cmd, _("%s takes a whole number from 0 to 18446744073709551615, not '%s'"), name, text ? text : "");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

int
cli_parse_options (const char *cmd, const char *params, const char *description, const GOptionEntry *entries,
                   int *argc, char ***argv)
{
  gboolean help = FALSE;
  const GOptionEntry help_entry[] = {
    { "help", 'h', 0, G_OPTION_ARG_NONE, &help, N_("Show this help"), NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autofree char *prgname = g_strdup_printf ("tablero-cli %s", cmd);
  g_set_prgname (prgname);
  GOptionContext *ctx = g_option_context_new (params);
  /* Our own --help: printed and returned from, never exit() mid-parse. */
  g_option_context_set_help_enabled (ctx, FALSE);
  /* --help in the table's language: GOption passes `params`, `description`
   * and each entry's description through dgettext() in this domain (its
   * own words, "Usage:" and the like, come from GLib's catalogue).  The
   * callers mark those texts with N_().  Each add_main_entries() sets the
   * main group's domain again, so every call names it. */
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (ctx, help_entry, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  if (description != NULL)
    g_option_context_set_description (ctx, description);
  GError *error = NULL;
  int rc = -1;
  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      g_autofree char *shown = cli_escape (error->message);
      fprintf (stderr, "tablero-cli %s: %s\n", cmd, shown);
      cli_try_help (cmd);
      g_error_free (error);
      rc = 2;
    }
  else if (help)
    {
      g_autofree char *text = g_option_context_get_help (ctx, TRUE, NULL);
      fputs (text, stdout);
      rc = 0;
    }
  else
    /* GOption leaves the "--" that ends the options among the arguments. */
    for (int i = 1; i < *argc; i++)
      if (strcmp ((*argv)[i], "--") == 0)
        {
          memmove (&(*argv)[i], &(*argv)[i + 1], (size_t) (*argc - i) * sizeof (char *));
          (*argc)--;
          break;
        }
  g_option_context_free (ctx);
  return rc;
}

void
cli_try_help (const char *cmd)
{
  fprintf (stderr, _("Try 'tablero-cli %s --help'."), cmd);
  fputc ('\n', stderr);
}

void
cli_say (const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_autofree char *shown = cli_escape (msg);
  /* the JSON lines printed so far go out first, whole: with both streams
   * on one file or pipe, an error never lands in the middle of a line */
  fflush (stdout);
  fprintf (stderr, "tablero-cli %s: %s\n", cmd, shown);
}

gboolean
cli_parse_frame_size (const char *cmd, const char *spec, int *width, int *height)
{
  g_auto (GStrv) sides = g_strsplit (spec, "x", 3);
  long a = 0, b = 0;
  if (g_strv_length (sides) != 2)
    {
      cli_say (cmd, _("--size takes WIDTHxHEIGHT in pixels, not '%s'"), spec);
      return FALSE;
    }
  if (!cli_parse_long (cmd, _("--size width"), sides[0], 64, 16384, &a)
      || !cli_parse_long (cmd, _("--size height"), sides[1], 64, 16384, &b))
    return FALSE;
  *width = (int) a;
  *height = (int) b;
  return TRUE;
}
