/* eng-tag.c: the sticker payload codec (docs/tags.md).
 *
 * Parsing is strict on purpose: a camera sees phone screens, product boxes
 * and half-read codes, and every one of them must come out as FOREIGN or
 * CHECKSUM, never as a card.  Luhn mod 36 catches every single-character
 * substitution and every adjacent transposition except "0Z" <-> "Z0" (the
 * only pair whose doubled values collide); in a payload those two characters
 * can sit next to each other only inside the set id, and the card-set loader
 * refuses both "0Z" and "Z0" as set ids, so the swap names no set.
 */
#include "eng-tag.h"

#include <string.h>

#define TAG_RADIX 36
#define TAG_BODY_LEN (ENG_TAG_PAYLOAD_LEN - 1)

/* Digit value in [0-9A-Z], or -1: deliberately no lowercase, because a QR
 * alphanumeric segment cannot hold lowercase and our stickers never do. */
static int
tag_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return -1;
}

static char
tag_char (int digit)
{
  return (char) (digit < 10 ? '0' + digit : 'A' + digit - 10);
}

static int
tag_kind_valid (char c)
{
  return c == ENG_TAG_FACE || c == ENG_TAG_BACK || c == ENG_TAG_ANCHOR
         || c == ENG_TAG_SEAT || c == ENG_TAG_COMMAND;
}

char
eng_tag_check_char (const char *body, size_t len)
{
  if (body == NULL)
    return 0;
  /* Luhn mod N: from the rightmost character leftwards, double every other
   * value starting with the rightmost, fold the doubled value back into one
   * digit of base N, and pick the check digit that brings the sum to 0 mod N. */
  unsigned factor = 2;
  unsigned sum = 0;
  for (size_t i = len; i-- > 0;)
    {
      int digit = tag_digit (body[i]);
      if (digit < 0)
        return 0;
      unsigned addend = factor * (unsigned) digit;
      addend = addend / TAG_RADIX + addend % TAG_RADIX;
      sum += addend;
      factor = factor == 2 ? 1 : 2;
    }
  return tag_char ((int) ((TAG_RADIX - sum % TAG_RADIX) % TAG_RADIX));
}

EngStatus
eng_tag_parse (const char *payload, size_t len, EngTag *out)
{
  if (payload == NULL || len != ENG_TAG_PAYLOAD_LEN)
    return ENG_ERR_TAG_FOREIGN;
  if (memcmp (payload, "TB1", 3) != 0)
    return ENG_ERR_TAG_FOREIGN;
  for (size_t i = 0; i < ENG_TAG_PAYLOAD_LEN; i++)
    if (tag_digit (payload[i]) < 0)
      return ENG_ERR_TAG_FOREIGN;
  char game = payload[3];
  if (game < 'A' || game > 'Z')
    return ENG_ERR_TAG_FOREIGN;
  if (!tag_kind_valid (payload[6]))
    return ENG_ERR_TAG_FOREIGN;
  unsigned serial = 0;
  for (size_t i = 7; i < 10; i++)
    {
      if (payload[i] < '0' || payload[i] > '9')
        return ENG_ERR_TAG_FOREIGN;
      serial = serial * 10 + (unsigned) (payload[i] - '0');
    }
  if (serial == 0)
    return ENG_ERR_TAG_FOREIGN;
  if (eng_tag_check_char (payload, TAG_BODY_LEN) != payload[TAG_BODY_LEN])
    return ENG_ERR_TAG_CHECKSUM;

  if (out != NULL)
    {
      out->game = game;
      out->set[0] = payload[4];
      out->set[1] = payload[5];
      out->set[2] = '\0';
      out->kind = (EngTagKind) payload[6];
      out->serial = (uint16_t) serial;
    }
  return ENG_OK;
}

EngStatus
eng_tag_format (const EngTag *tag, char out[ENG_TAG_PAYLOAD_LEN + 1])
{
  if (tag == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (tag->game < 'A' || tag->game > 'Z')
    return ENG_ERR_INVALID_ARGUMENT;
  if (tag_digit (tag->set[0]) < 0 || tag_digit (tag->set[1]) < 0 || tag->set[2] != '\0')
    return ENG_ERR_INVALID_ARGUMENT;
  if (!tag_kind_valid ((char) tag->kind))
    return ENG_ERR_INVALID_ARGUMENT;
  if (tag->serial < 1 || tag->serial > 999)
    return ENG_ERR_INVALID_ARGUMENT;

  char buf[ENG_TAG_PAYLOAD_LEN + 1];
  buf[0] = 'T';
  buf[1] = 'B';
  buf[2] = '1';
  buf[3] = tag->game;
  buf[4] = tag->set[0];
  buf[5] = tag->set[1];
  buf[6] = (char) tag->kind;
  buf[7] = (char) ('0' + tag->serial / 100);
  buf[8] = (char) ('0' + tag->serial / 10 % 10);
  buf[9] = (char) ('0' + tag->serial % 10);
  buf[10] = eng_tag_check_char (buf, TAG_BODY_LEN);
  buf[11] = '\0';
  memcpy (out, buf, sizeof buf);
  return ENG_OK;
}

const char *
eng_tag_kind_to_string (EngTagKind kind)
{
  switch (kind)
    {
    case ENG_TAG_FACE:
      return "face";
    case ENG_TAG_BACK:
      return "back";
    case ENG_TAG_ANCHOR:
      return "anchor";
    case ENG_TAG_SEAT:
      return "seat";
    case ENG_TAG_COMMAND:
      return "command";
    }
  return "unknown";
}
