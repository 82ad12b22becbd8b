/* Sticker seals (engine/cards/eng-printing.h, docs/tags.md "Format 2"): every
 * sticker of a set round-trips with the seal the documented recipe gives;
 * a change of one character of the seal or the tag, another key, the older
 * unsealed format and a set the printing does not hold are each refused with
 * their own status. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-data.h"
#include "eng-game.h"
#include "eng-printing.h"

static const uint8_t key_a[ENG_PRINTING_KEY_LEN] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 42 };
static const uint8_t key_b[ENG_PRINTING_KEY_LEN] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 43 };

static EngCardSet *
load_set (const char *game)
{
  g_autofree char *name = g_strdup_printf ("cards/%s.set", game);
  char *path = eng_data_path (name);
  cr_assert_not_null (path);
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s: %s", path, err.reason);
  free (path);
  return set;
}

/* The seal as docs/tags.md describes it, computed here independently of
 * eng_seal_compute: HMAC-SHA256 over the 11 tag characters, its first 4
 * bytes big-endian, mod 36^5, 5 base-36 digits. */
static void
documented_seal (const uint8_t *key, const char *tag, char out[6])
{
  GHmac *h = g_hmac_new (G_CHECKSUM_SHA256, key, ENG_PRINTING_KEY_LEN);
  g_hmac_update (h, (const guchar *) tag, 11);
  guint8 digest[32];
  gsize len = sizeof digest;
  g_hmac_get_digest (h, digest, &len);
  g_hmac_unref (h);
  unsigned long v = ((unsigned long) digest[0] << 24) | ((unsigned long) digest[1] << 16)
                    | ((unsigned long) digest[2] << 8) | digest[3];
  v %= 36ul * 36 * 36 * 36 * 36;
  static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (int i = 4; i >= 0; i--)
    {
      out[i] = digits[v % 36];
      v /= 36;
    }
  out[5] = '\0';
}

Test (printing, every_sticker_round_trips_with_the_documented_seal)
{
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      EngCardSet *set = load_set (eng_game_class_get (g)->name);
      EngPrinting *p = NULL;
      cr_assert_eq (eng_printing_new (set, key_a, &p), ENG_OK);
      size_t n = eng_card_set_n_stickers (set);
      cr_assert_gt (n, 0u);
      for (size_t i = 0; i < n; i++)
        {
          EngTagMeaning m;
          cr_assert_eq (eng_card_set_sticker (set, i, &m), ENG_OK);
          char tag[ENG_TAG_PAYLOAD_LEN + 1], text[ENG_STICKER_TEXT_LEN + 1], want[6];
          cr_assert_eq (eng_tag_format (&m.tag, tag), ENG_OK);
          cr_assert_eq (eng_printing_sticker_text (p, &m.tag, text), ENG_OK, "%s", tag);
          cr_assert_eq (strlen (text), 16u);
          cr_assert_eq (strncmp (text, tag, 11), 0, "%s does not start with its tag %s", text, tag);
          documented_seal (key_a, tag, want);
          cr_assert_str_eq (text + 11, want, "%s: seal %s, the recipe gives %s", tag, text + 11, want);
          EngTag back;
          cr_assert_eq (eng_printing_check (p, text, 16, &back), ENG_OK, "%s refused", text);
          cr_assert_eq (back.kind, m.tag.kind);
          cr_assert_eq (back.serial, m.tag.serial);
          cr_assert_eq (back.game, m.tag.game);
          cr_assert_str_eq (back.set, m.tag.set);
        }
      eng_printing_free (p);
      eng_card_set_free (set);
    }
}

Test (printing, a_one_character_change_is_refused)
{
  EngCardSet *set = load_set ("katua");
  EngPrinting *p = NULL;
  cr_assert_eq (eng_printing_new (set, key_a, &p), ENG_OK);
  EngTag tag = { 'K', "01", ENG_TAG_FACE, 42 };
  char text[ENG_STICKER_TEXT_LEN + 1];
  cr_assert_eq (eng_printing_sticker_text (p, &tag, text), ENG_OK);
  static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  /* every other character at every seal position: a wrong seal */
  for (int i = 11; i < 16; i++)
    for (const char *c = alphabet; *c; c++)
      {
        if (*c == text[i])
          continue;
        char forged[17];
        memcpy (forged, text, sizeof forged);
        forged[i] = *c;
        EngTag out = { 0 };
        cr_assert_eq (eng_printing_check (p, forged, 16, &out), ENG_ERR_TAG_SEAL, "%s", forged);
        cr_assert_eq (out.serial, 0, "the tag of a refused sticker is not handed out");
      }
  /* the tag of another card that exists, with a right check character,
   * under this card's seal: a wrong seal (a seal is not shared by cards) */
  for (unsigned serial = 1; serial <= eng_card_set_n_cards (set); serial++)
    {
      if (serial == 42)
        continue;
      EngTag other = tag;
      other.serial = (uint16_t) serial;
      char forged[17];
      cr_assert_eq (eng_tag_format (&other, forged), ENG_OK);
      memcpy (forged + 11, text + 11, 5);
      forged[16] = '\0';
      cr_assert_eq (eng_printing_check (p, forged, 16, NULL), ENG_ERR_TAG_SEAL, "%s", forged);
    }
  /* a tag character changed without its check character: a misread */
  char misread[17];
  memcpy (misread, text, sizeof misread);
  misread[9] = misread[9] == '3' ? '4' : '3';
  cr_assert_eq (eng_printing_check (p, misread, 16, NULL), ENG_ERR_TAG_CHECKSUM);
  eng_printing_free (p);
  eng_card_set_free (set);
}

Test (printing, another_key_is_another_printing)
{
  EngCardSet *set = load_set ("katua");
  EngPrinting *a = NULL, *b = NULL;
  cr_assert_eq (eng_printing_new (set, key_a, &a), ENG_OK);
  cr_assert_eq (eng_printing_new (set, key_b, &b), ENG_OK);
  unsigned same = 0, n = (unsigned) eng_card_set_n_stickers (set);
  for (size_t i = 0; i < n; i++)
    {
      EngTagMeaning m;
      cr_assert_eq (eng_card_set_sticker (set, i, &m), ENG_OK);
      char ta[17], tb[17];
      cr_assert_eq (eng_printing_sticker_text (a, &m.tag, ta), ENG_OK);
      cr_assert_eq (eng_printing_sticker_text (b, &m.tag, tb), ENG_OK);
      /* 36^5 seals: two keys agreeing on one by chance is possible but
       * must stay rare; the other printing refuses all the rest */
      if (strcmp (ta, tb) == 0)
        same++;
      else
        {
          cr_expect_eq (eng_printing_check (b, ta, 16, NULL), ENG_ERR_TAG_SEAL, "%s", ta);
          cr_expect_eq (eng_printing_check (a, tb, 16, NULL), ENG_ERR_TAG_SEAL, "%s", tb);
        }
    }
  cr_expect_leq (same, 1u, "%u of %u seals equal under two keys", same, n);
  eng_printing_free (a);
  eng_printing_free (b);
  eng_card_set_free (set);
}

Test (printing, old_format_foreign_and_unplayed_sets_have_their_own_status)
{
  EngCardSet *katua = load_set ("katua");
  EngCardSet *catchy = load_set ("catchy");
  EngPrinting *p = NULL, *c = NULL;
  cr_assert_eq (eng_printing_new (katua, key_a, &p), ENG_OK);
  cr_assert_eq (eng_printing_new (catchy, key_a, &c), ENG_OK);

  /* a valid tag with no seal: printed before seals */
  cr_expect_eq (eng_printing_check (p, "TB1K01F001W", 11, NULL), ENG_ERR_TAG_OLD_FORMAT);
  cr_expect_eq (eng_printing_check (p, "TB1K01F001X", 11, NULL), ENG_ERR_TAG_CHECKSUM);
  cr_expect_eq (eng_printing_check (p, "TB1E01F0019", 11, NULL), ENG_ERR_TAG_OLD_FORMAT);

  char sealed[17];
  EngTag t1 = { 'K', "01", ENG_TAG_FACE, 1 };
  cr_assert_eq (eng_printing_sticker_text (p, &t1, sealed), ENG_OK);
  /* not Tablero-shaped: lengths around 16, lowercase or punctuation in
   * the seal, a NUL inside, nothing at all */
  char lower[17];
  memcpy (lower, sealed, sizeof lower);
  lower[13] = 'a';
  char dash[17];
  memcpy (dash, sealed, sizeof dash);
  dash[15] = '-';
  char nul[17];
  memcpy (nul, sealed, sizeof nul);
  nul[12] = '\0';
  cr_expect_eq (eng_printing_check (p, sealed, 15, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, "TB1K01F001W123456", 17, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, lower, 16, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, dash, 16, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, nul, 16, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, "", 0, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, NULL, 16, NULL), ENG_ERR_TAG_FOREIGN);
  cr_expect_eq (eng_printing_check (p, "HTTPS://A.BC/XYZ", 16, NULL), ENG_ERR_TAG_FOREIGN);

  /* a genuine Catchy! sticker shown to a Katua-only printing: a set the
   * table does not play; a serial the set lacks: not one of its stickers */
  EngTag tc = { 'C', "01", ENG_TAG_FACE, 1 };
  char catchy_text[17];
  cr_assert_eq (eng_printing_sticker_text (c, &tc, catchy_text), ENG_OK);
  cr_expect_eq (eng_printing_check (c, catchy_text, 16, NULL), ENG_OK);
  cr_expect_eq (eng_printing_check (p, catchy_text, 16, NULL), ENG_ERR_TAG_UNKNOWN);
  cr_expect_eq (eng_printing_check (p, "TB1K01F999M00000", 16, NULL), ENG_ERR_TAG_CHECKSUM);
  EngTag t999 = { 'K', "01", ENG_TAG_FACE, 999 };
  char tag999[12], text999[17];
  cr_assert_eq (eng_tag_format (&t999, tag999), ENG_OK);
  snprintf (text999, sizeof text999, "%s00000", tag999);
  cr_expect_eq (eng_printing_check (p, text999, 16, NULL), ENG_ERR_TAG_UNKNOWN);
  cr_expect_eq (eng_printing_sticker_text (p, &t999, text999), ENG_ERR_TAG_UNKNOWN);

  /* one printing may hold several sets, each once */
  cr_expect_eq (eng_printing_add (p, catchy, key_a), ENG_OK);
  cr_expect_eq (eng_printing_check (p, catchy_text, 16, NULL), ENG_OK);
  cr_expect_eq (eng_printing_add (p, catchy, key_b), ENG_ERR_DUPLICATE_ID);
  cr_expect (eng_printing_has_set (p, 'C', "01"));
  cr_expect (!eng_printing_has_set (p, 'E', "01"));

  /* each refusal names itself */
  const EngStatus refusals[] = { ENG_ERR_TAG_FOREIGN, ENG_ERR_TAG_CHECKSUM, ENG_ERR_TAG_OLD_FORMAT,
                                 ENG_ERR_TAG_UNKNOWN, ENG_ERR_TAG_SEAL };
  for (size_t i = 0; i < G_N_ELEMENTS (refusals); i++)
    for (size_t j = i + 1; j < G_N_ELEMENTS (refusals); j++)
      cr_expect_str_neq (eng_status_to_string (refusals[i]), eng_status_to_string (refusals[j]));
  cr_expect_str_neq (eng_status_to_string (ENG_ERR_TAG_SEAL), "unknown status");
  cr_expect_str_neq (eng_status_to_string (ENG_ERR_TAG_OLD_FORMAT), "unknown status");

  eng_printing_free (p);
  eng_printing_free (c);
  eng_card_set_free (katua);
  eng_card_set_free (catchy);
}
