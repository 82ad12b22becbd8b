/* vis-qr-decode.h: Tablero's own decoder for the version-1 codes its
 * stickers carry, working from module samples rather than a black-and-white
 * picture.
 *
 * The detector already knows where every module of a candidate code lies
 * (vis-detect-private.h: the grid from the finders); what decides a read on
 * a real table is which modules can be believed.  A highlight on a glossy
 * sticker saturates some modules and greys their neighbours, a shadow edge
 * or a thumb leaves others in between.  So each module is classified
 * against a *local* cut (its neighbourhood's dark and light levels, not the
 * code's), and modules that cannot be trusted are marked as erasures.
 * Reed-Solomon over GF(256) with the QR generator (roots alpha^0..alpha^12)
 * corrects e unknown errors and s erasures while 2e + s <= 13 - 1 (level Q
 * of version 1 keeps one codeword against misdecoding, ISO/IEC 18004
 * table 9): twice as many erased codewords as wrong ones.  Where no module
 * is flagged, the least confident codewords are erased in turn (generalised
 * minimum distance decoding), so a code the bare errors-only decoder gives
 * up on is still read.
 *
 * Only what Tablero prints is decoded: version 1 at level Q (the format
 * information is matched against the eight level-Q words only, BCH(15,5),
 * both copies together, each bit weighed by its confidence), numeric,
 * alphanumeric and byte segments.  The caller's `accept` function decides
 * whether a decoded text is taken (a sealed sticker of this table's
 * printing, eng_printing_check): the decoder goes on with its other
 * erasure sets and masks while texts are refused, so a miscorrection can
 * never be the answer unless it is a sealed sticker, which it is not but
 * once in 36^5 per try.
 *
 * Pure C; no allocation; thread-safe (the field tables are built once,
 * under pthread_once). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VIS_QRD_SIZE 21
#define VIS_QRD_MODULES (VIS_QRD_SIZE * VIS_QRD_SIZE)
#define VIS_QRD_CODEWORDS 26   /* version 1: 26 codewords, */
#define VIS_QRD_DATA 13        /* level Q: 13 of them data, 13 error correction */
#define VIS_QRD_TEXT_MAX 32    /* longest text version 1 holds (numeric, level Q: 27) */

/* Modules of one code, classified.  Row-major, row 0 the top as printed. */
typedef struct {
  uint8_t dark[VIS_QRD_MODULES];
  uint8_t erased[VIS_QRD_MODULES];     /* not to be trusted: saturated, no contrast,
                                          or flagged by the caller (an occluder) */
  float confidence[VIS_QRD_MODULES];   /* 0..1: distance from the local cut in local
                                          contrasts (0 for erased modules) */
} VisQrReading;

typedef enum {
  VIS_QRD_OK = 0,
  VIS_QRD_NO_FORMAT,        /* no level-Q format word near what the format bits read */
  VIS_QRD_UNCORRECTABLE,    /* no erasure set and mask gave a codeword */
  VIS_QRD_BAD_DATA,         /* codewords, but not a well-formed segment list */
  VIS_QRD_REFUSED,          /* texts were decoded, `accept` took none */
} VisQrDecodeStatus;

const char *vis_qr_decode_status_to_string (VisQrDecodeStatus status);

/* Classifies 441 grey module samples (0 dark .. 255 light; NAN for a module
 * with no sample, read as erased).  Each module is cut at the midpoint of
 * the dark and light levels of its 7x7-module neighbourhood (a two-means
 * split); a module at or above `saturated` grey, or whose neighbourhood
 * spans less than a quarter of the code's contrast (a highlight's halo, a
 * blot), is erased.  `flagged` (may be NULL): modules the caller knows are
 * hidden, erased too. */
void vis_qr_classify (const float *samples, const uint8_t *flagged, float saturated,
                      VisQrReading *out);

/* Takes a soft camera's blur back out of 441 module samples: the samples
 * are modelled as the modules (dark 0 / light 1, the function patterns
 * known, the quiet zone light) seen through a Gaussian blur of sigma s
 * modules, integrated over each module, between a dark and a light level.
 * s and the levels are fitted on the finders, whose surroundings are all
 * known; then the unknown modules are solved for (least squares, kept in
 * 0..1, Gauss-Seidel).  At 2 px a module and less a module's sample holds
 * as much of its neighbours as of itself; this is what separates them.
 * Writes samples on the same grey scale into `out` (saturated inputs stay
 * saturated, and take no part in the fit); returns the fitted s, or a
 * negative value when the finders do not look like finders (then `out` is
 * a copy of `samples`). */
float vis_qr_deconvolve (const float *samples, float saturated, float *out);

/* Called with each decoded text (`len` bytes, not NUL-terminated); returns
 * true to take it (decoding stops), false to go on looking. */
typedef bool (*VisQrAccept) (void *user, const char *text, size_t len);

typedef struct {
  unsigned tries;           /* Reed-Solomon decodes run */
  unsigned errors;          /* of the taken reading: codewords corrected blind */
  unsigned erasures;        /* ... and as erasures */
  int mask;                 /* its mask pattern, -1 when none was taken */
} VisQrDecodeInfo;

/* Decodes `reading` as a version-1 level-Q code, offering every text it
 * finds to `accept` until one is taken.  `info` may be NULL.  Returns
 * VIS_QRD_OK when a text was taken; otherwise why none was. */
VisQrDecodeStatus vis_qr_decode (const VisQrReading *reading, VisQrAccept accept, void *user,
                                 VisQrDecodeInfo *info);

/* As vis_qr_decode, for a text known to be `len` alphanumeric characters
 * starting with `prefix` (a sticker of a set the table plays: "TB1K01"):
 * the codewords those fix (mode, count and the prefix's characters: the
 * first five for a 16-character sticker) are taken as known whatever the
 * image shows there, so a highlight over them costs nothing and the error
 * correction goes to the rest.  Only the seal check (`accept`) tells a
 * sticker from anything else forced into that shape. */
VisQrDecodeStatus vis_qr_decode_expecting (const VisQrReading *reading, const char *prefix, size_t len,
                                           VisQrAccept accept, void *user, VisQrDecodeInfo *info);

/* Reed-Solomon over GF(256) (x^8+x^4+x^3+x^2+1), generator roots alpha^0 ..
 * alpha^(nsym-1), codeword[0] the highest power (the QR layout).  Corrects
 * `cw` (n bytes, n <= 255, nsym < n) in place given the positions of
 * `n_erasures` erased bytes (distinct, < n), provided 2 x errors + erasures
 * <= `budget` (<= nsym).  Returns the number of bytes changed, or -1 when
 * the word is beyond the budget (`cw` is then unchanged).  Exposed for the
 * tests. */
int vis_rs_decode (uint8_t *cw, int n, int nsym, const int *erasures, int n_erasures, int budget);

/* The nsym check bytes of `data` (k bytes) into `out`: the encoder, for
 * the tests. */
void vis_rs_encode (const uint8_t *data, int k, int nsym, uint8_t *out);

#ifdef __cplusplus
}
#endif
