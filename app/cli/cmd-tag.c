/* tablero-cli tag PAYLOAD...: what each sticker payload means, one JSON
 * object a line, resolved against the bundled card set of its game.  A
 * payload is a card's 11-character tag or a sticker's 16-character text
 * (the tag and its seal, docs/tags.md): the seal is checked against this
 * table's printing of the set.  An 11-character tag is explained too (it is
 * what records name), with a note that as a sticker it is of the old format.
 * Exit 0 when every payload is a valid tag of a bundled set (and every seal
 * this table's), 1 when any is not (each still gets its line), 2 on bad
 * usage, a set that fails to load or a printing key that cannot be had. */
#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-printing.h"
#include "eng-tag.h"
#include "prt-store.h"

static void
json_field (GString *out, const char *key, const char *value)
{
  g_string_append_printf (out, ",\"%s\":", key);
  cli_json_string (out, value, strlen (value));
}

/* A payload from the command line may be any bytes (cli_json_string keeps
 * the line valid UTF-8). */
static void
json_payload (GString *out, const char *payload)
{
  g_string_append (out, "{\"payload\":");
  cli_json_cstring (out, payload);
}

static void
describe_meaning (GString *out, const EngCardSet *set, const EngTagMeaning *m)
{
  if (m->card != NULL)
    {
      const EngDeck *deck = eng_card_set_deck (set, m->card->deck);
      json_field (out, "type", m->card->type_id);
      json_field (out, "name", m->card->name);
      json_field (out, "label", m->card->label);
      json_field (out, "deck", deck ? deck->id : "");
      g_string_append_printf (out, ",\"copy\":%u,\"copies\":%u", m->card->copy, m->card->copies);
      g_string_append (out, ",\"attributes\":{");
      for (size_t i = 0; i < m->card->n_attrs; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          cli_json_string (out, m->card->attrs[i].key, strlen (m->card->attrs[i].key));
          g_string_append_c (out, ':');
          cli_json_string (out, m->card->attrs[i].value, strlen (m->card->attrs[i].value));
        }
      g_string_append_c (out, '}');
    }
  else if (m->deck != NULL)
    {
      json_field (out, "deck", m->deck->id);
      json_field (out, "label", m->deck->label);
    }
  else if (m->command != NULL)
    {
      json_field (out, "command", m->command->id);
      json_field (out, "label", m->command->label);
    }
  else if (m->seat > 0)
    g_string_append_printf (out, ",\"seat\":%u", m->seat);
  else if (m->anchor > 0)
    g_string_append_printf (out, ",\"anchor\":%u", m->anchor);
}

typedef struct {
  EngCardSet *sets[26];       /* loaded on demand, by game letter */
  EngPrinting *printings[26]; /* the table's printing of each, on demand */
} SetCache;

/* The table's printing of `set` (letter `letter`); NULL after saying why. */
static const EngPrinting *
cache_printing (SetCache *cache, const EngCardSet *set, char letter)
{
  EngPrinting **slot = &cache->printings[letter - 'A'];
  if (*slot == NULL)
    {
      g_autoptr (GError) error = NULL;
      *slot = prt_store_printing (set, &error);
      if (*slot == NULL)
        cli_say ("tag", "%s", error->message);
    }
  return *slot;
}

/* Returns the set for a letter, NULL when no bundled game uses it; sets
 * *load_failed when the set exists but does not load (reported on stderr). */
static const EngCardSet *
cache_get (SetCache *cache, char letter, gboolean *load_failed)
{
  const char *game = cli_game_for_letter (letter);
  if (game == NULL)
    return NULL;
  EngCardSet **slot = &cache->sets[letter - 'A'];
  if (*slot == NULL)
    {
      g_autofree char *path = cli_card_set_path (game);
      EngParseError err = { 0 };
      EngStatus st = path ? eng_card_set_load_file (path, slot, &err) : ENG_ERR_NOT_FOUND;
      if (st != ENG_OK)
        {
          if (path != NULL)
            cli_say ("tag", "%s:%u: %s (%s)", err.source, err.line, err.reason,
                     eng_status_to_string (st));
          *load_failed = TRUE;
          return NULL;
        }
    }
  return *slot;
}

static void
cache_clear (SetCache *cache)
{
  for (size_t i = 0; i < G_N_ELEMENTS (cache->sets); i++)
    {
      eng_card_set_free (cache->sets[i]);
      eng_printing_free (cache->printings[i]);
    }
}

/* A valid tag's fields and meaning in its bundled set, with its seal
 * checked when the payload is a sticker's text.  Returns the tag's status
 * (*reason says why it is not ENG_OK); *fatal set when a set or a
 * printing could not be had (said on stderr: the command stops). */
static EngStatus
explain_tag (SetCache *cache, const char *payload, size_t len, gboolean sealed, const EngTag *tag,
             GString *line, const char **reason, gboolean *fatal)
{
  if (sealed)
    {
      g_string_append (line, ",\"tag\":");
      cli_json_string (line, payload, ENG_TAG_PAYLOAD_LEN);
      g_string_append (line, ",\"seal\":");
      cli_json_cstring (line, payload + ENG_TAG_PAYLOAD_LEN);
    }
  char game[2] = { tag->game, '\0' };
  json_field (line, "game", game);
  json_field (line, "set", tag->set);
  json_field (line, "kind", eng_tag_kind_to_string (tag->kind));
  g_string_append_printf (line, ",\"serial\":%u", tag->serial);
  gboolean load_failed = FALSE;
  const EngCardSet *set = cache_get (cache, tag->game, &load_failed);
  *fatal = load_failed;
  if (load_failed)
    return ENG_ERR_IO;
  EngTagMeaning meaning;
  EngStatus st;
  if (set == NULL)
    {
      *reason = "no bundled game uses this game letter";
      return ENG_ERR_TAG_UNKNOWN;
    }
  if ((st = eng_card_set_resolve (set, tag, &meaning)) != ENG_OK)
    {
      *reason = "the bundled set of this game has no such set id or serial";
      return st;
    }
  json_field (line, "game_id", eng_card_set_game (set));
  describe_meaning (line, set, &meaning);
  if (!sealed)
    {
      json_field (line, "sticker",
                  "as a sticker's text this is the older format, which the referee refuses: "
                  "print the stickers again with tablero-cli stickers");
      return ENG_OK;
    }
  const EngPrinting *printing = cache_printing (cache, set, tag->game);
  *fatal = printing == NULL;
  if (printing == NULL)
    return ENG_ERR_IO;
  st = eng_printing_check (printing, payload, len, NULL);
  g_string_append_printf (line, ",\"seal_matches\":%s", st == ENG_OK ? "true" : "false");
  if (st != ENG_OK)
    *reason = "from another printing or made by hand: its seal is not this table's";
  return st;
}

/* One payload's JSON line (and, when it is not a valid tag of this table,
 * why on stderr); 0, 1 when it is not valid, 2 when the command stops. */
static int
tag_one (SetCache *cache, const char *payload)
{
  g_autoptr (GString) line = g_string_new (NULL);
  json_payload (line, payload);
  EngTag tag;
  size_t len = strlen (payload);
  /* a sticker's text is its tag and a seal of [0-9A-Z] */
  gboolean sealed = len == ENG_STICKER_TEXT_LEN;
  for (size_t k = ENG_TAG_PAYLOAD_LEN; sealed && k < len; k++)
    sealed = g_ascii_isdigit (payload[k]) || g_ascii_isupper (payload[k]);
  EngStatus st = eng_tag_parse (payload, sealed ? ENG_TAG_PAYLOAD_LEN : len, &tag);
  const char *reason = NULL;
  if (st == ENG_OK)
    {
      gboolean fatal = FALSE;
      st = explain_tag (cache, payload, len, sealed, &tag, line, &reason, &fatal);
      if (fatal)
        return 2;
    }
  else
    reason = st == ENG_ERR_TAG_CHECKSUM
                 ? "check character does not match (misread or mistyped)"
                 : "not a Tablero tag (wrong length, prefix, alphabet, kind or serial)";
  int status = 0;
  if (st != ENG_OK)
    {
      json_field (line, "error", eng_status_to_string (st));
      json_field (line, "reason", reason);
      g_autofree char *shown = g_strescape (payload, NULL);
      fprintf (stderr, "tablero-cli tag: '%s': %s: %s\n", shown, eng_status_to_string (st),
               reason);
      status = 1;
    }
  g_string_append_c (line, '}');
  printf ("%s\n", line->str);
  return status;
}

int
cli_cmd_tag (int argc, char **argv)
{
  const GOptionEntry entries[] = { G_OPTION_ENTRY_NULL };
  int rc = cli_parse_options ("tag", "PAYLOAD...",
                              N_ ("Prints what each sticker payload means, one JSON object a line.\n"
                              "A payload is a card's 11-character tag or a sticker's 16-character text\n"
                              "(tag and seal); a seal is checked against this table's printing.\n"
                              "Exit 0: all valid; 1: some payload is not a valid tag; 2: bad usage or data.\n"
                              "A payload that starts with '-' goes after '--'.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc < 2)
    {
      fprintf (stderr, "%s tablero-cli tag PAYLOAD...\n", _("usage:"));
      cli_try_help ("tag");
      return 2;
    }
  SetCache cache = { { NULL } };
  int status = 0;
  for (int i = 1; i < argc && status != 2; i++)
    {
      int one = tag_one (&cache, argv[i]);
      status = one != 0 ? one : status;
    }
  cache_clear (&cache);
  return status;
}
