/* vis-qr.h: the module matrix of a Tablero sticker's QR code.
 *
 * Every Tablero sticker is a QR code of version 1 (21x21 modules) at error
 * correction level Q, with its payload in alphanumeric mode (docs/tags.md).
 * Version 1 keeps the modules as large as a sticker of a given size allows, so
 * a camera resolves them from farther away; level Q survives a scratch or a
 * finger over up to about a quarter of the code.  A payload that would need a
 * larger version is refused rather than silently grown.
 *
 * This is the one place a payload becomes modules: the sticker sheets
 * (vis-sticker, vis-sheet) draw from it with cairo and the synthetic renderer
 * paints the same matrix into frames, so what is printed and what is
 * simulated cannot drift apart.  Pure C (libqrencode); no allocation escapes.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-status.h"

#define VIS_QR_VERSION 1
#define VIS_QR_SIZE 21          /* modules per side of a version 1 symbol */
/* The most QR alphanumeric characters version 1 holds at level Q. */
#define VIS_QR_MAX_PAYLOAD 16

/* A QR symbol as plain data: `dark[y * size + x]` is 1 for a dark module,
 * 0 for a light one (row-major, y down, x right, as printed).  The quiet
 * zone is not included; whoever draws adds it (at least 2 modules, ideally
 * 4, of light around the symbol). */
typedef struct {
  int size;                                  /* always VIS_QR_SIZE */
  uint8_t dark[VIS_QR_SIZE * VIS_QR_SIZE];
} VisQrModules;

/* Encodes `len` bytes of `payload` (no NUL needed) as a version 1, level Q
 * QR code in alphanumeric mode and fills `out` (caller-owned).
 * Returns ENG_OK; ENG_ERR_INVALID_ARGUMENT when `payload` or `out` is NULL,
 * `len` is 0, or a byte is outside the QR alphanumeric set
 * (0-9, A-Z, space, $ % * + - . / :); ENG_ERR_LIMIT when the payload does not
 * fit version 1 at level Q (more than VIS_QR_MAX_PAYLOAD characters);
 * ENG_ERR_NO_MEMORY when libqrencode fails to allocate.  `out` is untouched
 * on error. */
EngStatus vis_qr_encode (const char *payload, size_t len, VisQrModules *out);

/* True when the module at column x, row y is dark; false outside the symbol
 * (so callers can sample the quiet zone with the same call). */
bool vis_qr_module_dark (const VisQrModules *qr, int x, int y);
