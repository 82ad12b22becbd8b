/* vis-baseline.cpp: full-frame zbar for the benchmark (see vis-baseline.h). */
extern "C" {
#include "eng-status.h"
#include "eng-tag.h"
}
#include "vis-baseline.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <zbar.h>
#include <algorithm>

#include <cmath>
#include <cstring>
#include <new>

#include "vis-baseline-private.h"

struct VisZbarFull {
  zbar::zbar_image_scanner_t *scanner = nullptr;
  zbar::zbar_image_t *image = nullptr;
  cv::Mat gray;
};

extern "C" VisZbarFull *
vis_zbar_full_new (void)
{
  VisZbarFull *z = new (std::nothrow) VisZbarFull;
  if (z == nullptr)
    return nullptr;
  z->scanner = zbar::zbar_image_scanner_create ();
  z->image = zbar::zbar_image_create ();
  if (z->scanner == nullptr || z->image == nullptr)
    {
      vis_zbar_full_free (z);
      return nullptr;
    }
  zbar::zbar_image_scanner_set_config (z->scanner, zbar::ZBAR_NONE, zbar::ZBAR_CFG_ENABLE, 0);
  zbar::zbar_image_scanner_set_config (z->scanner, zbar::ZBAR_QRCODE, zbar::ZBAR_CFG_ENABLE, 1);
  zbar::zbar_image_set_format (z->image, zbar_fourcc ('Y', '8', '0', '0'));
  return z;
}

extern "C" void
vis_zbar_full_free (VisZbarFull *z)
{
  if (z == nullptr)
    return;
  if (z->image != nullptr)
    zbar::zbar_image_destroy (z->image);
  if (z->scanner != nullptr)
    zbar::zbar_image_scanner_destroy (z->scanner);
  delete z;
}

/* Fills a detection from a decoded sticker text and four corners in symbol
 * order (TL, TR, BR, BL).  Returns false for anything that is not a sticker
 * of `printing`. */
bool
vis_baseline_fill (const EngPrinting *printing, const char *data, size_t len, const float xy[4][2],
                   VisDetection *d)
{
  std::memset (d, 0, sizeof *d);
  if (eng_printing_check (printing, data, len, &d->tag) != ENG_OK)
    return false;
  std::memcpy (d->payload, data, ENG_TAG_PAYLOAD_LEN);
  float side = 0, cx = 0, cy = 0;
  for (int k = 0; k < 4; k++)
    {
      d->corners[k].x = xy[k][0];
      d->corners[k].y = xy[k][1];
      cx += xy[k][0] * 0.25f;
      cy += xy[k][1] * 0.25f;
      side += std::hypot (xy[(k + 1) % 4][0] - xy[k][0], xy[(k + 1) % 4][1] - xy[k][1]);
    }
  d->centre.x = cx;
  d->centre.y = cy;
  d->module_px = side / (4.0f * 21.0f);
  float ang = (float) (std::atan2 (xy[1][1] - xy[0][1], xy[1][0] - xy[0][0]) * 180.0 / M_PI);
  d->rotation_deg = ang < 0 ? ang + 360.0f : ang;
  return true;
}

namespace {

/* Runs zbar over the whole frame; the symbols stay in z->image until
 * scan_done.  Returns ENG_OK, ENG_ERR_INVALID_ARGUMENT, ENG_ERR_NO_MEMORY. */
EngStatus
scan_frame (VisZbarFull *z, const VisImage *frame)
{
  if (z == nullptr || frame == nullptr || frame->data == nullptr || frame->width < 1 || frame->height < 1
      || (frame->format != VIS_PIXEL_GRAY8 && frame->format != VIS_PIXEL_BGR8))
    return ENG_ERR_INVALID_ARGUMENT;
  try
    {
      if (frame->format == VIS_PIXEL_BGR8)
        cv::cvtColor (cv::Mat (frame->height, frame->width, CV_8UC3, frame->data, frame->stride),
                      z->gray, cv::COLOR_BGR2GRAY);
      else
        cv::Mat (frame->height, frame->width, CV_8UC1, frame->data, frame->stride).copyTo (z->gray);
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_NO_MEMORY;
    }
  zbar::zbar_image_set_size (z->image, (unsigned) z->gray.cols, (unsigned) z->gray.rows);
  zbar::zbar_image_set_data (z->image, z->gray.data, z->gray.total (), nullptr);
  zbar::zbar_scan_image (z->scanner, z->image);
  return ENG_OK;
}

void
scan_done (VisZbarFull *z)
{
  zbar::zbar_image_set_data (z->image, nullptr, 0, nullptr);
}

/* A QR symbol's four corners in symbol order (TL, TR, BR, BL); zbar lists
 * the outline as TL, BL, BR, TR. */
void
symbol_corners (const zbar::zbar_symbol_t *sym, float xy[4][2])
{
  static const int order[4] = { 0, 3, 2, 1 };
  std::memset (xy, 0, 4 * sizeof xy[0]);
  unsigned np = zbar::zbar_symbol_get_loc_size (sym);
  for (unsigned k = 0; k < 4 && k < np; k++)
    {
      xy[order[k]][0] = (float) zbar::zbar_symbol_get_loc_x (sym, k) + 0.5f;
      xy[order[k]][1] = (float) zbar::zbar_symbol_get_loc_y (sym, k) + 0.5f;
    }
}

} // namespace

extern "C" EngStatus
vis_zbar_full_scan (VisZbarFull *z, const EngPrinting *printing, const VisImage *frame, VisDetection *out,
                    size_t cap, size_t *n_out, unsigned *n_foreign)
{
  if (n_out == nullptr || n_foreign == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  *n_out = 0;
  *n_foreign = 0;
  EngStatus st = scan_frame (z, frame);
  if (st != ENG_OK)
    return st;
  for (const zbar::zbar_symbol_t *sym = zbar::zbar_image_first_symbol (z->image); sym != nullptr;
       sym = zbar::zbar_symbol_next (sym))
    {
      if (zbar::zbar_symbol_get_type (sym) != zbar::ZBAR_QRCODE)
        continue;
      float xy[4][2];
      symbol_corners (sym, xy);
      VisDetection d;
      if (!vis_baseline_fill (printing, zbar::zbar_symbol_get_data (sym), zbar::zbar_symbol_get_data_length (sym),
                              xy, &d))
        {
          (*n_foreign)++;
          continue;
        }
      if (*n_out < cap)
        out[(*n_out)++] = d;
    }
  scan_done (z);
  return ENG_OK;
}

extern "C" EngStatus
vis_zbar_full_codes (VisZbarFull *z, const VisImage *frame, VisCode *out, size_t cap, size_t *n_out)
{
  if (n_out == nullptr || (out == nullptr && cap > 0))
    return ENG_ERR_INVALID_ARGUMENT;
  *n_out = 0;
  EngStatus st = scan_frame (z, frame);
  if (st != ENG_OK)
    return st;
  for (const zbar::zbar_symbol_t *sym = zbar::zbar_image_first_symbol (z->image);
       sym != nullptr && *n_out < cap; sym = zbar::zbar_symbol_next (sym))
    {
      if (zbar::zbar_symbol_get_type (sym) != zbar::ZBAR_QRCODE)
        continue;
      VisCode *c = &out[(*n_out)++];
      std::memset (c, 0, sizeof *c);
      const char *data = zbar::zbar_symbol_get_data (sym);
      c->len = zbar::zbar_symbol_get_data_length (sym);
      std::memcpy (c->text, data, std::min (c->len, sizeof c->text - 1));
      float xy[4][2];
      symbol_corners (sym, xy);
      for (int k = 0; k < 4; k++)
        {
          c->corners[k] = VisPoint{ xy[k][0], xy[k][1] };
          c->centre.x += xy[k][0] * 0.25f;
          c->centre.y += xy[k][1] * 0.25f;
        }
    }
  scan_done (z);
  return ENG_OK;
}
