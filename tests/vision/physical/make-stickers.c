/* make-stickers: the sticker images the physically based test table
 * (render-table.py, run under Blender) lays on its cards.
 *
 *   make-stickers OUTDIR SPEC...
 *
 * SPEC is a game letter, set id, kind letter and serial without the check
 * character ("K01F034", "K01B001", "K01A002") for a sticker of the tests'
 * printing (scene-util.h: every bundled set sealed with one fixed key), or
 * "forged:K01F034" (the same tag sealed with another key: a sticker of
 * another table), or "old:K01F034" (the bare 11-character tag of the
 * unsealed format 1).  Each is drawn by the project's own sticker code
 * (vis_sticker_draw: code, quiet zone, label strip, as printed) at 20 px per
 * mm, 40 mm wide, into OUTDIR/SPEC.png (':' becomes '-'), and one line per
 * sticker goes to stdout:
 *
 *   SPEC FILE TAG WIDTH_MM HEIGHT_MM QUIET_MODULES MODULE_MM
 *
 * TAG is the card's 11-character identity, what a reader must report (or
 * "-" for a sticker no reader may take).  Exit 2 on any error. */
#include <cairo.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-printing.h"
#include "eng-tag.h"
#include "scene-util.h"
#include "vis-sticker.h"

#define PX_PER_MM 20.0
#define WIDTH_MM 40.0

static int
fail (const char *what, const char *spec)
{
  fprintf (stderr, "make-stickers: %s: %s\n", spec, what);
  return 2;
}

static EngPrinting *
forger (const EngPrinting *real, const EngTag *tag)
{
  (void) real;
  const char *datadir = getenv ("TABLERO_DATADIR");
  if (datadir == NULL)
    return NULL;
  static const uint8_t other_key[ENG_PRINTING_KEY_LEN] = { 0x0f, 0x0e, 0x0d, 0x0c, 0x99 };
  /* every game's set in the data: the one printed with the tag's letter */
  g_autofree char *cards = g_build_filename (datadir, "cards", NULL);
  g_autoptr (GDir) dir = g_dir_open (cards, 0, NULL);
  for (const char *name; dir != NULL && (name = g_dir_read_name (dir)) != NULL;)
    {
      if (!g_str_has_suffix (name, ".set"))
        continue;
      g_autofree char *path = g_build_filename (cards, name, NULL);
      EngCardSet *set = NULL;
      EngParseError err = { 0 };
      if (eng_card_set_load_file (path, &set, &err) != ENG_OK)
        return NULL;
      EngPrinting *p = NULL;
      if (eng_printing_new (set, other_key, &p) == ENG_OK && eng_printing_has_set (p, tag->game, tag->set))
        {
          eng_card_set_free (set);
          return p;
        }
      eng_printing_free (p);
      eng_card_set_free (set);
    }
  return NULL;
}

/* Draws one sticker into a PNG; returns 0 or 2. */
static int
draw (const char *dir, const char *spec, const char *text, const char *tag_text)
{
  VisStickerText st;
  memset (&st, 0, sizeof st);
  snprintf (st.payload, sizeof st.payload, "%s", text);
  snprintf (st.title, sizeof st.title, "%s", tag_text[0] == '-' ? "Sticker" : "Card");
  snprintf (st.body, sizeof st.body, "%s", spec);
  VisStickerGeometry g;
  if (vis_sticker_geometry (WIDTH_MM, 1, &g) != ENG_OK)
    return fail ("no geometry", spec);
  int w = (int) (g.width * PX_PER_MM + 0.5), h = (int) (g.height * PX_PER_MM + 0.5);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, PX_PER_MM, PX_PER_MM);
  EngStatus status = vis_sticker_draw (cr, 0, 0, &g, &st);
  cairo_destroy (cr);
  char name[64], path[2048];
  snprintf (name, sizeof name, "%s.png", spec);
  for (char *c = name; *c; c++)
    if (*c == ':')
      *c = '-';
  snprintf (path, sizeof path, "%s/%s", dir, name);
  int rc = 0;
  if (status != ENG_OK)
    rc = fail ("the sticker code refused it", spec);
  else if (cairo_surface_write_to_png (s, path) != CAIRO_STATUS_SUCCESS)
    rc = fail ("cannot write the PNG", path);
  else
    printf ("%s %s %s %.3f %.3f %d %.4f\n", spec, name, tag_text, g.width, g.height, g.quiet_modules,
            g.module);
  cairo_surface_destroy (s);
  return rc;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: make-stickers OUTDIR SPEC...\n");
      return 2;
    }
  const EngPrinting *printing = test_printing ();
  for (int i = 2; i < argc; i++)
    {
      const char *spec = argv[i], *body = spec;
      int forged = strncmp (spec, "forged:", 7) == 0, old = strncmp (spec, "old:", 4) == 0;
      body += forged ? 7 : old ? 4 : 0;
      if (strlen (body) != 7)
        return fail ("not GAME SET KIND SERIAL (K01F034)", spec);
      char tag_text[ENG_TAG_PAYLOAD_LEN + 1];
      snprintf (tag_text, sizeof tag_text, "TB1%s", body);
      tag_text[10] = eng_tag_check_char (tag_text, 10);
      tag_text[11] = '\0';
      EngTag tag;
      if (eng_tag_parse (tag_text, ENG_TAG_PAYLOAD_LEN, &tag) != ENG_OK)
        return fail ("not a tag", spec);
      char text[ENG_STICKER_TEXT_LEN + 1];
      int rc;
      if (old)
        rc = draw (argv[1], spec, tag_text, "-");
      else if (forged)
        {
          EngPrinting *other = forger (printing, &tag);
          if (other == NULL || eng_printing_sticker_text (other, &tag, text) != ENG_OK)
            rc = fail ("no such sticker", spec);
          else
            rc = draw (argv[1], spec, text, "-");
          eng_printing_free (other);
        }
      else if (eng_printing_sticker_text (printing, &tag, text) != ENG_OK)
        rc = fail ("no such sticker in the bundled sets", spec);
      else
        rc = draw (argv[1], spec, text, tag_text);
      if (rc != 0)
        return rc;
    }
  return 0;
}
