/* Scene parser: good scenes, malformed lines (line + reason), junk. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "vis-render.h"

static char *
data_path (const char *rel)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set by meson");
  char *p = malloc (strlen (dir) + strlen (rel) + 2);
  sprintf (p, "%s/%s", dir, rel);
  return p;
}

static VisScene *
parse_ok (const char *text)
{
  VisScene *s = NULL;
  EngParseError err = { 0 };
  EngStatus st = vis_scene_parse (text, strlen (text), "t.scene", &s, &err);
  cr_assert_eq (st, ENG_OK, "unexpected error: line %u: %s", err.line, err.reason);
  cr_assert_not_null (s);
  return s;
}

Test (scene, defaults_and_settings)
{
  VisScene *s = parse_ok ("# only a comment\n\n"
                          "image width=640 height=480 fps=5 duration=2.1 seed=9 format=jpg\n"
                          "table width=500 height=300 colour=#112233   # trailing comment\n"
                          "card c1 face=3 back=1 at=100,100\n");
  cr_assert_eq (vis_scene_width (s), 640);
  cr_assert_eq (vis_scene_height (s), 480);
  cr_assert_float_eq (vis_scene_fps (s), 5.0, 1e-9);
  cr_assert_eq (vis_scene_n_frames (s), 11);
  cr_assert_eq (vis_scene_seed (s), 9);
  cr_assert_str_eq (vis_scene_file_format (s), "jpg");
  cr_assert_not (vis_scene_needs_card_set (s));
  cr_assert_null (vis_scene_game (s));
  vis_scene_free (s);

  s = parse_ok ("card c1 face=3 back=1 at=1,2\n");
  cr_assert_eq (vis_scene_width (s), 1920);
  cr_assert_eq (vis_scene_height (s), 1080);
  cr_assert_str_eq (vis_scene_file_format (s), "png");
  vis_scene_free (s);
}

Test (scene, bundled_scenes_parse)
{
  static const char *const names[] = {
    "scenes/demo-katua.scene", "scenes/cards-10.scene", "scenes/cards-20.scene",
    "scenes/cards-40.scene", "scenes/occlusion.scene", "scenes/camera-nudge.scene",
    "scenes/foreign-codes.scene", "scenes/duplicate.scene",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      char *path = data_path (names[i]);
      VisScene *s = NULL;
      EngParseError err = { 0 };
      EngStatus st = vis_scene_load_file (path, &s, &err);
      cr_assert_eq (st, ENG_OK, "%s: %s:%u: %s", names[i], err.source, err.line, err.reason);
      cr_assert_not (vis_scene_needs_card_set (s), "%s names every serial and back", names[i]);
      vis_scene_free (s);
      free (path);
    }
}

typedef struct {
  const char *text;
  EngStatus status;
  unsigned line;
  const char *reason_part;
} BadCase;

Test (scene, malformed_lines_give_line_and_reason)
{
  static const BadCase cases[] = {
    { "image width=abc\n", ENG_ERR_SYNTAX, 1, "not a number" },
    { "\n\nimage width=10\n", ENG_ERR_SYNTAX, 3, "out of range" },
    { "camera tilt=80\n", ENG_ERR_SYNTAX, 1, "out of range" },
    { "bogus x=1\n", ENG_ERR_UNKNOWN_ATTRIBUTE, 1, "unknown keyword 'bogus'" },
    { "table wobble=3\n", ENG_ERR_UNKNOWN_ATTRIBUTE, 1, "unknown key 'wobble'" },
    { "table colour=green\n", ENG_ERR_SYNTAX, 1, "#RRGGBB" },
    { "card c1 face=3 at=1\n", ENG_ERR_SYNTAX, 1, "point" },
    { "card c1 at=1,2\n", ENG_ERR_SYNTAX, 1, "face=" },
    { "card c1 face=3\n", ENG_ERR_SYNTAX, 1, "at=" },
    { "card c1 face=1000 at=1,1\n", ENG_ERR_SYNTAX, 1, "out of range" },
    { "card c1 face=2.5 at=1,1\n", ENG_ERR_SYNTAX, 1, "whole number" },
    { "card c1 face=3 at=1,1\ncard c1 face=4 at=2,2\n", ENG_ERR_DUPLICATE_ID, 2, "already used" },
    { "card c/1 face=3 at=1,1\n", ENG_ERR_SYNTAX, 1, "bad id" },
    { "card c1 face=3 at=1,1 sideways\n", ENG_ERR_UNKNOWN_ATTRIBUTE, 1, "unknown flag" },
    { "at 1 flip c9\n", ENG_ERR_NOT_FOUND, 1, "unknown object 'c9'" },
    { "card c1 face=3 at=1,1\nat x flip c1\n", ENG_ERR_SYNTAX, 2, "not a number" },
    { "card c1 face=3 at=1,1\nat 1 juggle c1\n", ENG_ERR_UNKNOWN_ATTRIBUTE, 2, "unknown action" },
    { "card c1 face=3 at=1,1\nat 1 move c1\n", ENG_ERR_SYNTAX, 2, "to=" },
    { "at 1 hand from=1,1\n", ENG_ERR_SYNTAX, 1, "for=" },
    { "anchor a1 number=1 at=1,1\nat 1 flip a1\n", ENG_ERR_SYNTAX, 2, "only cards" },
    { "foreign f1 text=\"abc at=1,1\n", ENG_ERR_SYNTAX, 1, "unterminated" },
    { "tags game=KK\n", ENG_ERR_SYNTAX, 1, "one letter" },
    { "degrade jpeg=101\n", ENG_ERR_SYNTAX, 1, "out of range" },
    { "image format=gif\n", ENG_ERR_SYNTAX, 1, "png or jpg" },
    { "=3\n", ENG_ERR_SYNTAX, 1, "without a key" },
    { "width=3\n", ENG_ERR_SYNTAX, 1, "keyword" },
    { "sticker size=100\n", ENG_ERR_INCONSISTENT, 0, "larger than the card" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      const BadCase *c = &cases[i];
      VisScene *s = (VisScene *) 0x1;
      EngParseError err = { 0 };
      EngStatus st = vis_scene_parse (c->text, strlen (c->text), "bad.scene", &s, &err);
      cr_expect_eq (st, c->status, "case %zu (%s): status %s", i, c->text, eng_status_to_string (st));
      cr_expect_null (s, "case %zu: *out must be NULL on error", i);
      cr_expect_eq (err.line, c->line, "case %zu (%s): line %u", i, c->text, err.line);
      cr_expect_str_eq (err.source, "bad.scene");
      cr_expect (strstr (err.reason, c->reason_part) != NULL, "case %zu: reason '%s' lacks '%s'",
                 i, err.reason, c->reason_part);
    }
}

Test (scene, nul_bytes_and_long_lines_refused)
{
  const char text[] = "image width=640\ncard c1 face=3\0 at=1,1\n";
  VisScene *s = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (vis_scene_parse (text, sizeof text - 1, "n", &s, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (err.line, 2);
  cr_assert (strstr (err.reason, "NUL") != NULL);

  size_t n = 10000;
  char *long_line = malloc (n + 1);
  memset (long_line, 'a', n);
  long_line[n] = '\0';
  cr_assert_eq (vis_scene_parse (long_line, n, "l", &s, &err), ENG_ERR_SYNTAX);
  cr_assert (strstr (err.reason, "longer") != NULL);
  free (long_line);
}

Test (scene, missing_file_is_io_error)
{
  VisScene *s = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (vis_scene_load_file ("/nonexistent/x.scene", &s, &err), ENG_ERR_IO);
  cr_assert_null (s);
  cr_assert (strstr (err.reason, "cannot open") != NULL);
}

/* Junk and every truncation of a real scene: never a crash; either a scene
 * or an error that names a line. */
Test (scene, junk_and_truncations_do_not_crash)
{
  char *path = data_path ("scenes/demo-katua.scene");
  FILE *f = fopen (path, "rb");
  cr_assert_not_null (f);
  static char text[65536];
  size_t len = fread (text, 1, sizeof text, f);
  fclose (f);
  free (path);
  unsigned ok = 0, refused = 0;
  for (size_t cut = 0; cut <= len; cut += 7)
    {
      VisScene *s = NULL;
      EngParseError err = { 0 };
      EngStatus st = vis_scene_parse (text, cut, "cut", &s, &err);
      if (st == ENG_OK)
        {
          ok++;
          vis_scene_free (s);
        }
      else
        {
          refused++;
          cr_expect_null (s);
          cr_expect_neq (err.reason[0], '\0', "a refusal says why (cut at %zu)", cut);
        }
    }
  cr_expect_gt (ok, 0);
  cr_expect_gt (refused, 0, "cutting inside words must be refused sometimes");

  uint64_t x = 12345;
  char junk[512];
  for (int round = 0; round < 300; round++)
    {
      size_t n = (size_t) (round % 512);
      for (size_t i = 0; i < n; i++)
        {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          /* mostly printable with some structure, sometimes any byte */
          static const char alphabet[] = "card at=,.0123456789 #\"\n=-cx camera hand move ";
          junk[i] = (round % 3 == 0) ? (char) (x >> 56)
                                     : alphabet[(x >> 40) % (sizeof alphabet - 1)];
        }
      VisScene *s = NULL;
      EngParseError err = { 0 };
      if (vis_scene_parse (junk, n, "junk", &s, &err) == ENG_OK)
        vis_scene_free (s);
    }
}

Test (scene, resolve_cards_by_type_with_the_card_set)
{
  VisScene *s = parse_ok ("game katua\n"
                          "card c1 type=cat-red-3 at=100,100\n"
                          "card c2 face=35 at=200,100 down\n"
                          "card c3 type=cat-red-1 copy=2 at=300,100\n");
  cr_assert (vis_scene_needs_card_set (s));
  cr_assert_str_eq (vis_scene_game (s), "katua");
  VisRenderer *r = NULL;
  cr_assert_eq (vis_renderer_new (s, 0, &r), ENG_ERR_STATE);
  cr_assert_null (r);

  char *path = data_path ("cards/katua.set");
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  free (path);
  cr_assert_eq (vis_scene_resolve (s, set, &err), ENG_OK, "%s", err.reason);
  cr_assert_not (vis_scene_needs_card_set (s));

  /* The resolved payloads show in the ground truth. */
  cr_assert_eq (vis_renderer_new (s, 0, &r), ENG_OK);
  VisImage img = { 1920, 1080, 1920, VIS_PIXEL_GRAY8, malloc (1920 * 1080) };
  VisTruth *truth = malloc (sizeof *truth);
  cr_assert_eq (vis_renderer_render (r, 0, &img, truth), ENG_OK);
  const EngCard *red3 = NULL, *red1b = NULL;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      if (strcmp (c->type_id, "cat-red-3") == 0)
        red3 = c;
      if (strcmp (c->type_id, "cat-red-1") == 0 && c->copy == 2)
        red1b = c;
    }
  cr_assert_not_null (red3);
  cr_assert_not_null (red1b);
  bool seen1 = false, seen2 = false, seen3 = false;
  for (unsigned i = 0; i < truth->n_tags; i++)
    {
      EngTag tag;
      const VisTruthTag *t = &truth->tags[i];
      cr_assert_eq (eng_tag_parse (t->payload, strlen (t->payload), &tag), ENG_OK, "%s", t->payload);
      EngTagMeaning m;
      cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_OK, "%s", t->payload);
      if (strcmp (t->id, "c1") == 0)
        seen1 = m.card == red3;
      if (strcmp (t->id, "c2") == 0)
        seen2 = tag.kind == ENG_TAG_BACK && m.deck != NULL && strcmp (m.deck->id, "ufo") == 0;
      if (strcmp (t->id, "c3") == 0)
        seen3 = m.card == red1b;
    }
  cr_assert (seen1 && seen2 && seen3);
  free (truth);
  free (img.data);
  vis_renderer_free (r);

  VisScene *bad = parse_ok ("game katua\ncard c1 type=cat-purple-9 at=1,1\n");
  err = (EngParseError) { 0 };
  cr_assert_eq (vis_scene_resolve (bad, set, &err), ENG_ERR_NOT_FOUND);
  cr_assert_eq (err.line, 2);
  vis_scene_free (bad);
  bad = parse_ok ("tags game=C\ncard c1 type=cat-red-3 at=1,1\n");
  cr_assert_eq (vis_scene_resolve (bad, set, &err), ENG_ERR_INCONSISTENT);
  vis_scene_free (bad);
  eng_card_set_free (set);
  vis_scene_free (s);
}

Test (scene, errors_escape_terminal_escapes)
{
  static const char *const texts[] = {
    "\x1b[2Jbogus x=1\n",
    "table \x1b]0;title\x07=3\n",
    "card c1 face=3 at=1,1 \x9b" "31m\n",
    "image format=\x1b[5mgif\n",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
    {
      VisScene *s = NULL;
      EngParseError err = { 0 };
      cr_assert_neq (vis_scene_parse (texts[i], strlen (texts[i]), "esc.scene", &s, &err), ENG_OK);
      for (const unsigned char *p = (const unsigned char *) err.reason; *p; p++)
        cr_assert (*p >= 0x20 && *p != 0x7f && *p != 0x9b, "case %zu: byte 0x%02x in '%s'", i, *p,
                   err.reason);
      cr_expect (strstr (err.reason, "\\x") != NULL, "case %zu: reason '%s' hides the bad byte", i,
                 err.reason);
    }
}
