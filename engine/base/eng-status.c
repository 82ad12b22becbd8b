#include "eng-status.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *
eng_status_to_string (EngStatus status)
{
  static const char *const names[ENG_STATUS_COUNT] = {
    [ENG_OK] = "ok",
    [ENG_ERR_INVALID_ARGUMENT] = "invalid argument",
    [ENG_ERR_NO_MEMORY] = "out of memory",
    [ENG_ERR_IO] = "input/output error",
    [ENG_ERR_SYNTAX] = "syntax error",
    [ENG_ERR_UNKNOWN_ATTRIBUTE] = "unknown attribute",
    [ENG_ERR_DUPLICATE_ID] = "duplicate identifier",
    [ENG_ERR_INCONSISTENT] = "inconsistent data",
    [ENG_ERR_TAG_FOREIGN] = "not a Tablero tag",
    [ENG_ERR_TAG_CHECKSUM] = "tag check character does not match",
    [ENG_ERR_TAG_UNKNOWN] = "tag not in this card set",
    [ENG_ERR_NOT_FOUND] = "not found",
    [ENG_ERR_ILLEGAL] = "illegal move",
    [ENG_ERR_CONSERVATION] = "card conservation broken",
    [ENG_ERR_NOT_SUPPORTED] = "not supported",
    [ENG_ERR_LIMIT] = "capacity exceeded",
    [ENG_ERR_STATE] = "not allowed in the current state",
    [ENG_ERR_TAG_OLD_FORMAT] = "sticker printed in an older format",
    [ENG_ERR_TAG_SEAL] = "sticker seal is not this printing's",
  };
  if ((unsigned) status >= ENG_STATUS_COUNT || names[status] == NULL)
    return "unknown status";
  return names[status];
}

/* Length of the well-formed UTF-8 sequence at s[0..len) that a terminal takes
 * as plain text; 0 when s[0] must be escaped (controls, DEL, C1, malformed,
 * overlong or surrogate encodings). */
static size_t
printable_run (const unsigned char *s, size_t len)
{
  unsigned char c = s[0];
  if (c < 0x20 || c == 0x7f)
    return 0;
  if (c < 0x80)
    return 1;
  size_t n;
  unsigned cp;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (len < n)
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((s[i] & 0xc0) != 0x80)
        return 0;
      cp = (cp << 6) | (s[i] & 0x3f);
    }
  if ((n == 2 && cp < 0xa0) || (n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
      || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0;
  return n;
}

size_t
eng_escape_text (char *dst, size_t size, const char *src, size_t len)
{
  static const char hex[] = "0123456789abcdef";
  const unsigned char *s = (const unsigned char *) src;
  size_t need = 0, used = 0;
  bool full = false;
  for (size_t i = 0; i < len;)
    {
      size_t run = printable_run (s + i, len - i);
      char esc[4] = { '\\', 'x', hex[s[i] >> 4], hex[s[i] & 15] };
      const char *piece = run > 0 ? (const char *) s + i : esc;
      size_t n = run > 0 ? run : 4;
      need += n;
      if (!full && size > 0 && used + n < size)
        {
          memcpy (dst + used, piece, n);
          used += n;
        }
      else
        full = true;
      i += run > 0 ? run : 1;
    }
  if (size > 0)
    dst[used] = '\0';
  return need;
}

void
eng_parse_error_set (EngParseError *err, const char *source, unsigned line,
                     const char *fmt, ...)
{
  if (err == NULL)
    return;
  if (source == NULL)
    source = "";
  eng_escape_text (err->source, sizeof err->source, source, strlen (source));
  err->line = line;
  char raw[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (raw, sizeof raw, fmt, ap);
  va_end (ap);
  eng_escape_text (err->reason, sizeof err->reason, raw, strlen (raw));
}
