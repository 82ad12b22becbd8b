#include "vis-exposure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* At most this many pixels of one sticker are looked at (a grid over its
 * bounding box): a 4K close-up costs what a 1080p table does. */
#define SAMPLES_PER_STICKER 2048

struct VisExposureMeter {
  uint32_t sticker[256];        /* one sticker's levels, reused */
  uint32_t white[256], black[256]; /* all stickers' white and black modules */
  int last_time;                /* the time last proposed; -1: none */
  int64_t changed_ns;           /* when it was proposed (frame time) */
  int ceiling;                  /* shortest time that clipped lately; 0: none */
  int64_t ceiling_ns;           /* when it last clipped */
};

static const char *const verdict_words[VIS_EXPOSURE_VERDICT_COUNT] = {
  [VIS_EXPOSURE_NO_STICKERS] = "no stickers",
  [VIS_EXPOSURE_SETTLING] = "settling",
  [VIS_EXPOSURE_WELL] = "well exposed",
  [VIS_EXPOSURE_SHORTER] = "shorter",
  [VIS_EXPOSURE_LONGER] = "longer",
  [VIS_EXPOSURE_AT_LIMIT] = "at its limit",
};

const char *
vis_exposure_verdict_to_string (VisExposureVerdict verdict)
{
  if ((unsigned) verdict >= VIS_EXPOSURE_VERDICT_COUNT)
    return "unknown verdict";
  return verdict_words[verdict];
}

VisExposureMeter *
vis_exposure_meter_new (void)
{
  VisExposureMeter *m = calloc (1, sizeof *m);
  if (m != NULL)
    vis_exposure_meter_reset (m);
  return m;
}

void
vis_exposure_meter_free (VisExposureMeter *meter)
{
  free (meter);
}

void
vis_exposure_meter_reset (VisExposureMeter *meter)
{
  if (meter == NULL)
    return;
  meter->last_time = -1;
  meter->changed_ns = 0;
  meter->ceiling = 0;
  meter->ceiling_ns = 0;
}

/* The level below which `share` of the `total` counts of `hist` lie. */
static float
percentile (const uint32_t hist[256], uint64_t total, float share)
{
  if (total == 0)
    return 0;
  uint64_t want = (uint64_t) ceil ((double) share * (double) total), sum = 0;
  for (int v = 0; v < 256; v++)
    {
      sum += hist[v];
      if (sum >= want && sum > 0)
        return (float) v;
    }
  return 255;
}

static uint64_t
count (const uint32_t hist[256], int from)
{
  uint64_t n = 0;
  for (int v = from; v < 256; v++)
    n += hist[v];
  return n;
}

/* One sticker's levels into m->sticker (a grid of at most
 * SAMPLES_PER_STICKER pixels inside its quad); how many. */
static uint64_t
sample_sticker (VisExposureMeter *m, const VisImage *img, const VisDetection *d)
{
  float x0 = d->corners[0].x, x1 = x0, y0 = d->corners[0].y, y1 = y0;
  for (int i = 1; i < 4; i++)
    {
      x0 = fminf (x0, d->corners[i].x), x1 = fmaxf (x1, d->corners[i].x);
      y0 = fminf (y0, d->corners[i].y), y1 = fmaxf (y1, d->corners[i].y);
    }
  int ix0 = (int) fmaxf (0, floorf (x0)), iy0 = (int) fmaxf (0, floorf (y0));
  int ix1 = (int) fminf ((float) img->width - 1, ceilf (x1));
  int iy1 = (int) fminf ((float) img->height - 1, ceilf (y1));
  memset (m->sticker, 0, sizeof m->sticker);
  if (ix1 < ix0 || iy1 < iy0)
    return 0;
  double area = (double) (ix1 - ix0 + 1) * (iy1 - iy0 + 1);
  int step = (int) fmax (1, ceil (sqrt (area / SAMPLES_PER_STICKER)));
  int bpp = img->format == VIS_PIXEL_BGR8 ? 3 : 1;
  uint64_t n = 0;
  for (int y = iy0; y <= iy1; y += step)
    {
      const uint8_t *row = img->data + (size_t) y * img->stride;
      for (int x = ix0; x <= ix1; x += step)
        {
          if (!vis_quad_contains (d->corners, x + 0.5, y + 0.5))
            continue;
          const uint8_t *p = row + (size_t) x * bpp;
          uint8_t v = p[0];
          /* the brightest channel: any one of them clipping loses the edge */
          if (bpp == 3)
            v = p[1] > v ? p[1] : v, v = p[2] > v ? p[2] : v;
          m->sticker[v]++;
          n++;
        }
    }
  return n;
}

/* Every sticker's levels, split into white and black modules at the middle
 * of its own 5th and 95th percentiles (lamps light stickers unevenly).
 * Clipping and the peak are the worst sticker's: one glossy sticker under
 * the lamp among forty matte ones is the one to protect. */
static void
measure (VisExposureMeter *m, const VisImage *img, const VisDetection *d, size_t n,
         VisExposureReading *out)
{
  memset (m->white, 0, sizeof m->white);
  memset (m->black, 0, sizeof m->black);
  double glare = 0;
  for (size_t i = 0; i < n; i++)
    {
      uint64_t got = sample_sticker (m, img, &d[i]);
      if (got == 0)
        continue;
      int split = (int) lroundf ((percentile (m->sticker, got, 0.05f) + percentile (m->sticker, got, 0.95f)) / 2);
      for (int v = 0; v < 256; v++)
        {
          if (v >= split)
            m->white[v] += m->sticker[v];
          else
            m->black[v] += m->sticker[v];
        }
      uint64_t white = count (m->sticker, split);
      float clipped = white > 0 ? (float) count (m->sticker, VIS_EXPOSURE_CLIP_LEVEL) / (float) white : 0;
      out->clipped = fmaxf (out->clipped, clipped);
      out->peak = fmaxf (out->peak, percentile (m->sticker, got, 0.995f));
      out->stickers++;
      out->samples += (unsigned) got;
      glare += d[i].glare;
    }
  if (out->stickers == 0)
    return;
  out->white = percentile (m->white, count (m->white, 0), 0.5f);
  out->black = percentile (m->black, count (m->black, 0), 0.5f);
  out->glare = (float) (glare / out->stickers);
}

/* The time `factor` times `time`, on the range's grid, within it. */
static int
scaled (int time, double factor, const VisExposureRange *r)
{
  double t = time * factor;
  int step = r->step > 0 ? r->step : 1;
  long v = r->min + lround ((t - r->min) / step) * step;
  if (v < r->min)
    v = r->min;
  if (v > r->max)
    v = r->max - (r->max - r->min) % step;
  return (int) v;
}

/* The factor the reading asks for: < 1 shorter, > 1 longer, 1 hold; sets
 * the verdict it would be. */
static double
wanted (const VisExposureMeter *m, const VisExposureReading *r, int time, VisExposureVerdict *why)
{
  if (r->clipped > VIS_EXPOSURE_CLIP_MAX)
    {
      *why = VIS_EXPOSURE_SHORTER;
      /* the more is clipped, the less the levels say: a larger step */
      double f = fmin (0.8, fmax (0.5, 1.0 - r->clipped));
      double contrast = r->white - r->black;
      if (contrast * f < VIS_EXPOSURE_MIN_CONTRAST)
        f = contrast > 0 ? fmin (1.0, VIS_EXPOSURE_MIN_CONTRAST / contrast) : 1.0;
      return f;
    }
  if (r->clipped <= VIS_EXPOSURE_CLIP_OK && r->white < VIS_EXPOSURE_WHITE_DIM)
    {
      *why = VIS_EXPOSURE_LONGER;
      double f = fmin (2.0, VIS_EXPOSURE_PEAK_TARGET / fmax (1.0, r->peak));
      if (m->ceiling > 0)
        f = fmin (f, 0.9 * m->ceiling / time);
      /* a tenth or less: not worth a visible jump in the picture */
      return f < 1.1 ? 1.0 : f;
    }
  *why = VIS_EXPOSURE_WELL;
  return 1.0;
}

EngStatus
vis_exposure_meter_update (VisExposureMeter *m, const VisImage *img, int64_t ts,
                           const VisDetection *d, size_t n, int time, const VisExposureRange *range,
                           VisExposureReading *out)
{
  if (m == NULL || img == NULL || (d == NULL && n > 0) || range == NULL || out == NULL
      || img->data == NULL || img->width <= 0 || img->height <= 0
      || vis_pixel_format_bpp (img->format) == 0
      || img->stride < (size_t) img->width * vis_pixel_format_bpp (img->format)
      || range->min < 1 || range->max < range->min || range->step < 0
      || time < range->min || time > range->max)
    return ENG_ERR_INVALID_ARGUMENT;
  memset (out, 0, sizeof *out);
  out->time = time;
  if (m->last_time >= 0 && time != m->last_time)
    vis_exposure_meter_reset (m);
  if (m->ceiling > 0 && ts - m->ceiling_ns > (int64_t) VIS_EXPOSURE_CEILING_MS * 1000000)
    m->ceiling = 0;
  if (m->last_time >= 0 && ts >= m->changed_ns && ts - m->changed_ns < (int64_t) VIS_EXPOSURE_SETTLE_MS * 1000000)
    {
      out->verdict = VIS_EXPOSURE_SETTLING;
      return ENG_OK;
    }
  measure (m, img, d, n, out);
  if (out->stickers == 0)
    {
      out->verdict = VIS_EXPOSURE_NO_STICKERS;
      return ENG_OK;
    }
  if (out->clipped > VIS_EXPOSURE_CLIP_MAX && (m->ceiling == 0 || time < m->ceiling))
    m->ceiling = time;
  if (out->clipped > VIS_EXPOSURE_CLIP_MAX)
    m->ceiling_ns = ts;
  VisExposureVerdict why;
  double f = wanted (m, out, time, &why);
  out->verdict = why;
  if (f == 1.0)
    return ENG_OK;
  int next = scaled (time, f, range);
  if ((f < 1 && next >= time) || (f > 1 && next <= time))
    {
      out->verdict = VIS_EXPOSURE_AT_LIMIT;
      return ENG_OK;
    }
  out->time = next;
  m->last_time = next;
  m->changed_ns = ts;
  return ENG_OK;
}

bool
vis_exposure_meter_serve (VisExposureMeter *meter, VisSource *source, VisCameraControls *controls,
                          const VisFrame *frame, const VisDetection *detections, size_t n,
                          VisExposureReading *out)
{
  VisExposureReading reading = { .verdict = VIS_EXPOSURE_NO_STICKERS };
  VisExposureRange range;
  bool changed = false;
  if (meter != NULL && source != NULL && controls != NULL && frame != NULL
      && controls->meter_stickers && controls->exposure == VIS_EXPOSURE_MANUAL
      && vis_source_exposure_range (source, &range))
    {
      int time = controls->exposure_time;
      if (time < 0)
        time = range.def;
      time = time < range.min ? range.min : time > range.max ? range.max : time;
      if (vis_exposure_meter_update (meter, &frame->image, frame->timestamp_ns, detections, n, time,
                                     &range, &reading) == ENG_OK
          && reading.time != time)
        {
          controls->exposure_time = reading.time;
          changed = vis_source_set_exposure_time (source, reading.time) == VIS_SOURCE_OK;
        }
    }
  if (out != NULL)
    *out = reading;
  return changed;
}
