/* libFuzzer target: cal_zones_parse (data/zones/GAME.zones) on arbitrary
 * bytes, then the loaded layout placed at a table with seats: every point
 * is found in some zone or none, every outline written stays in bounds.
 * cal-zones.c is pure C; the fuzz build compiles it into this target
 * (calibration's library needs OpenCV, which the fuzz build leaves out). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "cal-zones.h"


int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_loaded (const CalZones *z)
{
  if (z->n > CAL_ZONES_MAX || memchr (z->game, '\0', sizeof z->game) == NULL)
    abort ();
  for (size_t i = 0; i < z->n; i++)
    if (z->zones[i].kind >= ENG_ZONE_KIND_COUNT
        || memchr (z->zones[i].name, '\0', sizeof z->zones[i].name) == NULL)
      abort ();
  /* Four seats round a 600 mm table, facing its centre. */
  const CalSeat seats[4] = {
    { 1, 0, -300, 0, 1 }, { 2, 300, 0, -1, 0 }, { 3, 0, 300, 0, -1 }, { 4, -300, 0, 1, 0 },
  };
  for (size_t n_seats = 0; n_seats <= 4; n_seats += 2)
    {
      CalZoneOutline out[CAL_ZONES_MAX * 4];
      size_t n = cal_zones_outlines (z, seats, n_seats, 0, 0, out, CAL_ZONES_MAX * 4);
      if (n > z->n * (n_seats ? n_seats : 1))
        abort ();
      (void) cal_zones_outlines (z, seats, n_seats, 0, 0, out, 1);
      for (int x = -400; x <= 400; x += 50)
        for (int y = -400; y <= 400; y += 50)
          {
            EngZone found = cal_zones_find (z, seats, n_seats, 0, 0, x, y);
            if (found.kind != ENG_ZONE_NONE && found.seat >= (int) n_seats && found.seat != -1)
              abort ();
          }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  CalZones *zones = malloc (sizeof *zones);
  if (zones == NULL)
    {
      free (text);
      return 0;
    }
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = cal_zones_parse (text, size, "fuzz", zones, &err);
  free (text);
  if (st == ENG_OK)
    check_loaded (zones);
  else
    fuzz_check_refusal (false, &err);
  free (zones);
  return 0;
}
