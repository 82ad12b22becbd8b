/* The proof that printed sheets work: for each game, `tablero-cli stickers`
 * writes a PDF, poppler renders it (pdftoppm), an independent decoder
 * (zbarimg) reads every sticker, and what it reads must be exactly the set's
 * stickers: each card face once, with the meaning and label the set gives
 * it, each deck's backs as many times as the deck has cards, every anchor,
 * seat and command; `tablero-cli tag` must accept all of them.
 *
 * zbar misses some codes when a page holds a grid of many, so each sticker is
 * cropped out (where vis_sheet_place() says it is, with a margin) and decoded
 * alone: that also proves each code sits where its outline is. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-printing.h"
#include "eng-tag.h"
#include "prt-store.h"
#include "sticker-test-util.h"
#include "vis-set-stickers.h"
#include "vis-sheet.h"

typedef struct {
  const char *game;
  const char *size_mm;
  const char *paper;
  int dpi;
} ProofCase;

static char *
normalise_space (const char *s)
{
  GString *out = g_string_new (NULL);
  bool space = false;
  for (; *s != '\0'; s++)
    {
      if (g_ascii_isspace (*s))
        space = out->len > 0;
      else
        {
          if (space)
            g_string_append_c (out, ' ');
          space = false;
          g_string_append_c (out, *s);
        }
    }
  return g_string_free (out, FALSE);
}

static int
pdf_pages (const char *pdf)
{
  const char *argv[] = { PDFINFO, pdf, NULL };
  StRun run;
  cr_assert (st_run (argv, NULL, &run) && run.exit_status == 0, "pdfinfo: %s", run.err);
  const char *pages = strstr (run.out, "Pages:");
  cr_assert_not_null (pages);
  int n = atoi (pages + strlen ("Pages:"));
  st_run_clear (&run);
  return n;
}

static void
prove (const ProofCase *pc)
{
  g_autofree char *dir = st_tmpdir ();
  cr_assert_not_null (dir);
  g_autofree char *pdf = g_build_filename (dir, "stickers.pdf", NULL);

  /* 1. The command under test. */
  const char *argv[] = { TABLERO_CLI, "stickers", "--game", pc->game, "--size-mm", pc->size_mm,
                         "--paper", pc->paper, "-o", pdf, NULL };
  StRun run;
  cr_assert (st_run (argv, NULL, &run), "cannot start tablero-cli: %s", run.err);
  cr_assert_eq (run.exit_status, 0, "tablero-cli stickers failed: %s", run.err);
  cr_assert (strstr (run.err, "pages") != NULL, "no summary on stderr: %s", run.err);
  st_run_clear (&run);

  /* 2. The set, read through the engine, and where each sticker should be. */
  const char *datadir = g_getenv ("TABLERO_DATADIR");
  cr_assert_not_null (datadir, "TABLERO_DATADIR is not set");
  g_autofree char *set_name = g_strdup_printf ("%s.set", pc->game);
  g_autofree char *set_path = g_build_filename (datadir, "cards", set_name, NULL);
  EngCardSet *set = NULL;
  EngParseError perr;
  cr_assert_eq (eng_card_set_load_file (set_path, &set, &perr), ENG_OK, "%s:%u: %s",
                perr.source, perr.line, perr.reason);
  /* the table's printing, the one tablero-cli sealed the sheet with */
  g_autoptr (GError) error = NULL;
  EngPrinting *printing = prt_store_printing (set, &error);
  cr_assert_not_null (printing, "%s", error ? error->message : "");
  VisStickerText *texts = NULL;
  size_t n = 0;
  cr_assert_eq (vis_set_sticker_texts (set, printing, &texts, &n, NULL), ENG_OK);
  cr_assert_eq (n, eng_card_set_n_stickers (set));
  VisPaper paper;
  cr_assert_eq (vis_paper_from_string (pc->paper, &paper), ENG_OK);
  VisSheetOptions options = { paper, g_ascii_strtod (pc->size_mm, NULL), NULL };
  VisSheetPlan plan;
  cr_assert_eq (vis_sheet_plan (&options, texts, n, &plan), ENG_OK);
  VisSheetPlacement *at = g_new (VisSheetPlacement, n);
  cr_assert_eq (vis_sheet_place (&options, texts, n, at), ENG_OK);
  cr_assert_eq (pdf_pages (pdf), plan.n_pages);

  /* 3. Render page by page; cut each sticker out with 1.2 mm around it
   * (less than the gap between stickers, so no neighbour intrudes). */
  GPtrArray *crops = g_ptr_array_new_with_free_func (g_free);
  double px = pc->dpi / 25.4;
  for (int page = 0; page < plan.n_pages; page++)
    {
      g_autofree char *dpi = g_strdup_printf ("%d", pc->dpi);
      g_autofree char *num = g_strdup_printf ("%d", page + 1);
      g_autofree char *prefix = g_build_filename (dir, "page", NULL);
      const char *render[] = { PDFTOPPM, "-r", dpi, "-gray", "-f", num, "-l", num,
                               "-singlefile", pdf, prefix, NULL };
      cr_assert (st_run (render, NULL, &run) && run.exit_status == 0, "pdftoppm: %s", run.err);
      st_run_clear (&run);
      g_autofree char *pgm = g_strdup_printf ("%s.pgm", prefix);
      StGray img;
      cr_assert (st_gray_read_pgm (pgm, &img), "cannot read %s", pgm);
      for (size_t i = 0; i < n; i++)
        {
          if (at[i].page != page)
            continue;
          char name[32];
          snprintf (name, sizeof name, "s-%04zu.pgm", i);
          char *crop = g_build_filename (dir, name, NULL);
          cr_assert (st_gray_write_pgm_crop (&img, (int) ((at[i].x - 1.2) * px),
                                             (int) ((at[i].y - 1.2) * px),
                                             (int) ((plan.sticker.width + 2.4) * px),
                                             (int) ((plan.sticker.height + 2.4) * px), crop));
          cr_assert_eq (crops->len, i, "placements out of order");
          g_ptr_array_add (crops, crop);
        }
      st_gray_clear (&img);
    }
  cr_assert_eq (crops->len, n);

  /* 4. Decode every sticker independently. */
  GPtrArray *decoded = st_zbar_decode (ZBARIMG, crops);
  cr_assert_not_null (decoded, "zbarimg did not run");
  GPtrArray *payloads = g_ptr_array_new ();
  unsigned failures = 0;
  for (size_t i = 0; i < n; i++)
    {
      GPtrArray *found = decoded->pdata[i];
      if (found->len != 1 || strcmp (found->pdata[0], texts[i].payload) != 0)
        {
          if (failures++ < 5)
            cr_log_error ("sticker %zu (%s) on page %d decoded %u codes%s%s", i,
                          texts[i].payload, at[i].page + 1, found->len,
                          found->len ? ", first " : "",
                          found->len ? (const char *) found->pdata[0] : "");
          continue;
        }
      g_ptr_array_add (payloads, found->pdata[0]);
    }
  cr_assert_eq (failures, 0, "%u of %zu stickers did not decode to their payload", failures, n);

  /* 5. What was decoded, against the set itself (not against the texts). */
  GHashTable *faces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  size_t n_decks = eng_card_set_n_decks (set);
  unsigned *backs = g_new0 (unsigned, n_decks);
  unsigned anchors = 0, seats = 0;
  unsigned *anchor_seen = g_new0 (unsigned, eng_card_set_n_anchors (set) + 1);
  unsigned *seat_seen = g_new0 (unsigned, eng_card_set_n_seats (set) + 1);
  GHashTable *commands = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < payloads->len; i++)
    {
      const char *p = payloads->pdata[i];
      EngTag tag;
      EngTagMeaning m;
      /* a sticker is its tag and this table's seal (16 characters) */
      cr_assert_eq (strlen (p), ENG_STICKER_TEXT_LEN, "%s is not a sealed sticker", p);
      cr_assert_eq (eng_printing_check (printing, p, strlen (p), &tag), ENG_OK, "%s is refused", p);
      cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_OK, "%s is not this set's", p);
      switch (tag.kind)
        {
        case ENG_TAG_FACE:
          cr_assert_not_null (m.card);
          cr_assert_eq (m.card, eng_card_set_find_serial (set, tag.serial));
          cr_assert_eq (m.card->serial, tag.serial);
          cr_assert (g_hash_table_add (faces, g_strndup (p, ENG_TAG_PAYLOAD_LEN)), "face %s decoded twice", p);
          break;
        case ENG_TAG_BACK:
          cr_assert_not_null (m.deck);
          for (size_t d = 0; d < n_decks; d++)
            if (eng_card_set_deck (set, d) == m.deck)
              backs[d]++;
          break;
        case ENG_TAG_ANCHOR:
          cr_assert (m.anchor >= 1 && m.anchor <= eng_card_set_n_anchors (set));
          anchor_seen[m.anchor]++;
          anchors++;
          break;
        case ENG_TAG_SEAT:
          cr_assert (m.seat >= 1 && m.seat <= eng_card_set_n_seats (set));
          seat_seen[m.seat]++;
          seats++;
          break;
        case ENG_TAG_COMMAND:
          cr_assert_not_null (m.command);
          cr_assert (g_hash_table_add (commands, (gpointer) m.command), "command %s twice", p);
          break;
        default:
          cr_assert_fail ("%s has an unknown kind", p);
        }
    }
  /* Every physical card face, exactly once. */
  cr_assert_eq (g_hash_table_size (faces), eng_card_set_n_cards (set));
  for (size_t c = 0; c < eng_card_set_n_cards (set); c++)
    {
      const EngCard *card = eng_card_set_card (set, c);
      EngTag tag = { .game = eng_card_set_game_letter (set), .kind = ENG_TAG_FACE,
                     .serial = card->serial };
      g_strlcpy (tag.set, eng_card_set_id (set), sizeof tag.set);
      char want[ENG_TAG_PAYLOAD_LEN + 1];
      cr_assert_eq (eng_tag_format (&tag, want), ENG_OK);
      cr_assert (g_hash_table_contains (faces, want), "card %u (%s) has no sticker",
                 card->serial, card->type_id);
    }
  if (strcmp (pc->game, "katua") == 0)
    cr_assert_eq (g_hash_table_size (faces), 108, "Katua has 108 cards");
  /* One back per card of each deck with a back (a two-sided card has none). */
  for (size_t d = 0; d < n_decks; d++)
    {
      const EngDeck *deck = eng_card_set_deck (set, d);
      unsigned want = deck->has_back ? deck->n_cards : 0;
      cr_assert_eq (backs[d], want, "deck %s: %u backs, the set says %u", deck->id, backs[d],
                    want);
    }
  cr_assert_eq (anchors, eng_card_set_n_anchors (set));
  for (unsigned a = 1; a <= eng_card_set_n_anchors (set); a++)
    cr_assert_eq (anchor_seen[a], 1, "anchor %u printed %u times", a, anchor_seen[a]);
  cr_assert_eq (seats, eng_card_set_n_seats (set));
  for (unsigned s = 1; s <= eng_card_set_n_seats (set); s++)
    cr_assert_eq (seat_seen[s], 1, "seat %u printed %u times", s, seat_seen[s]);
  cr_assert_eq (g_hash_table_size (commands), eng_card_set_n_commands (set));
  cr_assert_eq (payloads->len, eng_card_set_n_stickers (set));

  /* 6. The person's side: each face's printed label names that card as
   * the game does (vis_set_card_label; its words are checked in
   * test-vis-sheet.c), printed right before its payload. */
  const EngGameClass *klass = eng_game_class_find (eng_card_set_game (set));
  cr_assert_not_null (klass);
  void *rules = NULL;
  cr_assert_eq (eng_game_class_rules_new (klass, set, NULL, &rules, NULL), ENG_OK);
  const char *text_argv[] = { PDFTOTEXT, "-raw", "-enc", "UTF-8", pdf, "-", NULL };
  cr_assert (st_run (text_argv, NULL, &run) && run.exit_status == 0, "pdftotext: %s", run.err);
  g_autofree char *text = normalise_space (run.out);
  st_run_clear (&run);
  for (size_t c = 0; c < eng_card_set_n_cards (set); c++)
    {
      const EngCard *card = eng_card_set_card (set, c);
      EngTag tag = { .game = eng_card_set_game_letter (set), .kind = ENG_TAG_FACE,
                     .serial = card->serial };
      g_strlcpy (tag.set, eng_card_set_id (set), sizeof tag.set);
      char payload[ENG_STICKER_TEXT_LEN + 1];
      cr_assert_eq (eng_printing_sticker_text (printing, &tag, payload), ENG_OK);
      char printed[sizeof ((VisStickerText *) NULL)->body];
      vis_set_card_label (set, klass, rules, card, printed, sizeof printed);
      g_autofree char *label = normalise_space (printed);
      g_autofree char *want = g_strdup_printf ("%s %s", label, payload);
      cr_assert (strstr (text, want) != NULL, "the sheet does not print \"%s\"", want);
    }
  eng_game_class_rules_free (klass, rules);

  /* 7. tablero-cli tag accepts every decoded payload, in one call. */
  GPtrArray *tag_argv = g_ptr_array_new ();
  g_ptr_array_add (tag_argv, (char *) TABLERO_CLI);
  g_ptr_array_add (tag_argv, (char *) "tag");
  for (guint i = 0; i < payloads->len; i++)
    g_ptr_array_add (tag_argv, payloads->pdata[i]);
  cr_assert (st_run_array (tag_argv, NULL, &run));
  cr_assert_eq (run.exit_status, 0, "tablero-cli tag refused: %s", run.err);
  g_auto (GStrv) lines = g_strsplit (g_strchomp (run.out), "\n", -1);
  cr_assert_eq (g_strv_length (lines), payloads->len);
  for (guint i = 0; i < payloads->len; i++)
    {
      g_autofree char *key = g_strdup_printf ("\"payload\":\"%s\"", (char *) payloads->pdata[i]);
      cr_assert (strstr (lines[i], key) != NULL, "line %u is not about %s: %s", i,
                 (char *) payloads->pdata[i], lines[i]);
      cr_assert (strstr (lines[i], "\"seal_matches\":true") != NULL, "line %u: %s", i, lines[i]);
    }
  st_run_clear (&run);
  g_ptr_array_free (tag_argv, TRUE);

  g_hash_table_destroy (faces);
  g_hash_table_destroy (commands);
  g_free (backs);
  g_free (anchor_seen);
  g_free (seat_seen);
  g_ptr_array_free (payloads, TRUE);
  g_ptr_array_unref (decoded);
  g_ptr_array_unref (crops);
  g_free (at);
  free (texts);
  eng_printing_free (printing);
  eng_card_set_free (set);
  st_rm_rf (dir);
}

Test (proof, katua_a4_40mm, .timeout = 180)
{
  prove (&(ProofCase) { "katua", "40", "a4", 150 });
}

Test (proof, catchy_a4_40mm, .timeout = 180)
{
  prove (&(ProofCase) { "catchy", "40", "a4", 150 });
}

Test (proof, kittens_a4_40mm, .timeout = 180)
{
  prove (&(ProofCase) { "kittens", "40", "a4", 150 });
}

/* Small stickers for a 2-player table or a 4K camera, on Letter paper:
 * 0.8 mm modules at 200 dpi are 6 px. */
Test (proof, katua_letter_20mm, .timeout = 180)
{
  prove (&(ProofCase) { "katua", "20", "letter", 200 });
}

/* The smallest size: 0.6 mm modules, 7 px at 300 dpi. */
Test (proof, catchy_letter_15mm, .timeout = 180)
{
  prove (&(ProofCase) { "catchy", "15", "letter", 300 });
}
