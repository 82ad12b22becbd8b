/* vis-qr: version 1, level Q, alphanumeric; refuses what does not fit; the
 * modules decode with an independent decoder (zbarimg). */
#include <cairo.h>
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "eng-tag.h"
#include "sticker-test-util.h"
#include "vis-qr.h"
#include "vis-sticker.h"

static char *
real_payload (char game, const char *set, EngTagKind kind, unsigned serial)
{
  EngTag tag = { .game = game, .kind = kind, .serial = (uint16_t) serial };
  memcpy (tag.set, set, 3);
  char buf[ENG_TAG_PAYLOAD_LEN + 1];
  cr_assert_eq (eng_tag_format (&tag, buf), ENG_OK);
  return g_strdup (buf);
}

/* The 15 format bits next to the top-left finder (ISO 18004 7.9), unmasked:
 * bits 0-5 down column 8, then (8,7), (8,8), (7,8), bits 9-14 leftwards
 * along row 8. */
static unsigned
format_bits (const VisQrModules *qr)
{
  static const int pos[15][2] = {
    { 8, 0 }, { 8, 1 }, { 8, 2 }, { 8, 3 }, { 8, 4 }, { 8, 5 }, { 8, 7 }, { 8, 8 },
    { 7, 8 }, { 5, 8 }, { 4, 8 }, { 3, 8 }, { 2, 8 }, { 1, 8 }, { 0, 8 },
  };
  unsigned bits = 0;
  for (int i = 0; i < 15; i++)
    if (vis_qr_module_dark (qr, pos[i][0], pos[i][1]))
      bits |= 1u << i;
  return bits ^ 0x5412;
}

/* Remainder of the BCH(15,5) code (generator 0x537): 0 for a valid word. */
static unsigned
bch_remainder (unsigned word)
{
  for (int bit = 14; bit >= 10; bit--)
    if (word & (1u << bit))
      word ^= 0x537u << (bit - 10);
  return word;
}

Test (vis_qr, payload_is_version_1_level_q)
{
  g_autofree char *payload = real_payload ('K', "01", ENG_TAG_FACE, 42);
  VisQrModules qr;
  cr_assert_eq (vis_qr_encode (payload, strlen (payload), &qr), ENG_OK);
  cr_assert_eq (qr.size, 21, "version 1 is 21 modules wide, got %d", qr.size);
  /* The finder pattern's outer ring in the top-left corner. */
  for (int i = 0; i < 7; i++)
    {
      cr_assert (vis_qr_module_dark (&qr, i, 0) && vis_qr_module_dark (&qr, 0, i));
      cr_assert (vis_qr_module_dark (&qr, i, 6) && vis_qr_module_dark (&qr, 6, i));
    }
  cr_assert (!vis_qr_module_dark (&qr, 1, 1));
  unsigned format = format_bits (&qr);
  cr_assert_eq (bch_remainder (format), 0, "format bits 0x%04x are not a BCH word", format);
  cr_assert_eq (format >> 13, 3u, "error correction level bits %u, Q is 3", format >> 13);
}

Test (vis_qr, sixteen_alphanumerics_fit_and_seventeen_do_not)
{
  VisQrModules qr;
  cr_assert_eq (vis_qr_encode ("0123456789ABCDEF", 16, &qr), ENG_OK);
  cr_assert_eq (qr.size, VIS_QR_SIZE);

  VisQrModules untouched;
  memset (&untouched, 0x5a, sizeof untouched);
  VisQrModules out = untouched;
  cr_assert_eq (vis_qr_encode ("0123456789ABCDEFG", 17, &out), ENG_ERR_LIMIT);
  cr_assert (memcmp (&out, &untouched, sizeof out) == 0, "refused output was written");
}

Test (vis_qr, refuses_what_is_not_qr_alphanumeric)
{
  VisQrModules untouched;
  memset (&untouched, 0x5a, sizeof untouched);
  VisQrModules out = untouched;
  cr_assert_eq (vis_qr_encode ("tb1k01f042c", 11, &out), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_qr_encode ("TB1K\0" "01F042", 11, &out), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_qr_encode ("TB1K_01F042", 11, &out), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_qr_encode ("", 0, &out), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_qr_encode (NULL, 3, &out), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_qr_encode ("ABC", 3, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert (memcmp (&out, &untouched, sizeof out) == 0, "refused output was written");
}

Test (vis_qr, outside_the_symbol_is_light)
{
  VisQrModules qr;
  cr_assert_eq (vis_qr_encode ("TB1", 3, &qr), ENG_OK);
  cr_assert (vis_qr_module_dark (&qr, 0, 0));
  cr_assert (!vis_qr_module_dark (&qr, -1, 0));
  cr_assert (!vis_qr_module_dark (&qr, 0, 21));
  cr_assert (!vis_qr_module_dark (&qr, 21, 20));
  cr_assert (!vis_qr_module_dark (NULL, 0, 0));
}

/* Paints the bare modules (no sticker around them) at `px` pixels a module
 * with a 4-module quiet zone, as the synthetic renderer would. */
static void
write_modules_png (const VisQrModules *qr, int px, const char *path)
{
  int side = (qr->size + 8) * px;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, side, side);
  cairo_t *cr = cairo_create (s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  vis_sticker_draw_modules (cr, 4 * px, 4 * px, px, qr);
  cairo_destroy (cr);
  cr_assert_eq (cairo_surface_write_to_png (s, path), CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
}

Test (vis_qr, modules_decode_with_zbarimg)
{
  g_autofree char *dir = st_tmpdir ();
  cr_assert_not_null (dir);
  const char *payloads[4];
  char *owned[4];
  payloads[0] = owned[0] = real_payload ('K', "01", ENG_TAG_FACE, 1);
  payloads[1] = owned[1] = real_payload ('C', "01", ENG_TAG_BACK, 1);
  payloads[2] = owned[2] = real_payload ('E', "Z9", ENG_TAG_COMMAND, 999);
  payloads[3] = owned[3] = g_strdup ("0123456789ABCDEF");
  static const int px[4] = { 4, 3, 8, 5 };

  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  for (int i = 0; i < 4; i++)
    {
      VisQrModules qr;
      cr_assert_eq (vis_qr_encode (payloads[i], strlen (payloads[i]), &qr), ENG_OK);
      char name[32];
      snprintf (name, sizeof name, "qr-%d.png", i);
      char *path = g_build_filename (dir, name, NULL);
      write_modules_png (&qr, px[i], path);
      g_ptr_array_add (paths, path);
    }
  GPtrArray *decoded = st_zbar_decode (ZBARIMG, paths);
  cr_assert_not_null (decoded, "zbarimg did not run");
  for (int i = 0; i < 4; i++)
    {
      GPtrArray *found = decoded->pdata[i];
      cr_assert_eq (found->len, 1, "%s at %d px/module: %u codes decoded", payloads[i], px[i],
                    found->len);
      cr_assert_str_eq (found->pdata[0], payloads[i]);
    }
  g_ptr_array_unref (decoded);
  g_ptr_array_unref (paths);
  for (int i = 0; i < 4; i++)
    g_free (owned[i]);
  st_rm_rf (dir);
}
