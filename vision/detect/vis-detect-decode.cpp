/* vis-detect-decode.cpp: reading one candidate code.  See
 * vis-detect-private.h. */
#include "vis-detect-private.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace vis_detect {

void
fill_geometry (const cv::Matx33d &h, VisDetection *d)
{
  static const float mx[4] = { 0, (float) QR_MODULES, (float) QR_MODULES, 0 };
  static const float my[4] = { 0, 0, (float) QR_MODULES, (float) QR_MODULES };
  float side = 0;
  for (int k = 0; k < 4; k++)
    {
      cv::Point2f p = apply (h, mx[k], my[k]);
      d->corners[k].x = p.x;
      d->corners[k].y = p.y;
    }
  for (int k = 0; k < 4; k++)
    side += std::hypot (d->corners[(k + 1) % 4].x - d->corners[k].x,
                        d->corners[(k + 1) % 4].y - d->corners[k].y);
  cv::Point2f c = apply (h, QR_MODULES * 0.5, QR_MODULES * 0.5);
  d->centre.x = c.x;
  d->centre.y = c.y;
  d->module_px = side / (4.0f * QR_MODULES);
  float ang = (float) (std::atan2 (d->corners[1].y - d->corners[0].y,
                                   d->corners[1].x - d->corners[0].x) * 180.0 / M_PI);
  if (ang < 0)
    ang += 360.0f;
  if (ang >= 360.0f)
    ang -= 360.0f;
  d->rotation_deg = ang;
}

namespace {

/* Samples every module centre through `h` (mean of 4 bilinear points a
 * sixth of a module around it); outside the image reads white. */
void
sample_modules (const cv::Mat &g, const cv::Matx33d &h, float *samples)
{
  for (int my = 0; my < QR_MODULES; my++)
    for (int mx = 0; mx < QR_MODULES; mx++)
      {
        float acc = 0.0f;
        for (int k = 0; k < 4; k++)
          {
            double ox = (k & 1) ? 0.67 : 0.33, oy = (k & 2) ? 0.67 : 0.33;
            cv::Point2f p = apply (h, mx + ox, my + oy);
            float x = p.x - 0.5f, y = p.y - 0.5f;
            int x0 = (int) std::floor (x), y0 = (int) std::floor (y);
            if (x0 < 0 || y0 < 0 || x0 + 1 >= g.cols || y0 + 1 >= g.rows)
              {
                acc += 255.0f;
                continue;
              }
            float fx = x - x0, fy = y - y0;
            const uint8_t *r0 = g.ptr<uint8_t> (y0) + x0;
            const uint8_t *r1 = g.ptr<uint8_t> (y0 + 1) + x0;
            acc += (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
          }
        samples[my * QR_MODULES + mx] = acc * 0.25f;
      }
}

/* What a version-1 symbol holds at module (mx, my) whatever its data: 1
 * dark, 0 light, -1 for data and format modules.  The three finders with
 * their separators, the two timing lines and the dark module beside the
 * bottom-left finder. */
int
function_module (int mx, int my)
{
  auto finder = [] (int x, int y) {
    if (x == 7 || y == 7)
      return 0;
    return std::max (std::abs (x - 3), std::abs (y - 3)) == 2 ? 0 : 1;
  };
  if (mx < 8 && my < 8)
    return finder (mx, my);
  if (mx >= 13 && my < 8)
    return finder (QR_MODULES - 1 - mx, my);
  if (mx < 8 && my >= 13)
    return finder (mx, QR_MODULES - 1 - my);
  if (my == 6)
    return mx % 2 == 0;
  if (mx == 6)
    return my % 2 == 0;
  if (mx == 8 && my == 13)
    return 1;
  return -1;
}

/* Two-class split of the module samples (Otsu on 441 values, 32 bins). */
float
sample_cut (const float *samples)
{
  float lo_v = 255.0f, hi_v = 0.0f;
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    {
      lo_v = std::min (lo_v, samples[i]);
      hi_v = std::max (hi_v, samples[i]);
    }
  if (hi_v - lo_v <= 1.0f)
    return 0.5f * (lo_v + hi_v);
  int hist[32] = { 0 };
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    hist[std::min (31, (int) ((samples[i] - lo_v) / (hi_v - lo_v) * 32.0f))]++;
  double total = QR_MODULES * QR_MODULES, sum = 0, sum_b = 0, w_b = 0, best = -1;
  for (int i = 0; i < 32; i++)
    sum += i * (double) hist[i];
  int best_i = 16;
  for (int i = 0; i < 31; i++)
    {
      w_b += hist[i];
      if (w_b == 0 || w_b == total)
        continue;
      sum_b += i * (double) hist[i];
      double m_b = sum_b / w_b, m_f = (sum - sum_b) / (total - w_b);
      double between = w_b * (total - w_b) * (m_b - m_f) * (m_b - m_f);
      if (between > best)
        {
          best = between;
          best_i = i;
        }
    }
  return lo_v + (best_i + 1) * (hi_v - lo_v) / 32.0f;
}

/* Fewest bits by which either copy of the format information (15 bits,
 * BCH(15,5), masked) read from the samples differs from a valid one.  A
 * wrong grid reads noise there: within one bit of one of the 32 valid words
 * by chance once in 60, which makes this a cheap test of a guessed grid
 * before anything is decoded.  Positions as ISO/IEC 18004 lays them out
 * (bit 14 first). */
int
format_errors (const float *samples)
{
  const float cut = sample_cut (samples);
  auto dark = [&] (int row, int col) { return samples[row * QR_MODULES + col] < cut ? 1u : 0u; };
  unsigned first = 0, second = 0;
  for (int i = 0; i < 6; i++)
    first = first << 1 | dark (8, i);
  first = first << 1 | dark (8, 7);
  first = first << 1 | dark (8, 8);
  first = first << 1 | dark (7, 8);
  for (int j = 5; j >= 0; j--)
    first = first << 1 | dark (j, 8);
  for (int j = QR_MODULES - 1; j >= QR_MODULES - 7; j--)
    second = second << 1 | dark (j, 8);
  for (int i = QR_MODULES - 8; i < QR_MODULES; i++)
    second = second << 1 | dark (8, i);
  /* The 32 valid words: 5 data bits, their BCH remainder, the mask. */
  static const std::array<unsigned, 32> words = [] {
    std::array<unsigned, 32> w{};
    for (unsigned d = 0; d < 32; d++)
      {
        unsigned v = d << 10;
        for (int i = 14; i >= 10; i--)
          if (v & (1u << i))
            v ^= 0x537u << (i - 10);
        w[d] = ((d << 10) | v) ^ 0x5412u;
      }
    return w;
  }();
  int best = 15;
  for (unsigned word : words)
    best = std::min ({ best, __builtin_popcount (word ^ first), __builtin_popcount (word ^ second) });
  return best;
}

/* Takes back what a blur of about a module spills into each module from its
 * four neighbours (an unsharp mask on the module grid). */
void
sharpen_samples (const float *in, float *out)
{
  constexpr float AMOUNT = 0.8f;
  for (int my = 0; my < QR_MODULES; my++)
    for (int mx = 0; mx < QR_MODULES; mx++)
      {
        float v = in[my * QR_MODULES + mx], acc = 0.0f;
        int n = 0;
        if (mx > 0)
          acc += in[my * QR_MODULES + mx - 1], n++;
        if (mx + 1 < QR_MODULES)
          acc += in[my * QR_MODULES + mx + 1], n++;
        if (my > 0)
          acc += in[(my - 1) * QR_MODULES + mx], n++;
        if (my + 1 < QR_MODULES)
          acc += in[(my + 1) * QR_MODULES + mx], n++;
        out[my * QR_MODULES + mx] = v + AMOUNT * (v - acc / (float) n);
      }
}

/* A crisp re-drawing of the symbol with a white quiet zone: zbar reads this
 * far more reliably than the blurred original, and level-Q error correction
 * absorbs a few wrong modules.  The function patterns are drawn as they must
 * be, not as sampled: a highlight on a finder or a smeared timing line then
 * costs nothing, and only data and format modules come from the image. */
void
draw_crisp (const float *samples, cv::Mat &crisp)
{
  const float cut = sample_cut (samples);
  crisp.setTo (255);
  for (int my = 0; my < QR_MODULES; my++)
    for (int r = 0; r < CRISP_PX; r++)
      {
        uint8_t *row = crisp.ptr<uint8_t> ((my + WARP_QUIET) * CRISP_PX + r) + WARP_QUIET * CRISP_PX;
        for (int mx = 0; mx < QR_MODULES; mx++)
          {
            int fixed = function_module (mx, my);
            if (fixed == 1 || (fixed < 0 && samples[my * QR_MODULES + mx] < cut))
              std::memset (row + mx * CRISP_PX, 0, CRISP_PX);
          }
      }
}

/* A decoder's text for candidate `c`: a sticker of the table's printing is
 * added to the worker's results (its 11-character tag, the seal left out)
 * with the candidate's geometry.  What zbar or ZXing read and the printing
 * refuses is counted foreign; what our own decoder offers and is refused
 * is not (it offers miscorrections too, and zbar counts a real foreign
 * code after it). */
struct Take {
  const VisDetector *det;
  Worker *w;
  const Candidate *c;
  bool count_foreign;
};

bool
take_text (void *user, const char *data, size_t len)
{
  Take *t = (Take *) user;
  Worker &w = *t->w;
  VisDetection d;
  std::memset (&d, 0, sizeof d);
  EngStatus st = eng_printing_check (w.printing, data, len, &d.tag);
  if (st != ENG_OK)
    {
      if (t->count_foreign)
        {
          w.foreign++;
          w.old_format += st == ENG_ERR_TAG_OLD_FORMAT;
          w.wrong_seal += st == ENG_ERR_TAG_SEAL;
        }
      return false;
    }
  std::memcpy (d.payload, data, ENG_TAG_PAYLOAD_LEN);
  d.payload[ENG_TAG_PAYLOAD_LEN] = '\0';
  fill_geometry (frame_h (t->det, t->c->h), &d);
  if (w.found.size () < w.found.capacity ())
    {
      w.found.push_back (d);
      w.found_reused.push_back (0);
    }
  return true;
}

/* Runs this worker's zbar on `img`.  Returns whether zbar read a QR code
 * at all (a sticker of the printing or not: see take_text). */
bool
read_code (const VisDetector *det, Worker &w, const cv::Mat &img, const Candidate &c)
{
  zbar::zbar_image_set_size (w.image, (unsigned) img.cols, (unsigned) img.rows);
  zbar::zbar_image_set_data (w.image, img.data, img.total (), nullptr);
  int n = zbar::zbar_scan_image (w.scanner, w.image);
  bool decoded = false;
  Take take = { det, &w, &c, true };
  for (const zbar::zbar_symbol_t *sym = n > 0 ? zbar::zbar_image_first_symbol (w.image) : nullptr;
       sym != nullptr; sym = zbar::zbar_symbol_next (sym))
    {
      if (zbar::zbar_symbol_get_type (sym) != zbar::ZBAR_QRCODE)
        continue;
      decoded = true;
      if (take_text (&take, zbar::zbar_symbol_get_data (sym), zbar::zbar_symbol_get_data_length (sym)))
        break;
    }
  zbar::zbar_image_set_data (w.image, nullptr, 0, nullptr);
  return decoded;
}

/* Our own decoder on the module samples: a local cut per module, saturated
 * and contrastless modules as erasures, Reed-Solomon with erasures
 * (vis-qr-decode.h).  Returns whether it read a sticker of the printing. */
bool
read_own (const VisDetector *det, Worker &w, const float *samples, const Candidate &c)
{
  vis_qr_classify (samples, nullptr, SATURATED, &w.reading);
  Take take = { det, &w, &c, false };
  return vis_qr_decode (&w.reading, take_text, &take, nullptr) == VIS_QRD_OK;
}

/* Our own decoder with the first codewords of a sticker of each set of the
 * printing taken as known (vis_qr_decode_expecting): a highlight over the
 * lower right corner, where they lie, costs nothing then. */
bool
read_expecting (const VisDetector *det, Worker &w, const float *samples, const Candidate &c)
{
  if (det->n_prefixes == 0)
    return false;
  vis_qr_classify (samples, nullptr, SATURATED, &w.reading);
  Take take = { det, &w, &c, false };
  for (int i = 0; i < det->n_prefixes; i++)
    if (vis_qr_decode_expecting (&w.reading, det->prefixes[i], ENG_STICKER_TEXT_LEN, take_text, &take, nullptr)
        == VIS_QRD_OK)
      return true;
  return false;
}

/* The share of the samples a highlight saturated (none when most are: an
 * over-exposed picture, not a highlight). */
float
glare_share (const float *samples)
{
  int n = 0;
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    n += samples[i] >= SATURATED;
  return n * 3 > QR_MODULES * QR_MODULES ? 0.0f : (float) n / (QR_MODULES * QR_MODULES);
}

/* Our own decoder on the samples with the lens's blur solved for
 * (vis_qr_deconvolve): small soft codes, where each sample holds as much
 * of the neighbours as of its module.  The saturated samples stay
 * erasures. */
bool
read_deconvolved (const VisDetector *det, Worker &w, const float *samples, const Candidate &c)
{
  if (vis_qr_deconvolve (samples, SATURATED, w.deconvolved) < 0)
    return false;
  uint8_t flagged[QR_MODULES * QR_MODULES];
  int n_saturated = 0;
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    n_saturated += flagged[i] = samples[i] >= SATURATED;
  vis_qr_classify (w.deconvolved, n_saturated * 3 > QR_MODULES * QR_MODULES ? nullptr : flagged, SATURATED,
                   &w.reading);
  Take take = { det, &w, &c, false };
  return vis_qr_decode (&w.reading, take_text, &take, nullptr) == VIS_QRD_OK;
}

/* The code sampled from the frames fused so far (update_still), when its
 * middle has stood still for two frames or more: noise and JPEG averaged
 * out of a sticker at rest. */
bool
read_fused (VisDetector *det, Worker &w, const Candidate &c)
{
  if (!det->still_now || det->still_frames.empty ())
    return false;
  cv::Point2f p = apply (c.h, QR_MODULES * 0.5, QR_MODULES * 0.5);
  int bx = (int) p.x / BLOCK, by = (int) p.y / BLOCK;
  if (bx < 0 || by < 0 || bx >= det->still_frames.cols || by >= det->still_frames.rows
      || det->still_frames.at<uint8_t> (by, bx) < 2)
    return false;
  sample_modules (det->still_grey, c.h, w.fused);
  return read_own (det, w, w.fused, c) || read_deconvolved (det, w, w.fused, c);
}

/* How cleanly the samples split in two (between-class variance over the
 * total, 0..1): highest when every sample centre sits inside its module. */
float
bimodality (const float *samples)
{
  const float cut = sample_cut (samples);
  double n0 = 0, s0 = 0, n1 = 0, s1 = 0, sq = 0;
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    {
      float v = samples[i];
      sq += (double) v * v;
      if (v < cut)
        n0++, s0 += v;
      else
        n1++, s1 += v;
    }
  const double n = n0 + n1, mean = (s0 + s1) / n, var = sq / n - mean * mean;
  if (n0 == 0 || n1 == 0 || !(var > 0))
    return 0.0f;
  const double d = s1 / n1 - s0 / n0;
  return (float) (n0 * n1 / (n * n) * d * d / var);
}

/* A guessed finder's place is only as good as the two seen ones and the
 * table's local shape: the far corner can sit half a module off.  Moves it
 * about a third of a module, then a sixth, each way along the code's axes,
 * keeping the grid whose samples split most cleanly; `samples` ends as
 * that grid's. */
void
refine_guess (VisDetector *det, Candidate &c, float *samples)
{
  int k = det->finders[c.f[0]].inferred ? 0 : det->finders[c.f[1]].inferred ? 1 : 2;
  Finder f[3] = { det->finders[c.f[0]], det->finders[c.f[1]], det->finders[c.f[2]] };
  cv::Point2f u ((float) c.h (0, 0), (float) c.h (1, 0)), v ((float) c.h (0, 1), (float) c.h (1, 1));
  float best = bimodality (samples), trial[QR_MODULES * QR_MODULES];
  cv::Matx33d h;
  cv::Point2f best_centre = f[k].centre;
  for (float step : { 0.6f, 0.3f, 0.15f })
    {
      const cv::Point2f centre = best_centre;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          {
            if (dx == 0 && dy == 0)
              continue;
            f[k].centre = centre + step * ((float) dx * u + (float) dy * v);
            if (!fit_homography (f[0], f[1], f[2], h))
              continue;
            sample_modules (det->gray, h, trial);
            float score = bimodality (trial);
            if (score > best)
              {
                best = score;
                best_centre = f[k].centre;
                c.h = h;
                std::memcpy (samples, trial, sizeof trial);
              }
          }
      f[k].centre = best_centre;
    }
}

/* Where a candidate is decoded: the work image itself, or for a frame
 * searched at half size (det->scale 2) the candidate's part of the frame
 * at full size, grey (`w.crop`, or a view of a grey frame), with `h` its
 * module->crop map.  The decoders then see every pixel the camera gave. */
void
full_view (const VisDetector *det, Worker &w, const cv::Matx33d &work_h, cv::Mat &img, cv::Matx33d &h)
{
  img = det->gray;
  h = work_h;
  if (det->scale == 1)
    return;
  const VisImage *f = det->frame;
  const cv::Matx33d H = frame_h (det, work_h);
  float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (int k = 0; k < 4; k++)
    {
      cv::Point2f p = apply (H, (k & 1) ? QR_MODULES + WARP_QUIET : -WARP_QUIET,
                             (k & 2) ? QR_MODULES + WARP_QUIET : -WARP_QUIET);
      x0 = std::min (x0, p.x), y0 = std::min (y0, p.y), x1 = std::max (x1, p.x), y1 = std::max (y1, p.y);
    }
  cv::Rect r ((int) std::floor (x0) - 2, (int) std::floor (y0) - 2, 0, 0);
  r.width = (int) std::ceil (x1) + 2 - r.x;
  r.height = (int) std::ceil (y1) + 2 - r.y;
  r &= cv::Rect (0, 0, f->width, f->height);
  if (r.width < 8 || r.height < 8)
    return;
  if (f->format == VIS_PIXEL_GRAY8)
    img = cv::Mat (f->height, f->width, CV_8UC1, (void *) f->data, f->stride) (r);
  else
    {
      cv::Mat bgr (f->height, f->width, CV_8UC3, (void *) f->data, f->stride);
      img = scratch (w.crop, r.size (), 1);
      cv::cvtColor (bgr (r), img, cv::COLOR_BGR2GRAY);
    }
  h = cv::Matx33d (1, 0, -r.x, 0, 1, -r.y, 0, 0, 1) * H;
}

void decode_samples (VisDetector *det, Worker &w, Candidate &c, cv::Mat &img, cv::Matx33d &h, float *samples);

/* Rectifies one candidate and decodes it with this worker's scanner. */
void
decode_candidate (VisDetector *det, Worker &w, Candidate &c)
{
  if (c.reuse >= 0)
    {
      VisDetection d = det->previous[c.reuse];
      fill_geometry (frame_h (det, c.h), &d);
      w.found.push_back (d);
      w.found_reused.push_back (1);
      return;
    }
  cv::Mat img;
  cv::Matx33d h;
  full_view (det, w, c.h, img, h);
  float samples[QR_MODULES * QR_MODULES];
  sample_modules (img, h, samples);
  const size_t before = w.found.size ();
  decode_samples (det, w, c, img, h, samples);
  for (size_t i = before; i < w.found.size (); i++)
    w.found[i].glare = glare_share (samples);
}

/* The decoders on candidate `c`, sampled (`samples`) from `img` through `h`,
 * in order of cost; a sticker read is added to the worker's results. */
void
decode_samples (VisDetector *det, Worker &w, Candidate &c, cv::Mat &img, cv::Matx33d &h, float *samples)
{
  /* Our own decoder first, on the samples as they are and with the blur's
   * spill taken back out: it reads most codes at once, and it is the one
   * that can tell a highlight's modules from wrong ones. */
  if (read_own (det, w, samples, c))
    return;
  sharpen_samples (samples, w.sharp);
  if (c.inferred && std::min (format_errors (samples), format_errors (w.sharp)) > 1)
    return;   /* no code's grid there: a guess, not an unread code */
  if (read_own (det, w, w.sharp, c))
    return;
  /* the blur solved for: only where a module is small enough for a soft
   * lens to mix it with its neighbours (in the image decoded) */
  const double module = std::sqrt (std::fabs (h (0, 0) * h (1, 1) - h (0, 1) * h (1, 0)));
  if (module < DECONVOLVE_MAX_MODULE && read_deconvolved (det, w, samples, c))
    return;
  if (read_fused (det, w, c))
    return;
  if (read_expecting (det, w, samples, c))
    return;
  bool sharpened = true;
  /* The crisp re-drawing is tried from the samples as they are, then with
   * the blur's spill from neighbouring modules taken back out: at 2-3 px
   * per module a light module between dark ones reads barely lighter than
   * the cut, and the sharpened copy separates them again. */
  bool decoded = false;
  for (int attempt = 0; attempt < 4 && !decoded; attempt++)
    {
      if (attempt == 2)
        {
          if (!c.inferred)
            break;
          refine_guess (det, c, samples);
          sharpened = false;
          if (det->scale > 1)
            {
              full_view (det, w, c.h, img, h);
              sample_modules (img, h, samples);
            }
          if (read_own (det, w, samples, c))
            return;
        }
      if (attempt % 2 == 1 && !sharpened)
        {
          sharpen_samples (samples, w.sharp);
          sharpened = true;
        }
      draw_crisp (attempt % 2 == 0 ? samples : w.sharp, w.crisp);
      decoded = read_code (det, w, w.crisp, c);
    }
  /* dst pixel (x, y) -> module ((x + .5) / P - Q) -> image (pixel centres at +.5). */
  const double P = WARP_PX, Q = WARP_QUIET;
  cv::Matx33d s (1.0 / P, 0, 0.5 / P - Q, 0, 1.0 / P, 0.5 / P - Q, 0, 0, 1);
  cv::Matx33d t (1, 0, -0.5, 0, 1, -0.5, 0, 0, 1);
  cv::Matx33d m = t * h * s;
  /* A guessed finder is not in the image: zbar would not find it there. */
  if (!decoded && !c.inferred)
    {
      /* Then the rectified grey image, and a binarised copy of it: blur
       * and uneven ink make zbar's own edge detector misjudge thin light
       * modules; a global threshold over the small image is fair because
       * the light varies little across one code. */
      cv::warpPerspective (img, w.warp, m, cv::Size (WARP_SIZE, WARP_SIZE),
                           cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
      /* Whatever surrounds the sticker (card art, the table) is not quiet
       * zone: paint it white beyond half a module outside the symbol. */
      const int lo = (int) ((Q - 0.5) * P), hi = (int) ((Q + QR_MODULES + 0.5) * P);
      w.warp.rowRange (0, lo).setTo (255);
      w.warp.rowRange (hi, WARP_SIZE).setTo (255);
      w.warp.colRange (0, lo).setTo (255);
      w.warp.colRange (hi, WARP_SIZE).setTo (255);
      decoded = read_code (det, w, w.warp, c);
    }
  if (!decoded && !c.inferred)
    {
      /* Ink spreads: a darker cut thins dark modules back. */
      double lo_v, hi_v;
      cv::minMaxLoc (w.warp, &lo_v, &hi_v);
      double otsu = cv::threshold (w.warp, w.warp_bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
      cv::threshold (w.warp, w.warp_bin, otsu - 0.2 * (hi_v - lo_v), 255, cv::THRESH_BINARY);
      decoded = read_code (det, w, w.warp_bin, c);
    }
  if (!decoded && !c.inferred)
    {
      /* Last, ZXing-cpp on the same rectified crop: its binariser and
       * grid fit differ from zbar's and ours, and each reads codes the
       * others miss (real photos: issue 22). */
      Take take = { det, &w, &c, true };
      decoded = zxing_read_crop (w.warp, take_text, &take) >= 0;
    }
  if (!decoded)
    {
      w.undecoded++;
      c.undecoded = true;
    }
}

} // namespace

void
decode_job (void *ctx, int job, int worker)
{
  VisDetector *det = (VisDetector *) ctx;
  try
    {
      Worker &w = det->workers[worker];
      job += det->first_job;
      decode_candidate (det, w, det->candidates[job]);
      w.found_job.resize (w.found.size (), job + det->job_base);
    }
  catch (...)
    {
      det->job_failed.store (true);
    }
}

} // namespace vis_detect
