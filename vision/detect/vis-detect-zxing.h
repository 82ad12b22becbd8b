/* vis-detect-zxing.h: ZXing-cpp as the detector's last decoder on a
 * candidate's crop.  C++ only (vis-zxing.cpp; vis-zxing-none.cpp when the
 * build has no ZXing-cpp).  Apart from vis-detect-private.h because ZXing's
 * and zbar's C++ headers cannot meet in one file. */
#pragma once

#include <opencv2/core.hpp>

#include <cstddef>

namespace vis_detect {

/* Whether ZXing-cpp decodes a QR code in `img` (GRAY8) whose text `accept`
 * takes: 1 taken, 0 decoded but refused, -1 nothing decoded (or no
 * ZXing-cpp in this build).  ZXing allocates inside: it is tried last, on
 * candidates nothing else read. */
int zxing_read_crop (const cv::Mat &img, bool (*accept) (void *, const char *, size_t), void *user);

} // namespace vis_detect
