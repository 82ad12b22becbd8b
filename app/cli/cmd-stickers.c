/* tablero-cli stickers: printable QR sticker sheets for a game's card set.
 * The layout lives in vision/stickers; this file parses arguments, loads the
 * set and the table's printing of it (app/printing: the key the stickers are
 * sealed with, made on first need) and makes sure a failure never leaves a
 * half-written PDF behind.  --new-printing starts a new printing first: the
 * stickers printed before are refused from then on. */
#include "cli.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eng-cardset.h"
#include "prt-store.h"
#include "vis-set-stickers.h"
#include "vis-sheet.h"

#define CMD "tablero-cli stickers"

static int usage_error (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

static int
usage_error (const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_autofree char *shown = cli_escape (msg);   /* it may quote an argument */
  fprintf (stderr, CMD ": %s", shown);
  fprintf (stderr, "\n%s tablero-cli stickers --game GAME [--size-mm N] "
                   "[--paper a4|letter] [--set FILE] [--new-printing] -o FILE.pdf\n", _("usage:"));
  return 2;
}

/* Writes the sheets to a temporary file next to `output` and renames it over
 * `output` only once complete. */
static int
write_sheets (const char *output, const VisSheetOptions *options,
              const VisStickerText *texts, size_t n, VisSheetPlan *plan)
{
  g_autofree char *tmp = g_strdup_printf ("%s.XXXXXX", output);
  int fd = g_mkstemp (tmp);
  if (fd < 0)
    {
      cli_say ("stickers", _("cannot write %s: %s"), output, g_strerror (errno));
      return 2;
    }
  close (fd);
  EngStatus status = vis_sheet_write_pdf (tmp, options, texts, n, plan);
  if (status != ENG_OK)
    {
      g_unlink (tmp);
      cli_say ("stickers", _("cannot write %s: %s"), output, eng_status_to_string (status));
      return 2;
    }
  /* g_mkstemp made it private; a sheet is an ordinary document. */
  g_chmod (tmp, 0644);
  if (g_rename (tmp, output) != 0)
    {
      int saved = errno;
      g_unlink (tmp);
      cli_say ("stickers", _("cannot write %s: %s"), output, g_strerror (saved));
      return 2;
    }
  return 0;
}

/* --size-mm, from 0, so a size too small to read gets its own reason. */
static bool
parse_size (const char *size_arg, double *size_mm)
{
  *size_mm = VIS_STICKER_DEFAULT_MM;
  if (size_arg == NULL)
    return true;
  if (!cli_parse_double ("stickers", "--size-mm", size_arg, 0, VIS_STICKER_MAX_MM, size_mm))
    return false;
  if (*size_mm < VIS_STICKER_MIN_MM)
    {
      cli_say ("stickers", _("--size-mm %g is too small: stickers must be at least %.0f mm "
                             "wide to print and read reliably"), *size_mm, VIS_STICKER_MIN_MM);
      return false;
    }
  return true;
}

/* The card set of --set FILE, or the game's bundled one (*path says which
 * file); NULL after saying why. */
static EngCardSet *
load_set (const char *game, const char *set_file, char **path)
{
  if (set_file != NULL)
    *path = g_strdup (set_file);
  else if ((*path = cli_card_set_path (game)) == NULL)
    return NULL;   /* cli_card_set_path said why */
  EngCardSet *set = NULL;
  EngParseError perr = { 0 };
  EngStatus status = eng_card_set_load_file (*path, &set, &perr);
  if (status != ENG_OK)
    {
      if (perr.line > 0)
        fprintf (stderr, CMD ": %s:%u: %s\n", perr.source[0] ? perr.source : *path, perr.line,
                 perr.reason);
      else
        fprintf (stderr, CMD ": %s: %s\n", perr.source[0] ? perr.source : *path,
                 perr.reason[0] ? perr.reason : eng_status_to_string (status));
      return NULL;
    }
  if (game != NULL && set_file != NULL && g_strcmp0 (game, eng_card_set_game (set)) != 0)
    {
      cli_say ("stickers", _("%s is a set for '%s', not '%s'"), set_file, eng_card_set_game (set), game);
      eng_card_set_free (set);
      return NULL;
    }
  return set;
}

/* This table's printing of the set, a new one with --new-printing (said
 * on stderr); NULL after saying why. */
static EngPrinting *
open_printing (const EngCardSet *set, gboolean new_printing)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *created = NULL;
  if (new_printing && !prt_store_new_printing (set, &created, &error))
    {
      cli_say ("stickers", _("cannot start a new printing: %s"), error->message);
      return NULL;
    }
  EngPrinting *printing = prt_store_printing (set, &error);
  if (printing == NULL)
    {
      cli_say ("stickers", "%s", error->message);
      return NULL;
    }
  if (new_printing)
    cli_say ("stickers", _("started a new printing of set %c%s (%s): stickers printed before it are "
                           "refused from now on; print and stick these"), eng_card_set_game_letter (set),
             eng_card_set_id (set), created);
  return printing;
}

/* Lays the stickers out on pages of `options` and writes the PDF; says
 * what it wrote, or why not (2). */
static int
lay_out_and_write (const char *output, const VisSheetOptions *options, VisStickerText *texts, size_t n,
                   const VisStickerCounts *counts)
{
  VisSheetPlan plan;
  EngStatus status = vis_sheet_plan (options, texts, n, &plan);
  if (status == ENG_ERR_LIMIT)
    {
      cli_say ("stickers", _("%.4g mm stickers do not fit on a %s page (largest: %.0f mm)"),
               options->sticker_mm, vis_paper_to_string (options->paper),
               vis_sheet_max_sticker_mm (options->paper, texts, n));
      return 2;
    }
  if (status != ENG_OK)
    {
      cli_say ("stickers", _("cannot lay out the stickers: %s"), eng_status_to_string (status));
      return 2;
    }
  int rc = write_sheets (output, options, texts, n, &plan);
  if (rc != 0)
    return rc;
  cli_say ("stickers",
           _("wrote %s: %d pages, %zu stickers (%zu faces, %zu backs, %zu anchors, "
             "%zu seats, %zu commands), %.4g mm on %s"),
           output, plan.n_pages, n, counts->faces, counts->backs, counts->anchors, counts->seats,
           counts->commands, options->sticker_mm, vis_paper_to_string (options->paper));
  return 0;
}

int
cli_cmd_stickers (int argc, char **argv)
{
  g_autofree char *game = NULL, *set_file = NULL, *output = NULL, *size_arg = NULL, *paper_arg = NULL;
  gboolean new_printing = FALSE;
  g_autofree char *size_help = g_strdup_printf (_("Sticker width in mm (default %.0f; at least %.0f)"),
                                                VIS_STICKER_DEFAULT_MM, VIS_STICKER_MIN_MM);
  const GOptionEntry entries[] = {
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &game, N_("A game Tablero referees (its bundled card set)"), "G" },
    { "set", 0, 0, G_OPTION_ARG_FILENAME, &set_file, N_("A card set file of your own instead of the bundled one"),
      N_("FILE") },
    { "size-mm", 0, 0, G_OPTION_ARG_FILENAME, &size_arg, size_help, "N" },
    { "paper", 0, 0, G_OPTION_ARG_FILENAME, &paper_arg, N_("a4 (default) or letter"), "P" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The PDF to write"), N_("FILE") },
    { "new-printing", 0, 0, G_OPTION_ARG_NONE, &new_printing,
      N_("Start a new printing of the set: stickers printed before are refused from now on"), NULL },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("stickers", NULL,
                              /* xgettext:no-c-format */
                              N_ ("Writes printable sheets with every QR sticker the game's card set needs:\n"
                              "one per card face, the card backs, table anchors, seat markers and command\n"
                              "cards.  Print at 100% scale (see docs/stickers.md).\n"
                              "Every sticker carries a seal made with this table's key for the set\n"
                              "(kept in printings.ini in your data folder, printed nowhere): stickers of\n"
                              "another printing, or codes made by hand, are refused (docs/tags.md).\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc > 1)
    return usage_error (_("unexpected argument '%s'"), argv[1]);
  VisPaper paper = VIS_PAPER_A4;
  if (paper_arg != NULL && vis_paper_from_string (paper_arg, &paper) != ENG_OK)
    return usage_error (_("unknown paper '%s' (known: a4, letter)"), paper_arg);

  if (game == NULL && set_file == NULL)
    return usage_error ("%s", _("--game (or --set FILE) is required"));
  if (output == NULL || *output == '\0')
    return usage_error ("%s", "-o FILE.pdf is required");

  double size_mm;
  if (!parse_size (size_arg, &size_mm))
    return 2;
  g_autofree char *path = NULL;
  EngCardSet *set = load_set (game, set_file, &path);
  if (set == NULL)
    return 2;
  EngPrinting *printing = open_printing (set, new_printing);
  if (printing == NULL)
    {
      eng_card_set_free (set);
      return 2;
    }
  VisStickerText *texts = NULL;
  size_t n = 0;
  VisStickerCounts counts;
  EngStatus status = vis_set_sticker_texts (set, printing, &texts, &n, &counts);
  eng_printing_free (printing);
  char title[256];
  vis_set_sheet_title (set, title, sizeof title);
  eng_card_set_free (set);
  if (status != ENG_OK)
    {
      cli_say ("stickers", _("%s: cannot make its stickers: %s"), path, eng_status_to_string (status));
      return 2;
    }
  VisSheetOptions options = { paper, size_mm, title };
  rc = lay_out_and_write (output, &options, texts, n, &counts);
  free (texts);
  return rc;
}
