/* The label strip under each sticker's code names the card in the table's
 * language, with the game's own names for the cards (the words the app
 * and the referee use), never the card set's English data. */
#include <criterion/criterion.h>
#include <glib.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"
#include "eng-i18n.h"
#include "eng-tag.h"
#include "vis-set-stickers.h"
#include "../test-i18n-util.h"

typedef struct {
  EngCardSet *set;
  VisStickerText *texts;
  size_t n;
} Sheet;

static Sheet
sheet_of (const char *game)
{
  Sheet s = { 0 };
  g_autofree char *name = g_strdup_printf ("cards/%s.set", game);
  char *path = eng_data_path (name);
  cr_assert_not_null (path);
  EngParseError perr = { 0 };
  cr_assert_eq (eng_card_set_load_file (path, &s.set, &perr), ENG_OK, "%s", perr.reason);
  free (path);
  /* any key will do: the words do not depend on the seals */
  static const uint8_t key[ENG_PRINTING_KEY_LEN] = { 1, 2, 3 };
  EngPrinting *printing = NULL;
  cr_assert_eq (eng_printing_new (s.set, key, &printing), ENG_OK);
  cr_assert_eq (vis_set_sticker_texts (s.set, printing, &s.texts, &s.n, NULL), ENG_OK);
  eng_printing_free (printing);
  return s;
}

static void
sheet_clear (Sheet *s)
{
  free (s->texts);
  eng_card_set_free (s->set);
}

/* The label printed under the face sticker of `card`. */
static const char *
body_of (const Sheet *s, const EngCard *card)
{
  EngTag tag = { .game = eng_card_set_game_letter (s->set), .kind = ENG_TAG_FACE, .serial = card->serial };
  g_strlcpy (tag.set, eng_card_set_id (s->set), sizeof tag.set);
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  cr_assert_eq (eng_tag_format (&tag, payload), ENG_OK);
  for (size_t i = 0; i < s->n; i++)
    /* a sticker's text is its tag and a seal */
    if (strncmp (s->texts[i].payload, payload, ENG_TAG_PAYLOAD_LEN) == 0)
      return s->texts[i].body;
  cr_assert_fail ("no sticker for %s", payload);
  return NULL;
}

static const EngCard *
card_of_type (const EngCardSet *set, const char *type_id)
{
  for (size_t c = 0; c < eng_card_set_n_cards (set); c++)
    if (strcmp (eng_card_set_card (set, c)->type_id, type_id) == 0)
      return eng_card_set_card (set, c);
  cr_assert_fail ("no card of type %s", type_id);
  return NULL;
}

Test (sticker_words, english_names_the_card_as_the_game_does)
{
  speak (NULL);
  Sheet s = sheet_of ("katua");
  cr_expect_str_eq (body_of (&s, card_of_type (s.set, "cat-red-3")),
                    "Katua: red cat (symbol: flame), 3 points, copy 1/1");
  cr_expect_str_eq (body_of (&s, card_of_type (s.set, "fake-1")), "Katua: fake cat, -1 point, copy 1/4");
  cr_expect_str_eq (body_of (&s, card_of_type (s.set, "ufo-shield")), "Katua: Shield, copy 1/6");
  sheet_clear (&s);
}

/* Every face of every bundled set, in `language`: the label carries the
 * expected words and none of the set's English name for the card. */
static void
check_language (const char *language, const char *red_cat, const char *red_ufo)
{
  speak (language);
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const char *game = eng_game_class_get (g)->name;
      Sheet s = sheet_of (game);
      for (size_t c = 0; c < eng_card_set_n_cards (s.set); c++)
        {
          const EngCard *card = eng_card_set_card (s.set, c);
          const char *body = body_of (&s, card);
          /* after the game's name ("Exploding Kittens: "), which stays */
          const char *named = strstr (body, ": ");
          cr_assert_not_null (named, "%s", body);
          /* "Favor" is the Spanish and Catalan rulebooks' word too */
          if (strcmp (card->name, "Favor") == 0)
            continue;
          cr_expect_null (strstr (named, card->name), "%s: \"%s\" names the card in English (\"%s\")",
                          language, body, card->name);
        }
      if (strcmp (game, "katua") == 0)
        {
          cr_expect_not_null (strstr (body_of (&s, card_of_type (s.set, "cat-red-3")), red_cat),
                              "%s", body_of (&s, card_of_type (s.set, "cat-red-3")));
          cr_expect_not_null (strstr (body_of (&s, card_of_type (s.set, "ufo-red")), red_ufo),
                              "%s", body_of (&s, card_of_type (s.set, "ufo-red")));
        }
      sheet_clear (&s);
    }
  speak (NULL);
}

Test (sticker_words, spanish)
{
  check_language ("es", "Katua: gato rojo", "Katua: ovni rojo");
}

Test (sticker_words, catalan)
{
  check_language ("ca", "Katua: gat vermell", "Katua: ovni vermell");
}
