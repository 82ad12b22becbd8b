/* eng-status.h: the status codes every pure layer (engine/, and the C
 * faces of vision/ and calibration/) returns.  GLib code turns them into a
 * GError at its boundary; nothing below that prints.
 */
#pragma once

#include <stddef.h>

typedef enum {
  ENG_OK = 0,
  ENG_ERR_INVALID_ARGUMENT,   /* a caller broke a documented precondition */
  ENG_ERR_NO_MEMORY,
  ENG_ERR_IO,                 /* a file could not be opened or read */
  ENG_ERR_SYNTAX,             /* text that does not follow its format */
  ENG_ERR_UNKNOWN_ATTRIBUTE,  /* a name the schema does not declare */
  ENG_ERR_DUPLICATE_ID,
  ENG_ERR_INCONSISTENT,       /* well formed but contradicts itself (totals) */
  ENG_ERR_TAG_FOREIGN,        /* not a Tablero payload at all */
  ENG_ERR_TAG_CHECKSUM,       /* Tablero-shaped, but the check character fails */
  ENG_ERR_TAG_UNKNOWN,        /* a valid payload this card set does not hold */
  ENG_ERR_NOT_FOUND,
  ENG_ERR_ILLEGAL,            /* a move the rules forbid */
  ENG_ERR_CONSERVATION,       /* a card would be in two places, or in none */
  ENG_ERR_NOT_SUPPORTED,
  ENG_ERR_LIMIT,              /* a fixed capacity would be exceeded */
  ENG_ERR_STATE,              /* the call does not fit the object's state */
  ENG_ERR_TAG_OLD_FORMAT,     /* a valid sticker of the unsealed format 1: reprint it */
  ENG_ERR_TAG_SEAL,           /* a valid tag whose seal is not this printing's */
  ENG_STATUS_COUNT
} EngStatus;

/* Returns a static, human-readable English phrase; never NULL (an unknown
 * value gives "unknown status"). */
const char *eng_status_to_string (EngStatus status);

/* Where a text format (card set, record, scene) was refused.  Filled by the
 * parsers on error; `source` is the file name or a caller-given label. */
typedef struct {
  char source[256];
  unsigned line;    /* 1-based; 0 when the error is not tied to a line */
  char reason[256];
} EngParseError;

/* printf-style helper for parsers: fills `err` (which may be NULL).  Both the
 * source and the formatted reason go through eng_escape_text(), so a reason
 * that quotes the input never carries a control byte or terminal escape. */
void eng_parse_error_set (EngParseError *err, const char *source, unsigned line,
                          const char *fmt, ...) __attribute__ ((format (printf, 4, 5)));

/* Copies `len` bytes of `src` into `dst` (`size` bytes, NUL-terminated
 * whenever size > 0) with every byte that could drive a terminal written as
 * \xNN: C0 controls (tab and newline included), DEL, C1 controls (U+0080 to
 * U+009F) and bytes that are not well-formed UTF-8.  Other UTF-8 text (any
 * language's letters) and backslashes are copied as they are.  An escape or a
 * character is never cut in half: output that does not fit is dropped whole.
 * Returns the length (NUL excluded) the whole escaped text needs, as
 * snprintf() does; `dst` may be NULL when `size` is 0. */
size_t eng_escape_text (char *dst, size_t size, const char *src, size_t len);
