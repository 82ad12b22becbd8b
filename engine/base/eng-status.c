#include "eng-status.h"

#include <stdarg.h>
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
  };
  if ((unsigned) status >= ENG_STATUS_COUNT || names[status] == NULL)
    return "unknown status";
  return names[status];
}

void
eng_parse_error_set (EngParseError *err, const char *source, unsigned line,
                     const char *fmt, ...)
{
  if (err == NULL)
    return;
  snprintf (err->source, sizeof err->source, "%s", source ? source : "");
  err->line = line;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err->reason, sizeof err->reason, fmt, ap);
  va_end (ap);
}
