/* The sticker payload codec: round trips, and everything a camera might see
 * that is not one of our stickers. */
#include <criterion/criterion.h>
#include <string.h>

#include "eng-tag.h"

static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
static const EngTagKind kinds[] = { ENG_TAG_FACE, ENG_TAG_BACK, ENG_TAG_ANCHOR, ENG_TAG_SEAT,
                                    ENG_TAG_COMMAND };

static void
make (char game, const char *set, EngTagKind kind, unsigned serial, char out[12])
{
  EngTag tag = { .game = game, .kind = kind, .serial = (uint16_t) serial };
  memcpy (tag.set, set, 3);
  cr_assert_eq (eng_tag_format (&tag, out), ENG_OK, "format %c %s %c %u", game, set, kind, serial);
}

Test (tag, known_vectors)
{
  /* Computed independently of this code (Luhn mod N as published, N = 36). */
  char out[12];
  make ('K', "01", ENG_TAG_FACE, 1, out);
  cr_assert_str_eq (out, "TB1K01F001W");
  make ('K', "01", ENG_TAG_FACE, 108, out);
  cr_assert_str_eq (out, "TB1K01F108G");
  make ('K', "01", ENG_TAG_BACK, 2, out);
  cr_assert_str_eq (out, "TB1K01B002Y");
  make ('E', "01", ENG_TAG_COMMAND, 1, out);
  cr_assert_str_eq (out, "TB1E01X001R");
  cr_assert_eq (eng_tag_check_char ("TB1K01A001", 10), '1');
}

Test (tag, round_trip_every_serial_and_kind)
{
  static const char *const sets[] = { "01", "ZZ", "A0", "9Q" };
  static const char games[] = { 'K', 'C', 'E', 'A', 'Z' };
  for (size_t g = 0; g < sizeof games; g++)
    for (size_t s = 0; s < 4; s++)
      for (size_t k = 0; k < 5; k++)
        for (unsigned serial = 1; serial <= 999; serial++)
          {
            char payload[12];
            make (games[g], sets[s], kinds[k], serial, payload);
            cr_assert_eq (strlen (payload), ENG_TAG_PAYLOAD_LEN);
            EngTag back;
            cr_assert_eq (eng_tag_parse (payload, 11, &back), ENG_OK, "%s", payload);
            cr_assert_eq (back.game, games[g]);
            cr_assert_str_eq (back.set, sets[s]);
            cr_assert_eq (back.kind, kinds[k]);
            cr_assert_eq (back.serial, serial);
          }
}

Test (tag, every_single_substitution_is_rejected)
{
  static const char *const sets[] = { "01", "ZZ", "0Z", "K7" };
  for (size_t s = 0; s < 4; s++)
    for (size_t k = 0; k < 5; k++)
      for (unsigned serial = 1; serial <= 999; serial += 7)
        {
          char good[12];
          make ('K', sets[s], kinds[k], serial, good);
          for (size_t pos = 0; pos < 11; pos++)
            for (int b = 0; b < 256; b++)
              {
                if ((char) b == good[pos])
                  continue;
                char bad[12];
                memcpy (bad, good, 12);
                bad[pos] = (char) b;
                EngTag out = { .game = '?' };
                EngStatus st = eng_tag_parse (bad, 11, &out);
                cr_assert_neq (st, ENG_OK, "%s with byte %d at %zu accepted", good, b, pos);
                cr_assert (st == ENG_ERR_TAG_FOREIGN || st == ENG_ERR_TAG_CHECKSUM);
                cr_assert_eq (out.game, '?', "out touched on error");
                /* A wrong check character in our alphabet is a misread of a
                 * real tag: it must say CHECKSUM, not FOREIGN. */
                if (pos == 10 && strchr (alphabet, b) != NULL && b != 0)
                  cr_assert_eq (st, ENG_ERR_TAG_CHECKSUM);
              }
        }
}

Test (tag, adjacent_transpositions_are_rejected)
{
  /* Luhn mod 36 misses exactly one transposition, 0Z <-> Z0.  In a payload
   * those characters can only be neighbours inside the set id, and no set may
   * use either id (test-cardset checks the loader refuses them).  Everything
   * else must fail here. */
  size_t checked = 0;
  for (size_t a = 0; a < 36; a++)
    for (size_t b = 0; b < 36; b++)
      {
        char set[3] = { alphabet[a], alphabet[b], '\0' };
        for (size_t k = 0; k < 5; k++)
          for (unsigned serial = 1; serial <= 999; serial += 37)
            {
              char good[12];
              make ('C', set, kinds[k], serial, good);
              for (size_t pos = 0; pos + 1 < 11; pos++)
                {
                  if (good[pos] == good[pos + 1])
                    continue;
                  char bad[12];
                  memcpy (bad, good, 12);
                  bad[pos] = good[pos + 1];
                  bad[pos + 1] = good[pos];
                  EngTag out;
                  EngStatus st = eng_tag_parse (bad, 11, &out);
                  if (pos == 4 && ((set[0] == '0' && set[1] == 'Z') || (set[0] == 'Z' && set[1] == '0')))
                    {
                      cr_assert_eq (st, ENG_OK);
                      cr_assert_str_neq (out.set, set);
                      continue;
                    }
                  cr_assert_neq (st, ENG_OK, "%s -> %s accepted", good, bad);
                  checked++;
                }
            }
      }
  cr_assert_gt (checked, 100000);
}

Test (tag, malformed_payloads_are_foreign)
{
  static const struct {
    const char *bytes;
    size_t len;
  } cases[] = {
    { "", 0 },
    { "TB1K01F001", 10 },             /* check character missing */
    { "TB1K01F001WW", 12 },           /* one too many */
    { "tb1k01f001w", 11 },            /* lowercase of a valid tag */
    { "TB1k01F001W", 11 },
    { "TB1K01F\0001W", 11 },          /* NUL inside */
    { "TB1K01F001\0", 11 },
    { "TB1K01F\xc3\xa9" "1W", 11 },   /* UTF-8 e-acute */
    { "https://example.com/x", 21 },
    { "HTTP://A.BC", 11 },            /* URL shape in QR alphanumeric */
    { "4006381333931", 13 },          /* an EAN-13 product code */
    { "40063813339", 11 },            /* eleven digits */
    { "TB2K01F001W", 11 },            /* another format version */
    { "XB1K01F001W", 11 },
    { "TB1K01Q001W", 11 },            /* unknown kind */
    { "TB1K01F0A1W", 11 },            /* serial not decimal */
    { "TB1K01F 01W", 11 },
    { "TB1K01F-01W", 11 },
    { "TB1101F001W", 11 },            /* game must be a letter */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      EngTag out = { .game = '?' };
      cr_assert_eq (eng_tag_parse (cases[i].bytes, cases[i].len, &out), ENG_ERR_TAG_FOREIGN,
                    "case %zu", i);
      cr_assert_eq (out.game, '?');
    }
  cr_assert_eq (eng_tag_parse (NULL, 11, NULL), ENG_ERR_TAG_FOREIGN);

  /* Serial 000 with a correct check character is still not ours. */
  char zero[12] = "TB1K01F000";
  zero[10] = eng_tag_check_char (zero, 10);
  zero[11] = '\0';
  cr_assert_eq (eng_tag_parse (zero, 11, NULL), ENG_ERR_TAG_FOREIGN);
  char kind[12] = "TB1K01Q001";
  kind[10] = eng_tag_check_char (kind, 10);
  cr_assert_eq (eng_tag_parse (kind, 11, NULL), ENG_ERR_TAG_FOREIGN);
}

Test (tag, format_refuses_out_of_range_fields)
{
  char out[12] = "unchanged!";
  const EngTag bad[] = {
    { 'K', "01", ENG_TAG_FACE, 0 },
    { 'K', "01", ENG_TAG_FACE, 1000 },
    { 'k', "01", ENG_TAG_FACE, 1 },
    { '1', "01", ENG_TAG_FACE, 1 },
    { 'K', "0a", ENG_TAG_FACE, 1 },
    { 'K', "0", ENG_TAG_FACE, 1 },
    { 'K', "01", (EngTagKind) 'Q', 1 },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq (eng_tag_format (&bad[i], out), ENG_ERR_INVALID_ARGUMENT, "case %zu", i);
  cr_assert_str_eq (out, "unchanged!");
  cr_assert_eq (eng_tag_format (NULL, out), ENG_ERR_INVALID_ARGUMENT);
}

Test (tag, check_char_and_kind_names)
{
  cr_assert_eq (eng_tag_check_char ("TB1K01f001", 10), 0);
  cr_assert_eq (eng_tag_check_char (NULL, 3), 0);
  cr_assert_neq (eng_tag_check_char ("", 0), 0);
  cr_assert_str_eq (eng_tag_kind_to_string (ENG_TAG_FACE), "face");
  cr_assert_str_eq (eng_tag_kind_to_string (ENG_TAG_BACK), "back");
  cr_assert_str_eq (eng_tag_kind_to_string (ENG_TAG_ANCHOR), "anchor");
  cr_assert_str_eq (eng_tag_kind_to_string (ENG_TAG_SEAT), "seat");
  cr_assert_str_eq (eng_tag_kind_to_string (ENG_TAG_COMMAND), "command");
  cr_assert_str_eq (eng_tag_kind_to_string ((EngTagKind) 'Q'), "unknown");
}
