/* cli-commands.c: reading `watch --commands` lines (cli-commands.h). */
#include "cli-commands.h"
#include "cli.h"   /* _(): the words in the table's language */
#include "eng-name.h"

#include <stdlib.h>
#include <string.h>

char *
cli_commands_take_line (GString *pending, bool at_end, long *frame)
{
  for (;;)
    {
      char *newline = memchr (pending->str, '\n', pending->len);
      if (newline == NULL)
        {
          if (!at_end || pending->len == 0)
            return NULL;
          g_string_append_c (pending, '\n');   /* a last line without newline */
          continue;
        }
      gsize n = (gsize) (newline - pending->str);
      /* a NUL would cut the line short (and hide the rest of the input
       * from strchr): it becomes a byte no command id holds */
      for (gsize i = 0; i < n; i++)
        if (pending->str[i] == '\0')
          pending->str[i] = '?';
      char *line = g_strndup (pending->str, n);
      g_string_erase (pending, 0, (gssize) n + 1);
      g_strstrip (line);
      *frame = -1;
      if (line[0] == '@')
        {
          char *end = NULL;
          *frame = strtol (line + 1, &end, 10);
          memmove (line, end, strlen (end) + 1);
          g_strstrip (line);
        }
      if (line[0] != '\0' && line[0] != '#')
        return line;
      g_free (line);
    }
}

/* A card named on a command line: its payload, or its face serial in the
 * game's set.  false when it is neither. */
static bool
card_payload (const EngCardSet *set, const char *word, char payload[ENG_TAG_PAYLOAD_LEN + 1])
{
  char *end = NULL;
  long serial = strtol (word, &end, 10);
  if (end != word && *end == '\0' && serial > 0 && serial < 1000)
    {
      EngTag tag = { .game = eng_card_set_game_letter (set), .kind = ENG_TAG_FACE,
                     .serial = (uint16_t) serial };
      g_strlcpy (tag.set, eng_card_set_id (set), sizeof tag.set);
      return eng_tag_format (&tag, payload) == ENG_OK;
    }
  if (strlen (word) != ENG_TAG_PAYLOAD_LEN)
    return false;
  g_strlcpy (payload, word, ENG_TAG_PAYLOAD_LEN + 1);
  return true;
}

bool
cli_command_parse (const char *line, const EngCardSet *set, const EngSetup *setup,
                   CliCommand *out, char **why)
{
  memset (out, 0, sizeof *out);
  out->player = -1;
  *why = NULL;
  if (g_str_has_prefix (line, "correct "))
    {
      g_auto (GStrv) words = g_strsplit (line + strlen ("correct "), " ", -1);
      bool removing = g_strv_length (words) == 2 && strcmp (words[1], "none") == 0;
      if (g_strv_length (words) != 2 || !card_payload (set, words[0], out->seen)
          || (!removing && !card_payload (set, words[1], out->actual)))
        {
          *why = g_strdup_printf (_("'%s': say 'correct SEEN ACTUAL|none' with face serials or payloads"),
                                  line);
          return false;
        }
      out->kind = CLI_COMMAND_CORRECT;
      return true;
    }
  if (g_str_has_prefix (line, "choose "))
    {
      const char *name = line + strlen ("choose ");
      /* as written, or quoted as a record writes it ("Mari Carmen") */
      size_t len = strlen (name);
      g_autofree char *bare = len >= 3 && name[0] == '"' && name[len - 1] == '"'
                              ? g_strndup (name + 1, len - 2) : g_strdup (name);
      for (unsigned p = 0; p < setup->n_players; p++)
        if (eng_names_same (bare, setup->names[p]))
          out->player = (int) p;
      if (out->player < 0)
        {
          *why = g_strdup_printf (_("'choose %s': no such player"), name);
          return false;
        }
      out->kind = CLI_COMMAND_CHOOSE;
      return true;
    }
  out->kind = CLI_COMMAND_RUN;
  out->id = line;
  return true;
}
