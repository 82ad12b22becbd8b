/* sticker-test-util.h: running the external tools of the sticker proofs
 * (tablero-cli, pdftoppm, pdftotext, pdfinfo, zbarimg) and handling the
 * greyscale images they exchange.  Test-only; aborts the test on misuse. */
#pragma once

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int exit_status;   /* the exit code, or -1 when killed or not started */
  char *out;         /* captured stdout / stderr (g_free'd by st_run_clear) */
  char *err;
} StRun;

/* Runs argv (NULL-terminated; argv[0] a path) with `cwd` (may be NULL) and
 * waits.  Returns false only when it could not start. */
bool st_run (const char *const *argv, const char *cwd, StRun *out);
/* Same, argv given as a GPtrArray of char * (NULL-terminated by this call). */
bool st_run_array (GPtrArray *argv, const char *cwd, StRun *out);
void st_run_clear (StRun *run);

/* A new empty temporary directory (g_free the name) and its removal. */
char *st_tmpdir (void);
void st_rm_rf (const char *path);

/* An 8-bit greyscale image (PGM P5). */
typedef struct {
  int width;
  int height;
  uint8_t *pixels;   /* row-major, g_free */
} StGray;

bool st_gray_read_pgm (const char *path, StGray *out);
/* Writes the part of `img` inside the rectangle (clipped to the image). */
bool st_gray_write_pgm_crop (const StGray *img, int x, int y, int w, int h, const char *path);
void st_gray_clear (StGray *img);

/* Decodes QR codes in each of `paths` with `zbarimg --xml` and returns, per
 * path (same order), a GPtrArray of the payloads found there (strings).
 * Returns NULL when zbarimg could not run or printed no XML. */
GPtrArray *st_zbar_decode (const char *zbarimg, GPtrArray *paths);
