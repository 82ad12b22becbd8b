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

} // namespace

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
