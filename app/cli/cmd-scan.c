/* tablero-cli scan [--calibration FILE] [--game G] [--save-calibration FILE] IMAGE...
 * tablero-cli scan --calibrate-lens COLSxROWS:SQUARE_MM --save-calibration FILE IMAGE...
 *
 * One JSON object a line per Tablero tag found in each image: the image, the
 * payload, its meaning in the game's card set, image corners, and, with a
 * calibration (from FILE, or made from the four anchors when the image shows
 * them), the table position in mm, the rotation and the zone.  Images that
 * are missing, empty, truncated or corrupt get a clear message on stderr;
 * the others are still scanned and the exit status is 2 at the end.
 *
 * With --all, every QR code in view is reported, foreign ones included: the
 * stickers read get "status":"read", and a second, whole-frame decoder adds a
 * line for each code the referee does not take, with why (docs/stickers.md,
 * "Checking a camera and a sticker").
 *
 * Stickers are taken only when their seal is this table's (docs/tags.md):
 * the printing of the --game set, or of every bundled set without --game,
 * each made on first need (app/printing). */
#include "cli.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal-table.h"
#include "eng-cardset.h"
#include "eng-printing.h"
#include "eng-snapshot.h"
#include "prt-store.h"
#include "vis-baseline.h"
#include "vis-detect.h"
#include "vis-imageio.h"

/* Card sets are loaded on first use per game and kept for the run. */
typedef struct {
  char letter;
  EngCardSet *set;
  gboolean tried;
} SetCache;

static const EngCardSet *
set_for (SetCache *cache, size_t n_cache, const char *forced_game, char letter)
{
  for (size_t i = 0; i < n_cache; i++)
    if (cache[i].letter == letter || (cache[i].letter == 0 && !cache[i].tried))
      {
        SetCache *c = &cache[i];
        if (c->tried)
          return c->set;
        c->letter = letter;
        c->tried = TRUE;
        const char *game = forced_game ? forced_game : cli_game_for_letter (letter);
        if (game == NULL)
          return NULL;
        g_autofree char *path = cli_card_set_path (game);
        EngParseError perr = { 0 };
        if (path == NULL || eng_card_set_load_file (path, &c->set, &perr) != ENG_OK)
          {
            cli_say ("scan", _("cannot load the %s card set: %s:%u: %s"), game, perr.source, perr.line,
                     perr.reason);
            c->set = NULL;
          }
        else if (eng_card_set_game_letter (c->set) != letter)
          {
            eng_card_set_free (c->set);
            c->set = NULL;
          }
        return c->set;
      }
  return NULL;
}

static void
append_meaning (GString *out, const EngCardSet *set, const EngTag *tag)
{
  EngTagMeaning m;
  if (set == NULL || eng_card_set_resolve (set, tag, &m) != ENG_OK)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append (out, "{\"set\":");
  cli_json_cstring (out, eng_card_set_game (set));
  if (m.card != NULL)
    {
      g_string_append (out, ",\"card\":");
      cli_json_cstring (out, m.card->type_id);
      g_string_append (out, ",\"label\":");
      cli_json_cstring (out, m.card->label);
    }
  if (m.deck != NULL)
    {
      g_string_append (out, ",\"deck\":");
      cli_json_cstring (out, m.deck->id);
    }
  if (m.command != NULL)
    {
      g_string_append (out, ",\"command\":");
      cli_json_cstring (out, m.command->id);
    }
  if (m.seat > 0)
    g_string_append_printf (out, ",\"seat\":%u", m.seat);
  if (m.anchor > 0)
    g_string_append_printf (out, ",\"anchor\":%u", m.anchor);
  g_string_append_c (out, '}');
}

/* Why the referee does not take a code the whole-frame decoder read; NULL
 * when it is a Tablero sticker of a set this install has (then the detector
 * should have read it). */
static const char *
refusal (const EngPrinting *printing, SetCache *cache, size_t n_cache, const char *game, const VisCode *c,
         EngTag *tag)
{
  switch (eng_printing_check (printing, c->text, c->len, tag))
    {
    case ENG_OK:
      break;
    case ENG_ERR_TAG_CHECKSUM:
      return "shaped like a Tablero sticker but its check character is wrong: a damaged or "
             "misprinted sticker, or a code made by hand";
    case ENG_ERR_TAG_OLD_FORMAT:
      return "printed in an older format: print the stickers again with tablero-cli stickers";
    case ENG_ERR_TAG_SEAL:
      return "from another printing or made by hand: its seal is not this table's";
    case ENG_ERR_TAG_UNKNOWN:
      /* a valid tag and seal shape, of a set the printing does not hold or
       * a serial its set lacks: parse the tag to tell which */
      if (eng_tag_parse (c->text, ENG_TAG_PAYLOAD_LEN, tag) == ENG_OK)
        break;
      /* fall through */
    default:
      return "not a Tablero sticker (a QR code of something else)";
    }
  const EngCardSet *set = set_for (cache, n_cache, game, tag->game);
  EngTagMeaning m;
  if (set == NULL || strcmp (tag->set, eng_card_set_id (set)) != 0)
    return "a Tablero sticker of a game or card set this table does not play";
  if (eng_card_set_resolve (set, tag, &m) != ENG_OK)
    return "a Tablero sticker whose number is no card, back, anchor, seat or command of its set";
  return NULL;
}

/* The --all line of a code the detector did not give. */
static void
print_code (GString *line, const char *path, const VisCode *c, const char *status, const char *why)
{
  g_string_truncate (line, 0);
  g_string_append (line, "{\"image\":");
  cli_json_cstring (line, path);
  g_string_append (line, ",\"code\":");
  cli_json_cstring (line, c->text);
  if (c->len >= sizeof c->text)
    g_string_append_printf (line, ",\"code_length\":%zu", c->len);
  g_string_append (line, ",\"status\":");
  cli_json_cstring (line, status);
  if (why != NULL)
    {
      g_string_append (line, ",\"why\":");
      cli_json_cstring (line, why);
    }
  g_string_append_printf (line, ",\"centre\":[%.2f,%.2f]}\n", c->centre.x, c->centre.y);
  fputs (line->str, stdout);
}

/* Every code the whole-frame decoder reads that is not among `res`'s. */
static void
print_other_codes (VisZbarFull *zbar, const EngPrinting *printing, const VisImage *img,
                   const VisDetectResult *res, SetCache *cache, size_t n_cache, const char *game,
                   const char *path, GString *line)
{
  static VisCode codes[128];
  size_t n = 0;
  if (vis_zbar_full_codes (zbar, img, codes, G_N_ELEMENTS (codes), &n) != ENG_OK)
    return;
  for (size_t i = 0; i < n; i++)
    {
      const VisCode *c = &codes[i];
      bool read = false;
      for (size_t k = 0; k < res->n_detections && !read; k++)
        {
          const VisDetection *d = &res->detections[k];
          read = c->len == ENG_STICKER_TEXT_LEN && memcmp (c->text, d->payload, ENG_TAG_PAYLOAD_LEN) == 0
                 && hypotf (c->centre.x - d->centre.x, c->centre.y - d->centre.y) < 21 * d->module_px;
        }
      if (read)
        continue;
      EngTag tag;
      const char *why = refusal (printing, cache, n_cache, game, c, &tag);
      if (why != NULL)
        print_code (line, path, c, "refused", why);
      else
        print_code (line, path, c, "missed",
                    "a sticker of this table that the referee's detector did not read here: too "
                    "small, blurred or in glare; see docs/stickers.md");
    }
}

/* The table's printing of the --game set, or of every bundled set (a scan
 * may show any game's stickers); NULL after saying why. */
static EngPrinting *
load_printing (SetCache *cache, size_t n_cache, const char *game)
{
  EngPrinting *printing = NULL;
  for (char letter = 'A'; letter <= 'Z'; letter++)
    {
      const char *g = cli_game_for_letter (letter);
      if (g == NULL || (game != NULL && strcmp (g, game) != 0))
        continue;
      const EngCardSet *set = set_for (cache, n_cache, game, letter);
      if (set == NULL)
        continue;
      g_autoptr (GError) error = NULL;
      if (printing == NULL)
        printing = prt_store_printing (set, &error);
      else if (!prt_store_add (printing, set, &error))
        g_clear_pointer (&printing, eng_printing_free);
      if (printing == NULL)
        {
          cli_say ("scan", "%s", error->message);
          return NULL;
        }
    }
  if (printing == NULL)
    cli_say ("scan", "%s", _("no card set to read stickers of"));
  return printing;
}

static gboolean
load_zones (CalTable *table, const char *game)
{
  g_autofree char *name = g_strdup_printf ("%s.zones", game);
  g_autofree char *rel = g_build_filename ("zones", name, NULL);
  g_autofree char *path = cli_data_path (rel);
  CalZones zones;
  EngParseError perr = { 0 };
  EngStatus st = cal_zones_load_file (path, &zones, &perr);
  if (st == ENG_ERR_IO)
    return TRUE; /* a game without zones */
  if (st != ENG_OK)
    {
      cli_say ("scan", "%s:%u: %s", perr.source, perr.line, perr.reason);
      return FALSE;
    }
  cal_table_set_zones (table, &zones);
  return TRUE;
}

/* Whether `d` is an anchor or seat marker `obs` found at two places. */
static bool
is_doubled (const CalObservation *obs, const VisDetection *d)
{
  if (d->tag.kind == ENG_TAG_ANCHOR && d->tag.serial >= 1 && d->tag.serial <= 4)
    return (obs->doubled_anchors & (1u << (d->tag.serial - 1))) != 0;
  if (d->tag.kind == ENG_TAG_SEAT)
    for (unsigned k = 0; k < obs->n_doubled_seats; k++)
      if (obs->doubled_seats[k] == d->tag.serial)
        return true;
  return false;
}

static int
calibrate_lens (const char *spec, const char *save, char **images, int n_images)
{
  /* COLSxROWS:SQUARE_MM, each part through the shared range checks. */
  g_auto (GStrv) grid = g_strsplit_set (spec, "x:", -1);
  long cols = 0, rows = 0;
  double square = 0;
  if (g_strv_length (grid) != 3)
    {
      g_autofree char *shown = cli_escape (spec);
      fprintf (stderr, "tablero-cli scan: ");
      fprintf (stderr, _("--calibrate-lens takes COLSxROWS:SQUARE_MM (inner corners), not '%s'"),
               shown);
      fputc ('\n', stderr);
      return 2;
    }
  if (!cli_parse_long ("scan", "--calibrate-lens COLS", grid[0], 2, CAL_LENS_MAX_CORNERS, &cols)
      || !cli_parse_long ("scan", "--calibrate-lens ROWS", grid[1], 2, CAL_LENS_MAX_CORNERS, &rows)
      || !cli_parse_double ("scan", "--calibrate-lens SQUARE_MM", grid[2], 0.1, CAL_LENS_MAX_SQUARE_MM,
                            &square))
    return 2;
  if (save == NULL)
    {
      cli_say ("scan", "%s", _("--calibrate-lens needs --save-calibration FILE"));
      return 2;
    }
  CalLens lens;
  size_t skipped = 0;
  EngStatus st = cal_lens_calibrate_checkerboard ((const char *const *) images, (size_t) n_images, (int) cols,
                                                  (int) rows,
                                                  square, &lens, &skipped);
  if (st != ENG_OK)
    {
      cli_say ("scan", _("lens calibration failed: %s (%zu of %d images unusable)"),
               eng_status_to_string (st), skipped, n_images);
      return 2;
    }
  CalTable *table = cal_table_new ();
  cal_table_set_lens (table, &lens);
  st = cal_table_save (table, save);
  cal_table_free (table);
  if (st != ENG_OK)
    {
      cli_say ("scan", _("cannot write %s"), save);
      return 2;
    }
  g_autoptr (GString) line = g_string_new ("{\"lens\":");
  cli_json_cstring (line, save);
  g_string_append_printf (line, ",\"images\":%d,\"skipped\":%zu,\"rms_px\":%.4f}\n", n_images, skipped,
                          lens.rms_px);
  fputs (line->str, stdout);
  return skipped > 0 ? 1 : 0;
}

/* What the steps of one scan share: the options, the decoders and the card
 * sets, made once for all the images. */
typedef struct {
  const char *game;              /* --game, or NULL: each sticker's own game */
  const char *save;              /* --save-calibration */
  gboolean all, verbose;
  CalTable *fixed;               /* --calibration, or NULL */
  VisDetector *det;
  VisZbarFull *zbar;             /* --all: the whole-frame decoder */
  SetCache cache[4];
  EngPrinting *printing;
  GString *line;                 /* the JSON line being written */
  int rc;
} Scan;

static void
scan_clear (Scan *s)
{
  for (size_t i = 0; i < G_N_ELEMENTS (s->cache); i++)
    eng_card_set_free (s->cache[i].set);
  vis_zbar_full_free (s->zbar);
  g_clear_pointer (&s->det, vis_detector_free);
  g_clear_pointer (&s->printing, eng_printing_free);
  cal_table_free (s->fixed);
  if (s->line != NULL)
    g_string_free (s->line, TRUE);
}

/* --calibration FILE with the zones of its game; false after saying why. */
static bool
load_fixed_calibration (Scan *s, const char *cal_path)
{
  EngParseError perr = { 0 };
  EngStatus st = cal_table_load (cal_path, &s->fixed, &perr);
  if (st != ENG_OK)
    {
      cli_say ("scan", "%s:%u: %s", perr.source, perr.line, perr.reason);
      return false;
    }
  const char *zg = cal_table_zones_game (s->fixed);
  return load_zones (s->fixed, zg[0] ? zg : (s->game ? s->game : cli_default_game ()));
}

/* The detector, the whole-frame decoder of --all and this table's
 * printing; false after saying why. */
static bool
open_decoders (Scan *s)
{
  s->det = vis_detector_new (NULL);
  if (s->det == NULL)
    {
      cli_say ("scan", "%s", _("cannot create the detector"));
      return false;
    }
  s->zbar = s->all ? vis_zbar_full_new () : NULL;
  if (s->all && s->zbar == NULL)
    {
      cli_say ("scan", "%s", _("cannot create the whole-frame decoder"));
      return false;
    }
  s->printing = load_printing (s->cache, G_N_ELEMENTS (s->cache), s->game);
  if (s->printing == NULL)
    return false;
  vis_detector_set_printing (s->det, s->printing);
  return true;
}

/* A calibration file is used as is (it recalibrates only when all four
 * anchors show it moved); without one, an image showing the four anchors
 * calibrates itself, with the zones of --game or of the first sticker's
 * game.  *own is the table made for this image (the caller frees it). */
static CalTable *
table_for_image (Scan *s, const VisDetectResult *res, CalTable **own)
{
  *own = NULL;
  if (s->fixed != NULL)
    return s->fixed;
  *own = cal_table_new ();
  if (s->game != NULL && !load_zones (*own, s->game))
    s->rc = 2;
  else if (s->game == NULL)
    for (size_t k = 0; k < res->n_detections; k++)
      {
        const char *g = cli_game_for_letter (res->detections[k].tag.game);
        if (g != NULL)
          {
            load_zones (*own, g);
            break;
          }
      }
  return *own;
}

/* ,"table_mm":[X,Y],"rotation_deg":R,"zone":{...} of a sticker placed on
 * the table. */
static void
append_place (GString *line, const VisTrackPlace *place)
{
  g_string_append_printf (line, ",\"table_mm\":[%.1f,%.1f],\"rotation_deg\":%.1f,\"zone\":",
                          place->x, place->y, place->rotation_deg);
  if (place->zone.kind == ENG_ZONE_NONE)
    {
      g_string_append (line, "null");
      return;
    }
  g_string_append (line, "{\"kind\":");
  cli_json_cstring (line, cal_zone_kind_to_string ((EngZoneKind) place->zone.kind));
  if (place->zone.seat >= 0)
    g_string_append_printf (line, ",\"seat\":%d", place->zone.seat + 1);
  if (place->zone.index >= 0)
    g_string_append_printf (line, ",\"index\":%d", place->zone.index);
  g_string_append_c (line, '}');
}

/* One sticker read in the image `path`, as a JSON line on standard output. */
static void
print_detection (Scan *s, const char *path, const VisDetection *d, const CalObservation *obs, CalTable *table,
                 bool placed)
{
  GString *line = s->line;
  g_string_truncate (line, 0);
  g_string_append (line, "{\"image\":");
  cli_json_cstring (line, path);
  g_string_append (line, ",\"payload\":");
  cli_json_cstring (line, d->payload);
  g_string_append (line, ",\"kind\":");
  cli_json_cstring (line, eng_tag_kind_to_string (d->tag.kind));
  g_string_append (line, ",\"meaning\":");
  append_meaning (line, set_for (s->cache, G_N_ELEMENTS (s->cache), s->game, d->tag.game), &d->tag);
  g_string_append (line, ",\"corners\":[");
  for (int c = 0; c < 4; c++)
    g_string_append_printf (line, "%s[%.2f,%.2f]", c ? "," : "", d->corners[c].x, d->corners[c].y);
  g_string_append_printf (line, "],\"centre\":[%.2f,%.2f],\"image_rotation_deg\":%.1f,\"module_px\":%.2f",
                          d->centre.x, d->centre.y, d->rotation_deg, d->module_px);
  if (is_doubled (obs, d))
    g_string_append (line, ",\"doubled\":true");
  if (s->all)
    g_string_append (line, is_doubled (obs, d) ? ",\"status\":\"refused\",\"why\":\"the same "
                                                 "marker seen at two places\""
                                               : ",\"status\":\"read\"");
  VisTrackPlace place;
  if (placed && cal_table_locate (table, d, &place))
    append_place (line, &place);
  g_string_append (line, "}\n");
  fputs (line->str, stdout);
}

/* The stickers of one decoded image: placed on the table where it is
 * calibrated, doubled markers said, the calibration saved when it moved,
 * and the codes not taken listed (--all) or counted. */
static void
report_image (Scan *s, const char *path, const VisImage *img, const VisDetectResult *res)
{
  CalTable *own;
  CalTable *table = table_for_image (s, res, &own);
  CalObservation obs;
  cal_table_observe (table, res->detections, res->n_detections, img->width, img->height, &obs);
  bool placed = cal_table_is_calibrated (table);
  char doubles[256];
  if (cal_observation_describe_doubles (&obs, doubles, sizeof doubles))
    {
      cli_say ("scan", "%s: %s", path, doubles);
      s->rc = s->rc != 0 ? s->rc : 1;
    }
  if (s->save != NULL && placed && obs.recalibrated && cal_table_save (table, s->save) != ENG_OK)
    {
      cli_say ("scan", _("cannot write %s"), s->save);
      s->rc = 2;
    }
  for (size_t k = 0; k < res->n_detections; k++)
    print_detection (s, path, &res->detections[k], &obs, table, placed);
  if (s->all)
    print_other_codes (s->zbar, s->printing, img, res, s->cache, G_N_ELEMENTS (s->cache), s->game, path, s->line);
  else if (res->n_foreign > 0)
    cli_say ("scan", _("%s: ignored %u QR code(s) that are not Tablero tags of this table's printing "
                "(--all lists them)"), path,
             res->n_foreign);
  cal_table_free (own);
}

/* One image: loaded, decoded and reported; an image that cannot be read
 * is said and makes the exit status 2, the others are still scanned. */
static void
scan_image (Scan *s, const char *path)
{
  VisImage img;
  char reason[128];
  EngStatus st = vis_image_load (path, &img, reason, sizeof reason);
  if (st != ENG_OK)
    {
      cli_say ("scan", "%s: %s", path, reason);
      s->rc = 2;
      return;
    }
  VisDetectResult res;
  st = vis_detector_detect (s->det, &img, VIS_DETECT_COLD, &res);
  if (st != ENG_OK)
    {
      cli_say ("scan", _("%s: detection failed: %s"), path, eng_status_to_string (st));
      vis_image_release (&img);
      s->rc = 2;
      return;
    }
  if (s->verbose)
    cli_say ("scan", _("%s: %u finder patterns, %u candidate codes, %u of them unread, %u stickers read"),
             path, res.n_finders, res.n_candidates, res.n_undecoded, (unsigned) res.n_detections);
  report_image (s, path, &img, &res);
  vis_image_release (&img);
}

int
cli_cmd_scan (int argc, char **argv)
{
  g_autofree char *cal_path = NULL, *game = NULL, *save = NULL, *lens_spec = NULL;
  gboolean all = FALSE, verbose = FALSE;
  const GOptionEntry entries[] = {
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Say on stderr what the detector saw in each image (finder patterns, candidate codes, unread ones)"),
      NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all,
      N_("Report every QR code in view, foreign ones too, with why each is not taken"), NULL },
    { "calibration", 0, 0, G_OPTION_ARG_FILENAME, &cal_path, N_("Use a saved calibration"), N_("FILE") },
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &game, N_("Read the tags as this game's"), N_("GAME") },
    { "save-calibration", 0, 0, G_OPTION_ARG_FILENAME, &save, N_("Save the calibration the images give"), N_("FILE") },
    { "calibrate-lens", 0, 0, G_OPTION_ARG_FILENAME, &lens_spec,
      N_("Calibrate the lens from checkerboard photos (inner corners, square size)"), "COLSxROWS:SQUARE_MM" },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("scan", "IMAGE...",
                              N_ ("Prints each tag seen in the images as a JSON line: its meaning, and with\n"
                              "the four anchors in view (or --calibration) its place and zone on the table.\n"
                              "With --all, every other QR code in view too, with why the referee does not\n"
                              "take it (\"status\":\"refused\" or \"missed\").\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc <= 1)
    {
      cli_say ("scan", "%s", _("no IMAGE given"));
      return 2;
    }
  if (lens_spec != NULL)
    return calibrate_lens (lens_spec, save, argv + 1, argc - 1);
  if (game != NULL)
    {
      g_autofree char *p = cli_card_set_path (game);
      if (p == NULL)
        return 2;
    }
  Scan s = { .game = game, .save = save, .all = all, .verbose = verbose };
  if ((cal_path == NULL || load_fixed_calibration (&s, cal_path)) && open_decoders (&s))
    {
      s.line = g_string_new (NULL);
      for (int i = 1; i < argc; i++)
        scan_image (&s, argv[i]);
      fflush (stdout);
    }
  else
    s.rc = 2;
  scan_clear (&s);
  return s.rc;
}
