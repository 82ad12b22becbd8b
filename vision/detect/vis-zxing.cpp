/* vis-zxing.cpp: ZXing-cpp over the full frame, for the benchmark only.
 * Compiled only when the build found libzxing. */
extern "C" {
#include "eng-status.h"
#include "eng-tag.h"
}
#include "vis-baseline.h"

/* text() as UTF-8 std::string (the 1.4 transition switch). */
#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "vis-baseline-private.h"
#include "vis-detect-zxing.h"

int
vis_detect::zxing_read_crop (const cv::Mat &img, bool (*accept) (void *, const char *, size_t), void *user)
{
  ZXing::ImageView view (img.data, img.cols, img.rows, ZXing::ImageFormat::Lum, (int) img.step);
  ZXing::DecodeHints hints;
  hints.setFormats (ZXing::BarcodeFormat::QRCode);
  hints.setTryRotate (false);
  hints.setMaxNumberOfSymbols (1);
  ZXing::Result r = ZXing::ReadBarcode (view, hints);
  if (!r.isValid ())
    return -1;
  std::string text = r.text ();
  return accept (user, text.data (), text.size ()) ? 1 : 0;
}

extern "C" int
vis_zxing_available (void)
{
  return 1;
}

extern "C" EngStatus
vis_zxing_full_scan (const EngPrinting *printing, const VisImage *frame, VisDetection *out, size_t cap,
                     size_t *n_out, unsigned *n_foreign)
{
  if (frame == nullptr || frame->data == nullptr || n_out == nullptr || n_foreign == nullptr
      || (frame->format != VIS_PIXEL_GRAY8 && frame->format != VIS_PIXEL_BGR8))
    return ENG_ERR_INVALID_ARGUMENT;
  *n_out = 0;
  *n_foreign = 0;
  try
    {
      ZXing::ImageView view (frame->data, frame->width, frame->height,
                             frame->format == VIS_PIXEL_BGR8 ? ZXing::ImageFormat::BGR
                                                             : ZXing::ImageFormat::Lum,
                             (int) frame->stride);
      ZXing::DecodeHints hints;
      hints.setFormats (ZXing::BarcodeFormat::QRCode);
      hints.setTryRotate (false);
      ZXing::Results results = ZXing::ReadBarcodes (view, hints);
      for (const ZXing::Result &r : results)
        {
          if (!r.isValid ())
            continue;
          std::string text = r.text ();
          const ZXing::Position &p = r.position ();
          float xy[4][2];
          for (int k = 0; k < 4; k++)
            {
              xy[k][0] = (float) p[k].x + 0.5f;
              xy[k][1] = (float) p[k].y + 0.5f;
            }
          VisDetection d;
          if (!vis_baseline_fill (printing, text.data (), text.size (), xy, &d))
            {
              (*n_foreign)++;
              continue;
            }
          if (*n_out < cap)
            out[(*n_out)++] = d;
        }
    }
  catch (const std::bad_alloc &)
    {
      return ENG_ERR_NO_MEMORY;
    }
  return ENG_OK;
}
