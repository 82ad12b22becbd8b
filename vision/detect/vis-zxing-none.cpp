/* vis-zxing-none.cpp: the build found no ZXing-cpp (see vis-baseline.h). */
extern "C" {
#include "eng-status.h"
}
#include "vis-baseline.h"
#include "vis-detect-zxing.h"

int
vis_detect::zxing_read_crop (const cv::Mat &img, bool (*accept) (void *, const char *, size_t), void *user)
{
  (void) img;
  (void) accept;
  (void) user;
  return -1;
}

extern "C" int
vis_zxing_available (void)
{
  return 0;
}

extern "C" EngStatus
vis_zxing_full_scan (const EngPrinting *printing, const VisImage *frame, VisDetection *out, size_t cap,
                     size_t *n_out, unsigned *n_foreign)
{
  (void) printing;
  (void) frame;
  (void) out;
  (void) cap;
  if (n_out != nullptr)
    *n_out = 0;
  if (n_foreign != nullptr)
    *n_foreign = 0;
  return ENG_ERR_NOT_SUPPORTED;
}
