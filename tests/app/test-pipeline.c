/* The app's camera pipeline on the demo table, without a display: the
 * calibration facts it publishes, and "Save calibration" written by the
 * worker and used by the next start. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cal-table.h"
#include "ui-pipeline.h"
#include "eng-tag.h"
#include "ui-referee.h"

typedef struct {
  GMainLoop *loop;
  guint frames;
  gboolean calibrated;
  char *status;            /* the last status message */
  const char *wait_for;    /* quit when a status contains this */
  guint want_calibrations; /* quit when the facts count this many */
  gboolean want_no_doubles;/* quit on a frame whose facts name no doubled sticker */
} Watch;

static void
on_frame (UiPipeline *pipeline, GdkTexture *texture, Watch *w)
{
  w->frames++;
  const UiCalibrationFacts *f = ui_pipeline_get_calibration (pipeline);
  if (w->want_calibrations > 0 && f->calibrations >= w->want_calibrations)
    g_main_loop_quit (w->loop);
  if (w->want_no_doubles && f->doubled_anchors == 0 && f->n_doubled_seats == 0)
    g_main_loop_quit (w->loop);
  if (f->calibrated && !w->calibrated)
    {
      w->calibrated = TRUE;
      if (w->wait_for == NULL)
        g_main_loop_quit (w->loop);
    }
}

static void
on_status (UiPipeline *pipeline, const char *message, Watch *w)
{
  g_free (w->status);
  w->status = g_strdup (message);
  if (w->wait_for != NULL && strstr (message, w->wait_for) != NULL)
    g_main_loop_quit (w->loop);
}

static gboolean
give_up (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
run (Watch *w, guint seconds)
{
  guint id = g_timeout_add_seconds (seconds, give_up, w->loop);
  g_main_loop_run (w->loop);
  g_source_remove (id);
}

static UiPipeline *
start (Watch *w, const char *calibration)
{
  UiPipeline *pipeline = ui_pipeline_new ("demo", "katua");
  ui_pipeline_set_calibration_file (pipeline, calibration);
  g_signal_connect (pipeline, "frame", G_CALLBACK (on_frame), w);
  g_signal_connect (pipeline, "status", G_CALLBACK (on_status), w);
  g_autoptr (GError) error = NULL;
  cr_assert (ui_pipeline_start (pipeline, &error), "%s", error ? error->message : "");
  return pipeline;
}

/* A dispatch already queued must not reach the next pipeline's watch. */
static void
stop (UiPipeline *pipeline, Watch *w)
{
  ui_pipeline_stop (pipeline);
  g_signal_handlers_disconnect_by_data (pipeline, w);
  g_object_unref (pipeline);
}

Test (pipeline, calibration_facts_and_save_then_start_from_it, .timeout = 120)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-pipeline-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "sub", "table.cal", NULL);
  Watch w = { .loop = g_main_loop_new (NULL, FALSE) };

  UiPipeline *pipeline = start (&w, NULL);
  run (&w, 60);
  cr_assert (w.calibrated, "not calibrated after %u frames (%s)", w.frames, w.status ? w.status : "");
  const UiCalibrationFacts *f = ui_pipeline_get_calibration (pipeline);
  for (int a = 0; a < 4; a++)
    cr_expect (f->anchor_seen[a], "anchor %d not seen", a + 1);
  cr_expect_geq (f->n_seats, 2);
  cr_expect_gt (f->px_per_mm, 0.5);
  cr_expect_gt (f->module_px_mean, 1.0);
  cr_expect_not (f->from_file);
  cr_expect_geq (f->calibrations, 1);

  w.wait_for = "Calibration saved";
  ui_pipeline_save_calibration (pipeline, path);
  run (&w, 30);
  cr_assert_not_null (strstr (w.status ? w.status : "", "Calibration saved"), "status: %s", w.status);
  stop (pipeline, &w);
  CalTable *table = NULL;
  cr_assert_eq (cal_table_load (path, &table, NULL), ENG_OK);
  cr_expect (cal_table_is_calibrated (table));
  cal_table_free (table);

  /* The next start begins from the saved file. */
  w.wait_for = NULL;
  w.calibrated = FALSE;
  pipeline = start (&w, path);
  run (&w, 60);
  cr_assert (w.calibrated);
  cr_expect (ui_pipeline_get_calibration (pipeline)->from_file);
  cr_expect_not (ui_pipeline_get_calibration (pipeline)->lens_loaded);

  /* "Recalibrate": the running pipeline measures the table again from the
   * anchors in view, without a restart.  Within seconds: the demo's own
   * camera nudge (at 20 s) would recalibrate anyway. */
  guint before = ui_pipeline_get_calibration (pipeline)->calibrations;
  guint frames_before = w.frames;
  w.want_calibrations = before + 1;
  ui_pipeline_request_recalibration (pipeline);
  run (&w, 8);
  cr_expect_geq (ui_pipeline_get_calibration (pipeline)->calibrations, before + 1,
                 "no recalibration after %u frames", w.frames - frames_before);
  cr_expect (ui_pipeline_get_calibration (pipeline)->calibrated);
  stop (pipeline, &w);

  g_unlink (path);
  g_autofree char *sub = g_path_get_dirname (path);
  g_rmdir (sub);
  g_rmdir (dir);
  g_free (w.status);
  g_main_loop_unref (w.loop);
}

Test (pipeline, missing_calibration_file_means_calibrate_from_anchors)
{
  UiPipeline *pipeline = ui_pipeline_new ("demo", "katua");
  ui_pipeline_set_calibration_file (pipeline, "/nonexistent/table.cal");
  cr_expect_not (ui_pipeline_get_calibration (pipeline)->from_file);
  g_object_unref (pipeline);
}

typedef struct {
  GMainLoop *loop;
  UiReferee *referee;
  guint accepted;
  guint notes;
} Game;

static void
on_snapshot (UiPipeline *pipeline, gpointer snapshot, Game *g)
{
  ui_referee_feed (g->referee, snapshot);
}

static void
on_announce (UiReferee *referee, guint kind, const char *text, const char *rule, Game *g)
{
  if (kind == ENG_EVENT_NOTE)
    g->notes++;
  /* Two moves: the report has something to say in words. */
  if (kind == ENG_EVENT_ACCEPTED && ++g->accepted == 2)
    g_main_loop_quit (g->loop);
}

/* The demo refereed through the pipeline: the exported report names the
 * players, the moves in words and what was announced.  It stays in the
 * build tree for a person to read (tests/app/tablero-report.md). */
Test (pipeline, demo_game_report, .timeout = 120)
{
  EngSetup setup;
  eng_setup_init (&setup);
  setup.n_players = 2;
  g_strlcpy (setup.names[0], "Ana", ENG_NAME_MAX);
  g_strlcpy (setup.names[1], "Bea", ENG_NAME_MAX);
  setup.seats[0] = 1;
  setup.seats[1] = 2;
  setup.first = 0;
  g_autoptr (GError) error = NULL;
  Game g = { .loop = g_main_loop_new (NULL, FALSE) };
  g.referee = ui_referee_new ("katua", &setup, NULL, &error);
  cr_assert_not_null (g.referee);
  g_signal_connect (g.referee, "announce", G_CALLBACK (on_announce), &g);
  UiPipeline *pipeline = ui_pipeline_new ("demo", "katua");
  g_signal_connect (pipeline, "snapshot", G_CALLBACK (on_snapshot), &g);
  cr_assert (ui_pipeline_start (pipeline, &error));
  guint id = g_timeout_add_seconds (90, give_up, g.loop);
  g_main_loop_run (g.loop);
  g_source_remove (id);
  ui_pipeline_stop (pipeline);
  g_signal_handlers_disconnect_by_data (pipeline, &g);
  g_object_unref (pipeline);
  cr_assert_geq (g.accepted, 2, "the demo made %u moves", g.accepted);

  g_autofree char *report = ui_referee_dup_report (g.referee);
  const char *dir = getenv ("TABLERO_SCREENSHOT_DIR");
  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, "tablero-report.md", NULL);
      g_file_set_contents (path, report, -1, NULL);
    }
  cr_expect_not_null (strstr (report, "# Katua: game report"), "%s", report);
  cr_expect_not_null (strstr (report, "| Ana | 1 |"), "%s", report);
  cr_expect_not_null (strstr (report, "## Moves\n\n1. "), "%s", report);
  cr_expect_not_null (strstr (report, "\n2. "), "%s", report);
  cr_expect_null (strstr (report, "No move yet."), "%s", report);
  cr_expect_not_null (strstr (report, "## Game record"), "%s", report);

  /* A correction counts as a change: the journal is rewritten at once and
   * keeps it; the referee says what it corrected. */
  g_autofree char *dir_tmp = g_dir_make_tmp ("tablero-journal-XXXXXX", NULL);
  g_autofree char *journal = g_build_filename (dir_tmp, "journal.record", NULL);
  ui_referee_set_journal (g.referee, journal);
  g_autofree char *before = NULL;
  cr_assert (g_file_get_contents (journal, &before, NULL, NULL), "no journal after two moves");
  cr_expect_null (strstr (before, "@correct"));
  const EngSnapshot *snapshot = ui_referee_get_last_snapshot (g.referee);
  const char *seen = NULL;
  for (unsigned i = 0; i < snapshot->n_items && seen == NULL; i++)
    if (snapshot->items[i].tag_kind == 'F' && snapshot->items[i].serial == 26)
      seen = snapshot->items[i].payload;
  cr_assert_not_null (seen, "the shown cat 26 is not in the last snapshot");
  char actual[12];
  g_strlcpy (actual, seen, sizeof actual);
  EngTag tag;
  cr_assert_eq (eng_tag_parse (seen, strlen (seen), &tag), ENG_OK);
  tag.serial = 25;   /* another cat of the same deck */
  cr_assert_eq (eng_tag_format (&tag, actual), ENG_OK);
  guint notes_before = g.notes;
  cr_assert (ui_referee_correct_card (g.referee, seen, actual, &error), "%s", error ? error->message : "");
  cr_expect_gt (g.notes, notes_before, "no NOTE about the correction");
  g_autofree char *after = NULL;
  cr_assert (g_file_get_contents (journal, &after, NULL, NULL));
  cr_expect_not_null (strstr (after, "@correct"), "journal:\n%s", after);
  g_unlink (journal);
  g_rmdir (dir_tmp);

  g_signal_handlers_disconnect_by_data (g.referee, &g);
  g_object_unref (g.referee);
  g_main_loop_unref (g.loop);
}

typedef struct {
  GMainLoop *loop;
  guint64 seqs[12];
  guint n;
  gulong busy_us;          /* how long the main thread takes over a change */
} Changes;

static void
on_change (UiPipeline *pipeline, gpointer snapshot, Changes *c)
{
  if (c->n == G_N_ELEMENTS (c->seqs))
    return;   /* the rest of a dispatch's queue, after the loop was told to stop */
  c->seqs[c->n++] = ((const EngSnapshot *) snapshot)->seq;
  if (c->busy_us > 0)
    g_usleep (c->busy_us);
  if (c->n == G_N_ELEMENTS (c->seqs))
    g_main_loop_quit (c->loop);
}

/* The first changes of the demo table as the main thread is given them. */
static void
first_changes (Changes *c)
{
  c->loop = g_main_loop_new (NULL, FALSE);
  UiPipeline *pipeline = ui_pipeline_new ("demo", "katua");
  g_signal_connect (pipeline, "snapshot", G_CALLBACK (on_change), c);
  g_autoptr (GError) error = NULL;
  cr_assert (ui_pipeline_start (pipeline, &error));
  guint id = g_timeout_add_seconds (100, give_up, c->loop);
  g_main_loop_run (c->loop);
  g_source_remove (id);
  ui_pipeline_stop (pipeline);
  g_signal_handlers_disconnect_by_data (pipeline, c);
  g_object_unref (pipeline);
  g_main_loop_unref (c->loop);
  cr_assert_eq (c->n, G_N_ELEMENTS (c->seqs), "only %u changes came", c->n);
}

/* However far the main thread falls behind the frames (here each change
 * keeps it busy longer than a frame lasts), the referee is given every
 * change of the table, in order: the same ones a quick main thread gets. */
Test (pipeline, every_change_reaches_a_slow_main_thread, .timeout = 240)
{
  Changes quick = { .busy_us = 0 }, slow = { .busy_us = 1500 * 1000 };
  first_changes (&quick);
  first_changes (&slow);
  for (guint i = 0; i < G_N_ELEMENTS (quick.seqs); i++)
    cr_expect_eq (slow.seqs[i], quick.seqs[i], "change %u: seq %" G_GUINT64_FORMAT ", not %"
                  G_GUINT64_FORMAT, i, slow.seqs[i], quick.seqs[i]);
}

/* A forged second anchor 2 on the table (taken away at 1 s): the facts
 * name it, the window is told once when it appears and once when it is
 * gone, and no calibration is made from it meanwhile. */
Test (pipeline, doubled_anchor_told_while_in_view, .timeout = 120)
{
  static const char scene[] =
    "image width=1280 height=720 fps=5 duration=2.4 seed=9 format=png\n"
    "camera height=800 tilt=0 fov=62\n"
    "table width=900 height=560\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "anchor a1 number=1 at=60,60\n"
    "anchor a2 number=2 at=840,60\n"
    "anchor a3 number=3 at=840,500\n"
    "anchor a4 number=4 at=60,500\n"
    "anchor forged number=2 at=600,300\n"
    "seat s1 number=1 at=450,500\n"
    "seat s2 number=2 at=450,60 rot=180\n"
    "at 1.0 remove forged\n";
  g_autofree char *dir = g_dir_make_tmp ("tablero-pipeline-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "doubled.scene", NULL);
  cr_assert (g_file_set_contents (path, scene, -1, NULL));
  g_autofree char *spec = g_strdup_printf ("demo:%s", path);
  Watch w = { .loop = g_main_loop_new (NULL, FALSE), .wait_for = "Seen at two places" };
  UiPipeline *pipeline = ui_pipeline_new (spec, "katua");
  g_signal_connect (pipeline, "frame", G_CALLBACK (on_frame), &w);
  g_signal_connect (pipeline, "status", G_CALLBACK (on_status), &w);
  g_autoptr (GError) error = NULL;
  cr_assert (ui_pipeline_start (pipeline, &error), "%s", error ? error->message : "");
  run (&w, 30);
  cr_assert_not_null (strstr (w.status ? w.status : "", "anchor 2"), "status: %s", w.status);
  cr_expect_not (w.calibrated, "calibrated from a doubled anchor");

  w.wait_for = "No doubled sticker";
  run (&w, 30);
  cr_assert_not_null (strstr (w.status ? w.status : "", "No doubled sticker in view any more"),
                      "status: %s", w.status);
  /* the frame the status came from reaches the window after it */
  w.wait_for = NULL;
  w.want_no_doubles = TRUE;
  run (&w, 10);
  const UiCalibrationFacts *f = ui_pipeline_get_calibration (pipeline);
  cr_expect_eq (f->doubled_anchors, 0u);
  stop (pipeline, &w);
  g_unlink (path);
  g_rmdir (dir);
  g_free (w.status);
  g_main_loop_unref (w.loop);
}

/* A sticker in the old format and one forged from the documented format
 * (a valid tag with a made-up seal) lie on the table: each is told once,
 * and neither names the card it claims. */
Test (pipeline, stickers_not_of_this_printing_are_told, .timeout = 120)
{
  static const char scene[] =
    "image width=1280 height=720 fps=5 duration=6 seed=9 format=png\n"
    "camera height=800 tilt=0 fov=62\n"
    "table width=900 height=560\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "anchor a1 number=1 at=60,60\n"
    "anchor a2 number=2 at=840,60\n"
    "anchor a3 number=3 at=840,500\n"
    "anchor a4 number=4 at=60,500\n"
    "seat s1 number=1 at=450,500\n"
    "seat s2 number=2 at=450,60 rot=180\n"
    "foreign old text=\"TB1K01F001W\" at=300,280\n"
    "foreign forged text=\"TB1K01F001WZZZZZ\" at=600,280\n";
  g_autofree char *dir = g_dir_make_tmp ("tablero-pipeline-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "forged.scene", NULL);
  cr_assert (g_file_set_contents (path, scene, -1, NULL));
  g_autofree char *spec = g_strdup_printf ("demo:%s", path);
  Watch w = { .loop = g_main_loop_new (NULL, FALSE), .wait_for = "older format" };
  UiPipeline *pipeline = ui_pipeline_new (spec, "katua");
  g_signal_connect (pipeline, "frame", G_CALLBACK (on_frame), &w);
  g_signal_connect (pipeline, "status", G_CALLBACK (on_status), &w);
  g_autoptr (GError) error = NULL;
  cr_assert (ui_pipeline_start (pipeline, &error), "%s", error ? error->message : "");
  run (&w, 30);
  cr_assert_not_null (strstr (w.status ? w.status : "", "older format"), "status: %s", w.status);
  w.wait_for = "another printing";
  run (&w, 30);
  cr_assert_not_null (strstr (w.status ? w.status : "", "another printing"), "status: %s", w.status);
  cr_expect_null (strstr (w.status, "red cat"), "the card claimed is not named: %s", w.status);
  /* neither is taken as the card it claims */
  guint n = 0;
  const VisDetection *d = ui_pipeline_get_detections (pipeline, &n);
  for (guint i = 0; i < n; i++)
    cr_expect_neq (d[i].tag.kind, ENG_TAG_FACE, "a face read: %s", d[i].payload);
  stop (pipeline, &w);
  g_unlink (path);
  g_rmdir (dir);
  g_free (w.status);
  g_main_loop_unref (w.loop);
}
