/* vis-imageio.cpp: see vis-imageio.h. */
extern "C" {
#include "eng-status.h"
}
#include "vis-imageio.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void
say (char *reason, size_t len, const char *text)
{
  if (reason != nullptr && len > 0)
    std::snprintf (reason, len, "%s", text);
}

/* Decoders tolerate a missing tail (a JPEG without its end marker decodes
 * to a grey-padded picture), so truncation is checked on the bytes. */
const char *
truncation (const std::vector<uchar> &b)
{
  size_t n = b.size ();
  if (n >= 2 && b[0] == 0xFF && b[1] == 0xD8)
    {
      /* JPEG: an end-of-image marker, allowing trailing padding. */
      size_t end = n;
      while (end > 2 && (b[end - 1] == 0x00 || b[end - 1] == 0x0A || b[end - 1] == 0x0D))
        end--;
      if (end < 4 || b[end - 2] != 0xFF || b[end - 1] != 0xD9)
        return "truncated JPEG (no end-of-image marker)";
    }
  else if (n >= 8 && std::memcmp (b.data (), "\x89PNG\r\n\x1a\n", 8) == 0)
    {
      if (n < 20 || std::memcmp (b.data () + n - 8, "IEND", 4) != 0)
        return "truncated PNG (no IEND chunk)";
    }
  return nullptr;
}

unsigned
be16 (const uint8_t *p)
{
  return (unsigned) p[0] << 8 | p[1];
}

unsigned long
be32 (const uint8_t *p)
{
  return (unsigned long) p[0] << 24 | (unsigned long) p[1] << 16 | (unsigned long) p[2] << 8 | p[3];
}

} // namespace

extern "C" bool
vis_image_declared_size (const uint8_t *b, size_t n, int *width, int *height)
{
  if (n >= 24 && std::memcmp (b, "\x89PNG\r\n\x1a\n", 8) == 0 && std::memcmp (b + 12, "IHDR", 4) == 0)
    {
      unsigned long w = be32 (b + 16), h = be32 (b + 20);
      *width = w > INT32_MAX ? INT32_MAX : (int) w;
      *height = h > INT32_MAX ? INT32_MAX : (int) h;
      return true;
    }
  if (n < 4 || b[0] != 0xFF || b[1] != 0xD8)
    return false;
  /* JPEG: walk the segments up to the frame header (SOF0-SOF15 but DHT,
   * JPG and DAC); the scan data starts only after it. */
  size_t i = 2;
  while (i + 4 <= n)
    {
      if (b[i] != 0xFF)
        return false;
      uint8_t m = b[i + 1];
      if (m == 0xFF)
        {
          i++;   /* fill byte */
          continue;
        }
      if (m == 0x01 || (m >= 0xD0 && m <= 0xD8))
        {
          i += 2;
          continue;
        }
      if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC)
        {
          if (i + 9 > n)
            return false;
          *height = (int) be16 (b + i + 5);
          *width = (int) be16 (b + i + 7);
          return true;
        }
      if (m == 0xDA || m == 0xD9)
        return false;
      i += 2 + be16 (b + i + 2);
    }
  return false;
}

extern "C" bool
vis_image_size_ok (long width, long height, char *reason, size_t reason_len)
{
  if (width > 0 && height > 0 && width <= VIS_IMAGE_MAX_SIDE && height <= VIS_IMAGE_MAX_SIDE
      && width * height <= VIS_IMAGE_MAX_PIXELS)
    return true;
  if (reason != nullptr && reason_len > 0)
    std::snprintf (reason, reason_len, "image of %ldx%ld px is larger than Tablero reads (%d px a side, %ld Mpx)",
                   width, height, VIS_IMAGE_MAX_SIDE, VIS_IMAGE_MAX_PIXELS / (1024 * 1024));
  return false;
}

extern "C" EngStatus
vis_image_load (const char *path, VisImage *out, char *reason, size_t reason_len)
{
  if (out == nullptr || path == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  std::memset (out, 0, sizeof *out);
  FILE *f = std::fopen (path, "rb");
  if (f == nullptr)
    {
      say (reason, reason_len, std::strerror (errno));
      return ENG_ERR_IO;
    }
  std::vector<uchar> bytes;
  try
    {
      uchar chunk[65536];
      size_t got;
      while ((got = std::fread (chunk, 1, sizeof chunk, f)) > 0)
        bytes.insert (bytes.end (), chunk, chunk + got);
    }
  catch (const std::bad_alloc &)
    {
      std::fclose (f);
      return ENG_ERR_NO_MEMORY;
    }
  bool read_error = std::ferror (f) != 0;
  std::fclose (f);
  if (read_error)
    {
      say (reason, reason_len, "read error");
      return ENG_ERR_IO;
    }
  if (bytes.empty ())
    {
      say (reason, reason_len, "empty file");
      return ENG_ERR_SYNTAX;
    }
  if (const char *why = truncation (bytes))
    {
      say (reason, reason_len, why);
      return ENG_ERR_SYNTAX;
    }
  int declared_w, declared_h;
  if (vis_image_declared_size (bytes.data (), bytes.size (), &declared_w, &declared_h)
      && !vis_image_size_ok (declared_w, declared_h, reason, reason_len))
    return ENG_ERR_LIMIT;
  cv::Mat m;
  try
    {
      m = cv::imdecode (bytes, cv::IMREAD_COLOR);
    }
  catch (const cv::Exception &)
    {
      m.release ();
    }
  if (m.empty () || m.type () != CV_8UC3)
    {
      say (reason, reason_len, "not a readable image (corrupt or unknown format)");
      return ENG_ERR_SYNTAX;
    }
  if (!vis_image_size_ok (m.cols, m.rows, reason, reason_len))
    return ENG_ERR_LIMIT;   /* a format whose header is not read above */
  size_t size = m.total () * 3;
  uint8_t *px = (uint8_t *) std::malloc (size);
  if (px == nullptr)
    return ENG_ERR_NO_MEMORY;
  for (int y = 0; y < m.rows; y++)
    std::memcpy (px + (size_t) y * m.cols * 3, m.ptr (y), (size_t) m.cols * 3);
  out->width = m.cols;
  out->height = m.rows;
  out->stride = (size_t) m.cols * 3;
  out->format = VIS_PIXEL_BGR8;
  out->data = px;
  return ENG_OK;
}

extern "C" void
vis_image_release (VisImage *image)
{
  if (image == nullptr)
    return;
  std::free (image->data);
  std::memset (image, 0, sizeof *image);
}

extern "C" EngStatus
vis_image_save (const VisImage *image, const char *path)
{
  if (image == nullptr || image->data == nullptr || path == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  try
    {
      cv::Mat m (image->height, image->width, image->format == VIS_PIXEL_BGR8 ? CV_8UC3 : CV_8UC1,
                 image->data, image->stride);
      return cv::imwrite (path, m) ? ENG_OK : ENG_ERR_IO;
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_IO;
    }
}
