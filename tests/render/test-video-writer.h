/* test-video-writer.h: writes a small MJPEG AVI for the file-source tests
 * (OpenCV's VideoWriter is C++). */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `n_frames` 64x48 frames at 10 fps to `path`; frame i is filled with
 * grey level 20 * (i + 1).  Returns 0 on success, -1 when no writer works. */
int test_write_video (const char *path, int n_frames);

#ifdef __cplusplus
}
#endif
