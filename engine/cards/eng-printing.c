/* eng-printing.c: sticker seals (eng-printing.h, docs/tags.md "Format 2"). */
#include "eng-printing.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#define SEAL_RADIX 36u
#define SEAL_MODULUS (36u * 36u * 36u * 36u * 36u)  /* 36^5 < 2^32 */
#define MAX_SERIAL 999
#define N_KINDS 5

/* One set's seals: seals[kind][serial - 1] holds the 5 seal characters of
 * that sticker, or NULs when the set has no such sticker. */
typedef struct {
  char game;
  char set_id[3];
  char seals[N_KINDS][MAX_SERIAL][ENG_SEAL_LEN];
} PrintedSet;

struct EngPrinting {
  PrintedSet *sets[ENG_PRINTING_MAX_SETS];
  unsigned n_sets;
};

static const EngTagKind kinds[N_KINDS] = {
  ENG_TAG_FACE, ENG_TAG_BACK, ENG_TAG_ANCHOR, ENG_TAG_SEAT, ENG_TAG_COMMAND,
};

static int
kind_index (EngTagKind kind)
{
  for (int i = 0; i < N_KINDS; i++)
    if (kinds[i] == kind)
      return i;
  return -1;
}

static int
is_base36 (char c)
{
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
}

EngStatus
eng_seal_compute (const uint8_t *key, size_t key_len, const char *tag_text,
                  char out[ENG_SEAL_LEN + 1])
{
  if (key == NULL || key_len == 0 || tag_text == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  guint8 digest[32];
  gsize digest_len = sizeof digest;
  GHmac *hmac = g_hmac_new (G_CHECKSUM_SHA256, key, key_len);
  g_hmac_update (hmac, (const guchar *) tag_text, ENG_TAG_PAYLOAD_LEN);
  g_hmac_get_digest (hmac, digest, &digest_len);
  g_hmac_unref (hmac);
  uint32_t v = ((uint32_t) digest[0] << 24) | ((uint32_t) digest[1] << 16)
               | ((uint32_t) digest[2] << 8) | (uint32_t) digest[3];
  v %= SEAL_MODULUS;
  for (int i = ENG_SEAL_LEN; i-- > 0;)
    {
      unsigned d = v % SEAL_RADIX;
      out[i] = (char) (d < 10 ? '0' + d : 'A' + d - 10);
      v /= SEAL_RADIX;
    }
  out[ENG_SEAL_LEN] = '\0';
  memset (digest, 0, sizeof digest);
  return ENG_OK;
}

static const PrintedSet *
find_set (const EngPrinting *p, char game, const char *set_id)
{
  for (unsigned i = 0; i < p->n_sets; i++)
    if (p->sets[i]->game == game && memcmp (p->sets[i]->set_id, set_id, 2) == 0)
      return p->sets[i];
  return NULL;
}

/* Seals every sticker `set` can have.  Only the tag's serials that the set
 * resolves get a seal, so a valid-looking tag the set lacks finds none. */
static EngStatus
printed_set_new (const EngCardSet *set, const uint8_t *key, PrintedSet **out)
{
  PrintedSet *ps = g_try_new0 (PrintedSet, 1);
  if (ps == NULL)
    return ENG_ERR_NO_MEMORY;
  ps->game = eng_card_set_game_letter (set);
  snprintf (ps->set_id, sizeof ps->set_id, "%s", eng_card_set_id (set));
  for (int k = 0; k < N_KINDS; k++)
    for (unsigned serial = 1; serial <= MAX_SERIAL; serial++)
      {
        EngTag tag = { ps->game, { ps->set_id[0], ps->set_id[1], '\0' }, kinds[k], (uint16_t) serial };
        EngTagMeaning meaning;
        char text[ENG_TAG_PAYLOAD_LEN + 1], seal[ENG_SEAL_LEN + 1];
        if (eng_card_set_resolve (set, &tag, &meaning) != ENG_OK || eng_tag_format (&tag, text) != ENG_OK)
          continue;
        EngStatus st = eng_seal_compute (key, ENG_PRINTING_KEY_LEN, text, seal);
        if (st != ENG_OK)
          {
            g_free (ps);
            return st;
          }
        memcpy (ps->seals[k][serial - 1], seal, ENG_SEAL_LEN);
      }
  *out = ps;
  return ENG_OK;
}

EngStatus
eng_printing_new (const EngCardSet *set, const uint8_t *key, EngPrinting **out)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (set == NULL || key == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngPrinting *p = g_try_new0 (EngPrinting, 1);
  if (p == NULL)
    return ENG_ERR_NO_MEMORY;
  EngStatus st = eng_printing_add (p, set, key);
  if (st != ENG_OK)
    {
      eng_printing_free (p);
      return st;
    }
  *out = p;
  return ENG_OK;
}

EngStatus
eng_printing_add (EngPrinting *printing, const EngCardSet *set, const uint8_t *key)
{
  if (printing == NULL || set == NULL || key == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (find_set (printing, eng_card_set_game_letter (set), eng_card_set_id (set)) != NULL)
    return ENG_ERR_DUPLICATE_ID;
  if (printing->n_sets == ENG_PRINTING_MAX_SETS)
    return ENG_ERR_LIMIT;
  PrintedSet *ps = NULL;
  EngStatus st = printed_set_new (set, key, &ps);
  if (st != ENG_OK)
    return st;
  printing->sets[printing->n_sets++] = ps;
  return ENG_OK;
}

void
eng_printing_free (EngPrinting *printing)
{
  if (printing == NULL)
    return;
  for (unsigned i = 0; i < printing->n_sets; i++)
    g_free (printing->sets[i]);
  g_free (printing);
}

int
eng_printing_has_set (const EngPrinting *printing, char game, const char *set_id)
{
  return printing != NULL && set_id != NULL && strlen (set_id) == 2
         && find_set (printing, game, set_id) != NULL;
}

/* The stored seal of `tag`, or NULL when the printing has no such sticker. */
static const char *
seal_of (const EngPrinting *p, const EngTag *tag)
{
  const PrintedSet *ps = find_set (p, tag->game, tag->set);
  int k = kind_index (tag->kind);
  if (ps == NULL || k < 0 || tag->serial < 1 || tag->serial > MAX_SERIAL)
    return NULL;
  const char *seal = ps->seals[k][tag->serial - 1];
  return seal[0] != '\0' ? seal : NULL;
}

EngStatus
eng_printing_check (const EngPrinting *printing, const char *bytes, size_t len, EngTag *out)
{
  if (bytes == NULL)
    return ENG_ERR_TAG_FOREIGN;
  if (len != ENG_TAG_PAYLOAD_LEN && len != ENG_STICKER_TEXT_LEN)
    return ENG_ERR_TAG_FOREIGN;
  EngTag tag;
  EngStatus st = eng_tag_parse (bytes, ENG_TAG_PAYLOAD_LEN, &tag);
  if (st != ENG_OK)
    return st;
  if (len == ENG_TAG_PAYLOAD_LEN)
    return ENG_ERR_TAG_OLD_FORMAT;
  const char *given = bytes + ENG_TAG_PAYLOAD_LEN;
  for (size_t i = 0; i < ENG_SEAL_LEN; i++)
    if (!is_base36 (given[i]))
      return ENG_ERR_TAG_FOREIGN;
  const char *seal = printing != NULL ? seal_of (printing, &tag) : NULL;
  if (seal == NULL)
    return ENG_ERR_TAG_UNKNOWN;
  /* compared without an early exit, so timing does not tell how much of a
   * guessed seal was right */
  unsigned diff = 0;
  for (size_t i = 0; i < ENG_SEAL_LEN; i++)
    diff |= (unsigned) (seal[i] ^ given[i]);
  if (diff != 0)
    return ENG_ERR_TAG_SEAL;
  if (out != NULL)
    *out = tag;
  return ENG_OK;
}

EngStatus
eng_printing_sticker_text (const EngPrinting *printing, const EngTag *tag,
                           char out[ENG_STICKER_TEXT_LEN + 1])
{
  if (printing == NULL || tag == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  const char *seal = seal_of (printing, tag);
  char text[ENG_TAG_PAYLOAD_LEN + 1];
  if (seal == NULL || eng_tag_format (tag, text) != ENG_OK)
    return ENG_ERR_TAG_UNKNOWN;
  memcpy (out, text, ENG_TAG_PAYLOAD_LEN);
  memcpy (out + ENG_TAG_PAYLOAD_LEN, seal, ENG_SEAL_LEN);
  out[ENG_STICKER_TEXT_LEN] = '\0';
  return ENG_OK;
}
