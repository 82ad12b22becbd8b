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
    /* numbered from 1 as the table counts: a seat's slots left to right,
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

/* How many of the set's decks have a back sticker. */
static size_t
backs_in (const EngCardSet *set)
{
  size_t n = 0;
  for (size_t i = 0; i < eng_card_set_n_decks (set); i++)
    n += eng_card_set_deck (set, i)->has_back;
  return n;
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
       * (a card whose name does not say its colour). */
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
  else if (meaning.deck != NULL && backs_in (set) == 1)
    /* one deck with backs (Escoba's, Catchy!'s, the kittens'): which deck
     * says nothing a person needs */
    g_strlcpy (out, C_ ("sticker", "back"), size);
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

/* Appends `part` (owned, freed) to a list said with commas. */
static void
append_part (GString *text, const char **sep, char *part)
{
  g_string_append (text, *sep);
  g_string_append (text, part);
  g_free (part);
  *sep = ", ";
}

char *
ui_words_describe_stickers (guint faces, guint backs, guint markers, guint commands)
{
  guint all = faces + backs + markers + commands;
  if (all == 0)
    return g_strdup (_ ("No sticker in view"));
  GString *text = g_string_new (NULL);
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u sticker seen", "%u stickers seen", all), all);
  const char *sep = ": ";
  if (faces > 0)
    append_part (text, &sep, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u card face up", "%u cards face up",
                                                           faces), faces));
  if (backs > 0)
    append_part (text, &sep, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u card face down",
                                                           "%u cards face down", backs), backs));
  if (commands > 0)
    append_part (text, &sep, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u command card", "%u command cards",
                                                           commands), commands));
  /* the anchors at the corners and the seat markers */
  if (markers > 0)
    append_part (text, &sep, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u table marker", "%u table markers",
                                                           markers), markers));
  return g_string_free (text, FALSE);
}

/* A face-up card as the table names it: the game's name, and its value
 * when the name does not carry it ("red cat 3"). */
static void
card_name (const EngCardSet *set, const EngGame *game, unsigned serial, char *out, gsize size)
{
  const EngCard *card = set != NULL ? eng_card_set_find_serial (set, (uint16_t) serial) : NULL;
  if (game != NULL)
    eng_game_card_name (game, serial, false, out, size);
  else
    g_strlcpy (out, card != NULL ? card->name : "?", size);
  const char *value = card != NULL ? eng_card_attr (card, "value") : NULL;
  gsize len = strlen (out);
  if (value != NULL && len < size && strstr (out, value) == NULL)
    g_snprintf (out + len, size - len, " %s", value);
}

/* A place's cards as a person counts them: the face-up ones by name,
 * then how many lie face down and how many positions are empty. */
static void
describe_place (GString *text, const EngViewPlace *place, const EngCardSet *set, const EngGame *game)
{
  guint down = 0, empty = 0, up = 0;
  GString *names = g_string_new (NULL);
  for (unsigned k = 0; k < place->n_cards; k++)
    {
      const EngViewCard *card = &place->cards[k];
      if (card->empty)
        empty++;
      else if (card->serial == 0)
        down++;
      else
        {
          char name[96];
          card_name (set, game, card->serial, name, sizeof name);
          g_string_append_printf (names, "%s%s", up++ ? ", " : "", name);
        }
    }
  /* a pile whose lower cards are covered: only its count is public */
  if (place->count > (int) place->n_cards || place->n_cards == 0)
    {
      g_string_append_printf (text, "%s %d", place->label, place->count);
      if (up > 0)
        /* Translators: after a pile's count, the face-up card on top. */
        g_string_append_printf (text, _ (", %s on top"), names->str);
      g_string_free (names, TRUE);
      return;
    }
  g_string_append_printf (text, "%s: ", place->label);
  const char *sep = "";
  if (up > 0)
    append_part (text, &sep, g_strdup (names->str));
  if (down > 0)
    append_part (text, &sep, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u face down", "%u face down", down),
                                              down));
  if (empty > 0)
    append_part (text, &sep, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u empty", "%u empty", empty), empty));
  g_string_free (names, TRUE);
}

char *
ui_words_describe_view (const EngView *view, const EngCardSet *set, const EngGame *game)
{
  GString *text = g_string_new (NULL);
  if (view->over)
    g_string_append (text, _ ("The game is over."));
  else if (view->active >= 0 && (unsigned) view->active < view->n_players)
    /* Translators: on the table map's description; a name. */
    g_string_append_printf (text, _ ("%s's turn."), view->players[view->active].name);
  for (unsigned p = 0; p < view->n_players; p++)
    {
      const EngViewPlayer *vp = &view->players[p];
      GString *parts = g_string_new (NULL);
      if (vp->hand >= 0)
        g_string_append_printf (parts, _ ("%d in hand"), vp->hand);
      for (unsigned i = 0; i < vp->n_places; i++)
        {
          if (parts->len > 0)
            g_string_append (parts, "; ");
          describe_place (parts, &vp->places[i], set, game);
        }
      if (vp->flags & ENG_VIEW_PLAYER_OUT)
        g_string_append_printf (parts, "%s%s", parts->len > 0 ? "; " : "", _ ("out"));
      g_string_append_printf (text, "%s%s%s%s.", text->len ? " " : "", vp->name, parts->len > 0 ? ": " : "",
                              parts->str);
      g_string_free (parts, TRUE);
    }
  for (unsigned i = 0; i < view->n_shared; i++)
    {
      g_string_append (text, i == 0 ? " " : "; ");
      describe_place (text, &view->shared[i], set, game);
    }
  if (view->n_shared > 0)
    g_string_append_c (text, '.');
  return g_string_free (text, FALSE);
}

char *
ui_words_join_names (const char *const *names, guint n)
{
  if (n == 0)
    return g_strdup ("");
  g_autofree char *head = g_strdup (names[0]);
  for (guint i = 1; i + 1 < n; i++)
    {
      /* Translators: names in a list, before the last two ("Ana, Bea"). */
      char *longer = g_strdup_printf (_ ("%s, %s"), head, names[i]);
      g_free (head);
      head = longer;
    }
  if (n == 1)
    return g_steal_pointer (&head);
  /* Spanish says "e", not "y", before an "i" sound ("Ana e Isabel"): a
   * language whose "and" changes before a name starting with i or hi says
   * so in this second form */
  const char *last = names[n - 1];
  gboolean i_sound = g_ascii_strncasecmp (last, "i", 1) == 0
                     || (g_ascii_strncasecmp (last, "hi", 2) == 0 && strchr ("aeou", g_ascii_tolower (last[2])) == NULL)
                     || g_str_has_prefix (last, "Í") || g_str_has_prefix (last, "í");
  if (i_sound)
    /* Translators: the last two names of a list when the last starts with
     * an "i" sound ("Ana e Isabel" in Spanish); most languages keep "and". */
    return g_strdup_printf (C_ ("before an i sound", "%s and %s"), head, last);
  /* Translators: the last two names of a list ("Ana and Bea"). */
  return g_strdup_printf (_ ("%s and %s"), head, last);
}

char *
ui_words_when (GDateTime *then, GDateTime *now)
{
  g_autofree char *time = g_date_time_format (then, "%H:%M");
  g_autoptr (GDateTime) then_day = g_date_time_new_local (g_date_time_get_year (then), g_date_time_get_month (then),
                                                          g_date_time_get_day_of_month (then), 12, 0, 0);
  g_autoptr (GDateTime) now_day = g_date_time_new_local (g_date_time_get_year (now), g_date_time_get_month (now),
                                                         g_date_time_get_day_of_month (now), 12, 0, 0);
  /* whole days between the two dates, noon to noon (daylight saving moves an hour) */
  gint64 days = (g_date_time_difference (now_day, then_day) + G_TIME_SPAN_HOUR * 2) / G_TIME_SPAN_DAY;
  if (days == 0)
    /* Translators: when a saved game was played; a time ("21:40"). */
    return g_strdup_printf (_ ("today at %s"), time);
  if (days == 1)
    /* Translators: when a saved game was played; a time ("21:40"). */
    return g_strdup_printf (_ ("yesterday at %s"), time);
  if (days > 1 && days < 7)
    /* Translators: when a saved game was played: a weekday, then a time ("21:40"). */
    switch (g_date_time_get_day_of_week (then))
      {
      case 1: return g_strdup_printf (_ ("on Monday at %s"), time);
      case 2: return g_strdup_printf (_ ("on Tuesday at %s"), time);
      case 3: return g_strdup_printf (_ ("on Wednesday at %s"), time);
      case 4: return g_strdup_printf (_ ("on Thursday at %s"), time);
      case 5: return g_strdup_printf (_ ("on Friday at %s"), time);
      case 6: return g_strdup_printf (_ ("on Saturday at %s"), time);
      default: return g_strdup_printf (_ ("on Sunday at %s"), time);
      }
  /* Translators: a date as your language writes it, with strftime's
   * %d (day), %m (month) and %Y (year): "%d/%m/%Y" gives 12/11/2026. */
  g_autofree char *date = g_date_time_format (then, _ ("%d/%m/%Y"));
  /* Translators: when a saved game was played: a date, then a time. */
  return g_strdup_printf (_ ("on %s at %s"), date, time);
}
