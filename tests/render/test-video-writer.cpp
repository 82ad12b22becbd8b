#include "test-video-writer.h"

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

extern "C" int
test_write_video (const char *path, int n_frames)
{
  cv::VideoWriter w (path, cv::VideoWriter::fourcc ('M', 'J', 'P', 'G'), 10, cv::Size (64, 48));
  if (!w.isOpened ())
    return -1;
  for (int i = 0; i < n_frames; i++)
    w.write (cv::Mat (48, 64, CV_8UC3, cv::Scalar::all (20 * (i + 1))));
  return 0;
}
