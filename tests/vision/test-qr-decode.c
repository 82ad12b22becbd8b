/* test-qr-decode.c: Tablero's own decoder (vision/detect/vis-qr-decode.h).
 *
 * Reed-Solomon: random words with errors, erasures and both, up to the
 * budget (always corrected) and beyond it (refused, never turned into
 * another word).  The symbol: sealed stickers encoded by the sticker code
 * (vis-qr.h), sampled as a camera would give them, with highlights over
 * finders, format bits and data, flipped modules, forged, foreign and
 * old-format texts, two stickers blended into one grid: a reading is either
 * the sticker that was there or nothing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-printing.h"
#include "scene-util.h"
#include "vis-qr-decode.h"
#include "vis-qr.h"

#define N VIS_QRD_SIZE
#define NSYM (VIS_QRD_CODEWORDS - VIS_QRD_DATA)

static unsigned
rnd (unsigned *state)
{
  *state = *state * 1103515245u + 12345u;
  return (*state >> 8) & 0xffffff;
}

/* n distinct positions below `limit`, in random order */
static void
positions (unsigned *rng, int *out, int n, int limit)
{
  for (int k = 0; k < n; k++)
    {
      int p;
      bool again;
      do
        {
          p = (int) (rnd (rng) % (unsigned) limit);
          again = false;
          for (int j = 0; j < k; j++)
            again |= out[j] == p;
        }
      while (again);
      out[k] = p;
    }
}

/* A random codeword of RS(26, 13), and a copy hit by `errors` unknown
 * errors and `erasures` erasures (whose values are garbled too). */
static void
damaged_word (unsigned *rng, uint8_t *orig, uint8_t *hit, int *erased, int errors, int erasures)
{
  for (int i = 0; i < VIS_QRD_DATA; i++)
    orig[i] = (uint8_t) rnd (rng);
  vis_rs_encode (orig, VIS_QRD_DATA, NSYM, orig + VIS_QRD_DATA);
  memcpy (hit, orig, VIS_QRD_CODEWORDS);
  int pos[VIS_QRD_CODEWORDS];
  positions (rng, pos, errors + erasures, VIS_QRD_CODEWORDS);
  for (int k = 0; k < errors + erasures; k++)
    hit[pos[k]] ^= (uint8_t) (1 + rnd (rng) % 255);   /* never unchanged */
  for (int k = 0; k < erasures; k++)
    erased[k] = pos[errors + k];
}

Test (rs, encoder_makes_codewords_that_need_no_correction)
{
  unsigned rng = 1;
  for (int t = 0; t < 100; t++)
    {
      uint8_t w[VIS_QRD_CODEWORDS], h[VIS_QRD_CODEWORDS];
      int e[1];
      damaged_word (&rng, w, h, e, 0, 0);
      cr_assert_eq (vis_rs_decode (h, VIS_QRD_CODEWORDS, NSYM, NULL, 0, NSYM), 0);
      cr_assert_eq (memcmp (w, h, sizeof w), 0);
    }
}

/* A known QR codeword (ISO/IEC 18004 annex I: "01234567", version 1-M):
 * the encoder agrees with the standard's generator. */
Test (rs, encoder_matches_the_standard_example)
{
  const uint8_t data[16] = { 0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11,
                             0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11 };
  const uint8_t want[10] = { 0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55 };
  uint8_t ec[10];
  vis_rs_encode (data, 16, 10, ec);
  cr_assert_eq (memcmp (ec, want, sizeof want), 0);
}

Test (rs, corrects_errors_erasures_and_both_within_the_budget)
{
  unsigned rng = 7;
  for (int budget = NSYM - 1; budget <= NSYM; budget++)
    for (int erasures = 0; erasures <= budget; erasures++)
      for (int errors = 0; 2 * errors + erasures <= budget; errors++)
        for (int t = 0; t < 40; t++)
          {
            uint8_t w[VIS_QRD_CODEWORDS], h[VIS_QRD_CODEWORDS];
            int e[VIS_QRD_CODEWORDS];
            damaged_word (&rng, w, h, e, errors, erasures);
            int fixed = vis_rs_decode (h, VIS_QRD_CODEWORDS, NSYM, e, erasures, budget);
            cr_assert_eq (fixed, errors + erasures, "%d errors, %d erasures, budget %d: %d fixed", errors,
                          erasures, budget, fixed);
            cr_assert_eq (memcmp (w, h, sizeof w), 0);
          }
}

/* Beyond the budget the word is refused and left as it was.  (A decoder
 * can only do this with a margin: a word pushed right next to another
 * codeword is that codeword to anyone.  With at most 4 erasures the chance
 * is below 1e-8 a word; the sticker's seal covers the rest.) */
Test (rs, refuses_beyond_the_budget_and_never_returns_another_word)
{
  unsigned rng = 11;
  const int budget = NSYM - 1;
  unsigned refused = 0, tried = 0;
  for (int erasures = 0; erasures <= 4; erasures++)
    for (int over = 1; over <= 6; over++)
      {
        int errors = (budget - erasures) / 2 + over;
        if (errors + erasures > VIS_QRD_CODEWORDS)
          continue;
        for (int t = 0; t < 300; t++)
          {
            uint8_t w[VIS_QRD_CODEWORDS], h[VIS_QRD_CODEWORDS], before[VIS_QRD_CODEWORDS];
            int e[VIS_QRD_CODEWORDS];
            damaged_word (&rng, w, h, e, errors, erasures);
            memcpy (before, h, sizeof h);
            int fixed = vis_rs_decode (h, VIS_QRD_CODEWORDS, NSYM, e, erasures, budget);
            tried++;
            cr_assert_eq (fixed, -1, "%d errors + %d erasures taken as a word", errors, erasures);
            cr_assert_eq (memcmp (before, h, sizeof h), 0, "a refused word was changed");
            refused++;
          }
      }
  cr_assert_eq (refused, tried);
  /* and more erasures than the budget are refused outright */
  uint8_t w[VIS_QRD_CODEWORDS], h[VIS_QRD_CODEWORDS];
  int e[VIS_QRD_CODEWORDS];
  damaged_word (&rng, w, h, e, 0, budget + 1);
  cr_assert_eq (vis_rs_decode (h, VIS_QRD_CODEWORDS, NSYM, e, budget + 1, budget), -1);
}

/* ------------------------------------------------------------ the symbol */

typedef struct {
  const EngPrinting *printing;
  char taken[64];
  int n_taken;
  int n_offered;
} Taker;

/* Takes a text only when it is a sealed sticker of the tests' printing, as
 * the detector does. */
static bool
take_sealed (void *user, const char *text, size_t len)
{
  Taker *t = user;
  t->n_offered++;
  EngTag tag;
  if (eng_printing_check (t->printing, text, len, &tag) != ENG_OK)
    return false;
  snprintf (t->taken, sizeof t->taken, "%.*s", (int) len, text);
  t->n_taken++;
  return true;
}

/* Katua face `serial`'s tag. */
static void
face_tag (int serial, char out[16])
{
  snprintf (out, 16, "TB1K01F%03d", serial);
  out[10] = eng_tag_check_char (out, 10);
  out[11] = '\0';
}

static void
sticker_text (const char *tag, char out[ENG_STICKER_TEXT_LEN + 1])
{
  EngTag t;
  cr_assert_eq (eng_tag_parse (tag, strlen (tag), &t), ENG_OK);
  cr_assert_eq (eng_printing_sticker_text (test_printing (), &t, out), ENG_OK);
}

/* Samples as a camera gives them: ink 40, paper 215, a light gradient
 * across the code and some noise. */
static void
samples_of (const char *text, unsigned *rng, float *s)
{
  VisQrModules qr;
  cr_assert_eq (vis_qr_encode (text, strlen (text), &qr), ENG_OK);
  for (int y = 0; y < N; y++)
    for (int x = 0; x < N; x++)
      {
        float light = 1.0f - 0.012f * (float) (x + y);
        float v = qr.dark[y * N + x] ? 40.0f : 215.0f;
        s[y * N + x] = v * light + (float) ((int) (rnd (rng) % 21) - 10);
      }
}

/* A lamp's highlight: saturated within `core` modules of (cx, cy), and a
 * halo that greys everything out to twice that. */
static void
highlight (float *s, float cx, float cy, float core)
{
  for (int y = 0; y < N; y++)
    for (int x = 0; x < N; x++)
      {
        float d = hypotf ((float) x + 0.5f - cx, (float) y + 0.5f - cy);
        float a = 3.0f * expf (-d * d * logf (3.0f) / (core * core));
        a = a > 1.0f ? 1.0f : a;
        s[y * N + x] = s[y * N + x] + (255.0f - s[y * N + x]) * a;
      }
}

/* Katua face `card`'s sticker text into `text`, sampled into `s` with a
 * highlight of `core` modules at (cx, cy). */
static void
highlighted_face (int card, unsigned *rng, float cx, float cy, float core, char text[ENG_STICKER_TEXT_LEN + 1],
                  float *s)
{
  char tag[16];
  face_tag (card, tag);
  sticker_text (tag, text);
  samples_of (text, rng, s);
  highlight (s, cx, cy, core);
}

static VisQrDecodeStatus
decode (const float *s, Taker *t, VisQrDecodeInfo *info)
{
  VisQrReading rd;
  vis_qr_classify (s, NULL, 250.0f, &rd);
  memset (t, 0, sizeof *t);
  t->printing = test_printing ();
  return vis_qr_decode (&rd, take_sealed, t, info);
}

Test (qrdecode, reads_clean_stickers_of_every_kind)
{
  static const char *const tags[] = { "TB1K01F001W", "TB1K01B0010", "TB1K01A0011", "TB1K01S004D",
                                      "TB1K01X0056", "TB1C01F0162", "TB1E01F0019" };
  unsigned rng = 3;
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
    {
      char text[ENG_STICKER_TEXT_LEN + 1];
      sticker_text (tags[i], text);
      float s[VIS_QRD_MODULES];
      samples_of (text, &rng, s);
      Taker t;
      VisQrDecodeInfo info;
      cr_assert_eq (decode (s, &t, &info), VIS_QRD_OK, "%s", tags[i]);
      cr_assert_str_eq (t.taken, text);
      cr_assert_eq (info.errors + info.erasures, 0);
    }
}

/* A highlight over a finder, the format bits beside it and the data next
 * to it, on each corner and over the middle: the saturated modules are
 * erasures, and level Q holds twice as many of those as of errors. */
Test (qrdecode, reads_through_a_highlight_on_finders_format_and_data)
{
  static const float spots[][2] = { { 3.5f, 3.5f }, { 17.5f, 3.5f }, { 3.5f, 17.5f }, { 10.5f, 10.5f },
                                     { 15.5f, 15.5f }, { 8.5f, 4.5f }, { 4.5f, 9.5f } };
  unsigned rng = 5;
  int read = 0, total = 0;
  for (int card = 1; card <= 20; card++)
    for (size_t k = 0; k < sizeof spots / sizeof spots[0]; k++)
      {
        char text[ENG_STICKER_TEXT_LEN + 1];
        float s[VIS_QRD_MODULES];
        highlighted_face (card, &rng, spots[k][0], spots[k][1], 2.5f, text, s);
        Taker t;
        VisQrDecodeStatus st = decode (s, &t, NULL);
        total++;
        if (st == VIS_QRD_OK)
          {
            cr_assert_str_eq (t.taken, text);
            read++;
          }
      }
  cr_expect_eq (read, total, "read %d of %d through a 5-module highlight", read, total);
}

/* The same highlight, larger: saturated modules taken as erasures read far
 * more codes than the same samples taken at their face value (as a reader
 * that only sees black and white does). */
Test (qrdecode, erasures_read_more_than_errors_would)
{
  unsigned rng = 9;
  int read = 0, read_plain = 0, total = 0;
  for (int card = 1; card <= 30; card++)
    {
      char text[ENG_STICKER_TEXT_LEN + 1];
      float s[VIS_QRD_MODULES];
      highlighted_face (card, &rng, 14.5f, 14.5f, 3.4f, text, s);
      Taker t;
      total++;
      if (decode (s, &t, NULL) == VIS_QRD_OK)
        {
          cr_assert_str_eq (t.taken, text);
          read++;
        }
      VisQrReading rd;
      vis_qr_classify (s, NULL, INFINITY, &rd);
      memset (&t, 0, sizeof t);
      t.printing = test_printing ();
      if (vis_qr_decode (&rd, take_sealed, &t, NULL) == VIS_QRD_OK)
        {
          cr_assert_str_eq (t.taken, text);
          read_plain++;
        }
    }
  cr_expect_geq (read, total * 8 / 10, "read %d of %d", read, total);
  cr_expect_gt (read, read_plain + total / 4, "erasures read %d, plain %d", read, read_plain);
}

/* Modules flipped at random, from a few to half the code: read while level
 * Q can, refused after, and never another sticker. */
Test (qrdecode, flipped_modules_give_the_sticker_or_nothing)
{
  unsigned rng = 13;
  int read_light = 0;
  for (int flips = 2; flips <= 200; flips += 6)
    for (int t = 0; t < 12; t++)
      {
        char tag[16], text[ENG_STICKER_TEXT_LEN + 1];
        face_tag (1 + (int) (rnd (&rng) % 108), tag);
        sticker_text (tag, text);
        float s[VIS_QRD_MODULES];
        samples_of (text, &rng, s);
        int pos[200];
        positions (&rng, pos, flips, VIS_QRD_MODULES);
        for (int k = 0; k < flips; k++)
          s[pos[k]] = s[pos[k]] < 128 ? 215.0f : 40.0f;
        Taker taker;
        if (decode (s, &taker, NULL) == VIS_QRD_OK)
          {
            cr_assert_str_eq (taker.taken, text, "%d flips read as another sticker", flips);
            read_light += flips <= 8;
          }
      }
  cr_expect_geq (read_light, 20, "few flips should be corrected (%d of 24)", read_light);
}

/* Two stickers blended into one grid (a card half over another, a misplaced
 * grid): one of the two, or nothing, never a third. */
Test (qrdecode, two_stickers_in_one_grid_give_one_of_them_or_nothing)
{
  unsigned rng = 17;
  for (int t = 0; t < 200; t++)
    {
      char ta[16], tb[16], a[ENG_STICKER_TEXT_LEN + 1], b[ENG_STICKER_TEXT_LEN + 1];
      int ca = 1 + (int) (rnd (&rng) % 108), cb = 1 + (ca + (int) (rnd (&rng) % 100)) % 108;
      face_tag (ca, ta);
      face_tag (cb, tb);
      sticker_text (ta, a);
      sticker_text (tb, b);
      float sa[VIS_QRD_MODULES], sb[VIS_QRD_MODULES];
      samples_of (a, &rng, sa);
      samples_of (b, &rng, sb);
      int split = 3 + (int) (rnd (&rng) % 15);
      for (int i = 0; i < VIS_QRD_MODULES; i++)
        if ((t % 2 ? i % N : i / N) >= split)
          sa[i] = sb[i];
      Taker taker;
      if (decode (sa, &taker, NULL) == VIS_QRD_OK)
        cr_assert (strcmp (taker.taken, a) == 0 || strcmp (taker.taken, b) == 0,
                   "%s blended with %s read as %s", a, b, taker.taken);
    }
}

/* Forged seals, another table's stickers, the old unsealed format and a
 * foreign text all decode as QR codes and are all refused. */
Test (qrdecode, forged_foreign_and_old_stickers_are_decoded_and_refused)
{
  char tag[16], text[ENG_STICKER_TEXT_LEN + 1];
  face_tag (42, tag);
  sticker_text (tag, text);
  char forged[ENG_STICKER_TEXT_LEN + 1];
  memcpy (forged, text, sizeof forged);
  forged[15] = forged[15] == 'A' ? 'B' : 'A';
  uint8_t key[ENG_PRINTING_KEY_LEN];
  memcpy (key, test_printing_key, sizeof key);
  key[3] ^= 1;
  char seal[ENG_SEAL_LEN + 1], other[ENG_STICKER_TEXT_LEN + 1];
  cr_assert_eq (eng_seal_compute (key, sizeof key, tag, seal), ENG_OK);
  memcpy (other, tag, ENG_TAG_PAYLOAD_LEN);
  memcpy (other + ENG_TAG_PAYLOAD_LEN, seal, ENG_SEAL_LEN + 1);
  char junk_seal[ENG_STICKER_TEXT_LEN + 1];
  memcpy (junk_seal, tag, ENG_TAG_PAYLOAD_LEN);
  memcpy (junk_seal + ENG_TAG_PAYLOAD_LEN, "XXXXX", ENG_SEAL_LEN + 1);
  const char *const texts[] = { forged, other, tag, "HTTP://A.BC/X", junk_seal };
  unsigned rng = 19;
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
    for (int glare = 0; glare < 2; glare++)
      {
        float s[VIS_QRD_MODULES];
        samples_of (texts[i], &rng, s);
        if (glare)
          highlight (s, 12.5f, 12.5f, 2.5f);
        Taker t;
        VisQrDecodeStatus st = decode (s, &t, NULL);
        cr_assert_eq (st, VIS_QRD_REFUSED, "'%s': %s", texts[i], vis_qr_decode_status_to_string (st));
        cr_assert_gt (t.n_offered, 0);
        cr_assert_eq (t.n_taken, 0);
      }
}

/* Grids with nothing in them (blank paper, noise, card art): no text at
 * all, let alone a sticker. */
Test (qrdecode, noise_and_blank_grids_read_nothing)
{
  unsigned rng = 23;
  for (int t = 0; t < 300; t++)
    {
      float s[VIS_QRD_MODULES];
      for (int i = 0; i < VIS_QRD_MODULES; i++)
        s[i] = t % 3 == 0 ? 200.0f + (float) (rnd (&rng) % 9) : (float) (rnd (&rng) % 256);
      Taker taker;
      cr_assert_neq (decode (s, &taker, NULL), VIS_QRD_OK);
      cr_assert_eq (taker.n_taken, 0);
    }
}

/* An over-exposed sticker (the paper itself at 255): saturation is not
 * taken for a highlight then. */
Test (qrdecode, over_exposed_paper_is_not_a_highlight)
{
  char tag[16], text[ENG_STICKER_TEXT_LEN + 1];
  face_tag (7, tag);
  sticker_text (tag, text);
  unsigned rng = 29;
  float s[VIS_QRD_MODULES];
  samples_of (text, &rng, s);
  for (int i = 0; i < VIS_QRD_MODULES; i++)
    if (s[i] > 128)
      s[i] = 255.0f;
  Taker t;
  cr_assert_eq (decode (s, &t, NULL), VIS_QRD_OK);
  cr_assert_str_eq (t.taken, text);
}


/* A highlight too large for level Q alone over the lower right corner,
 * where a sticker's first codewords lie: with the set's first characters
 * known ("TB1K01"), those codewords cost nothing and the code reads; a
 * code of another set or a forgery forced into that shape is still
 * refused. */
Test (qrdecode, known_first_characters_read_past_a_large_highlight)
{
  unsigned rng = 31;
  int plain = 0, expecting = 0, total = 0;
  for (int card = 1; card <= 30; card++)
    {
      char text[ENG_STICKER_TEXT_LEN + 1];
      float s[VIS_QRD_MODULES];
      highlighted_face (card, &rng, 15.5f, 15.5f, 3.8f, text, s);
      VisQrReading rd;
      vis_qr_classify (s, NULL, 250.0f, &rd);
      Taker t = { .printing = test_printing () };
      total++;
      if (vis_qr_decode (&rd, take_sealed, &t, NULL) == VIS_QRD_OK)
        plain++;
      memset (&t, 0, sizeof t);
      t.printing = test_printing ();
      if (vis_qr_decode_expecting (&rd, "TB1K01", ENG_STICKER_TEXT_LEN, take_sealed, &t, NULL) == VIS_QRD_OK)
        {
          cr_assert_str_eq (t.taken, text);
          expecting++;
        }
      /* the wrong set's prefix forces wrong codewords: never another card */
      memset (&t, 0, sizeof t);
      t.printing = test_printing ();
      if (vis_qr_decode_expecting (&rd, "TB1E01", ENG_STICKER_TEXT_LEN, take_sealed, &t, NULL) == VIS_QRD_OK)
        cr_assert_str_eq (t.taken, text);
    }
  cr_log_info ("a 7.6-module highlight: %d of %d read plain, %d with the set known", plain, total, expecting);
  cr_expect_gt (expecting, plain + total / 5, "%d with the set known, %d plain", expecting, plain);
}
