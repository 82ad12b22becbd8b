#include "ui-words.h"

#include <glib/gi18n-lib.h>

#include <string.h>

const char *
ui_zone_kind_word (EngZoneKind kind)
{
  switch (kind)
    {
    case ENG_ZONE_SLOT: return C_ ("zone", "slot");
    case ENG_ZONE_ATTACK: return C_ ("zone", "attack spot");
    case ENG_ZONE_CAPTURE: return C_ ("zone", "capture area");
    case ENG_ZONE_PLAY: return C_ ("zone", "play area");
    case ENG_ZONE_DECK: return C_ ("zone", "deck");
    case ENG_ZONE_DISCARD: return C_ ("zone", "discard pile");
    case ENG_ZONE_CENTRE: return C_ ("zone", "centre");
    case ENG_ZONE_COMMAND: return C_ ("zone", "command spot");
    default: return NULL;
    }
}

void
ui_words_zone_label (const EngZone *zone, const char *data_name, char *out, gsize size)
{
  const char *word = ui_zone_kind_word ((EngZoneKind) zone->kind);
  char place[64];
  if (word == NULL)
    g_strlcpy (place, data_name != NULL ? data_name : "", sizeof place);
  else if (zone->index >= 0 && zone->kind != ENG_ZONE_CAPTURE && zone->kind != ENG_ZONE_PLAY
           && zone->kind != ENG_ZONE_COMMAND)
    /* numbered from 1 as the table counts: Katua's slots left to right,
     * the set's decks in order */
    g_snprintf (place, sizeof place, "%s %d", word, zone->index + 1);
  else
    g_strlcpy (place, word, sizeof place);
  if (zone->seat >= 0)
    /* Translators: a zone's place ("slot 2") and its seat. */
    g_snprintf (out, size, _ ("%s · seat %d"), place, zone->seat + 1);
  else
    g_strlcpy (out, place, size);
}

void
ui_words_sticker_name (const EngCardSet *set, const EngGame *game, const EngTag *tag,
                       const char *payload, char *out, gsize size)
{
  EngTagMeaning meaning;
  if (set == NULL || eng_card_set_resolve (set, tag, &meaning) != ENG_OK)
    {
      g_strlcpy (out, payload, size);
      return;
    }
  if (meaning.card != NULL)
    {
      /* Over the picture a person needs the card's name and what tells
       * copies of it apart in play: its value, when the name lacks it
       * (Katua's cats; Catchy!'s numbers carry theirs). */
      gsize len;
      if (game != NULL)
        {
          eng_game_card_name (game, meaning.card->serial, false, out, size);
          len = strlen (out);
        }
      else
        len = g_strlcpy (out, meaning.card->name, size);
      const char *value = eng_card_attr (meaning.card, "value");
      if (value != NULL && len < size && strstr (out, value) == NULL)
        g_snprintf (out + len, size - len, " %s", value);
    }
  else if (meaning.deck != NULL)
    g_snprintf (out, size, _ ("back: %s"), g_dpgettext2 (GETTEXT_PACKAGE, "deck", meaning.deck->id));
  else if (meaning.command != NULL)
    {
      g_autofree char *label = ui_words_command_label (meaning.command);
      g_snprintf (out, size, _ ("command: %s"), label);
    }
  else if (meaning.seat != 0)
    g_snprintf (out, size, _ ("seat %u"), meaning.seat);
  else
    g_snprintf (out, size, _ ("anchor %u"), meaning.anchor);
}

char *
ui_words_command_label (const EngCommand *command)
{
  const char *paren = strstr (command->label, " (");
  g_autofree char *label = paren != NULL ? g_strndup (command->label, (gsize) (paren - command->label))
                                         : g_strdup (command->label);
  return g_strdup (_ (label));
}
