/* libFuzzer target: cal_table_parse (a table calibration file, `tablero-cli
 * scan --calibrate`'s output) on arbitrary bytes.  What loads must hold
 * together, and cal_table_save must write it so that it loads again in
 * the same state (seats too, when calibrated).
 *
 * cal-table.c is pure C, but the calibration library also holds the lens
 * model (cal-lens.cpp, OpenCV), which the fuzz build leaves out; so
 * cal-table.c and cal-zones.c are compiled into this target and the
 * OpenCV functions cal-table.c calls are stand-ins here: the lens maps are
 * identities and fitting a homography aborts (only calibrating from
 * detections fits one; parsing and the calls below never do). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz-util.h"
#include "cal-table.h"


int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

void
cal_lens_undistort_points (const CalLens *lens, double *xy, size_t n)
{
  (void) lens, (void) xy, (void) n;
}

void
cal_lens_distort_points (const CalLens *lens, double *xy, size_t n)
{
  (void) lens, (void) xy, (void) n;
}

EngStatus
cal_fit_homography (const double *src, const double *dst, size_t n, double h[9])
{
  (void) src, (void) dst, (void) n, (void) h;
  abort ();
}

static char saved_path[64];

static void
remove_saved (void)
{
  unlink (saved_path);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  snprintf (saved_path, sizeof saved_path, "/tmp/tablero-fuzz-cal-XXXXXX");
  int fd = mkstemp (saved_path);
  if (fd < 0)
    abort ();
  close (fd);
  atexit (remove_saved);
  return 0;
}

static void
check_loaded (const CalTable *t)
{
  size_t n_seats = cal_table_n_seats (t);
  if (n_seats > CAL_MAX_SEATS || cal_table_zones_game (t) == NULL)
    abort ();
  for (size_t i = 0; i < n_seats; i++)
    {
      const CalSeat *s = cal_table_seat (t, i);
      if (s == NULL || cal_table_seat_by_number (t, s->number) == NULL)
        abort ();
    }
  double mm[4][2], x, y;
  (void) cal_table_anchor_layout (t, mm);
  cal_table_centre (t, &x, &y);
  EngStatus a = cal_table_image_to_table (t, 10, 20, &x, &y);
  EngStatus b = cal_table_table_to_image (t, 10, 20, &x, &y);
  if ((a == ENG_OK) != cal_table_is_calibrated (t) || (b == ENG_OK) != cal_table_is_calibrated (t))
    abort ();
  CalZoneOutline out[8];
  if (cal_table_zone_outlines (t, out, 8) != 0)   /* no zones are set */
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  CalTable *t = NULL;
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = cal_table_parse (text, size, "fuzz", &t, &err);
  free (text);
  if (st != ENG_OK)
    {
      fuzz_check_refusal (t != NULL, &err);
      return 0;
    }
  if (t == NULL)
    abort ();
  check_loaded (t);
  /* What is saved loads again, alike. */
  if (cal_table_save (t, saved_path) != ENG_OK)
    abort ();
  CalTable *back = NULL;
  if (cal_table_load (saved_path, &back, &err) != ENG_OK)
    {
      fprintf (stderr, "saved calibration does not load: %s:%u: %s\n", err.source, err.line,
               err.reason);
      abort ();
    }
  /* seats are saved with the homography they were found with */
  if ((cal_table_is_calibrated (t) && cal_table_n_seats (back) != cal_table_n_seats (t))
      || cal_table_is_calibrated (back) != cal_table_is_calibrated (t)
      || cal_table_has_lens (back) != cal_table_has_lens (t)
      || strcmp (cal_table_zones_game (back), cal_table_zones_game (t)) != 0)
    abort ();
  cal_table_free (back);
  cal_table_free (t);
  return 0;
}
