/* hst-json.h: the few json-glib calls the history's JSON writers repeat:
 * a member and its value in one call, and UTC times as ISO 8601. */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void hst_json_string (JsonBuilder *b, const char *name, const char *value);
void hst_json_int (JsonBuilder *b, const char *name, gint64 value);
void hst_json_bool (JsonBuilder *b, const char *name, gboolean value);
void hst_json_double (JsonBuilder *b, const char *name, double value);

/* "2026-11-28T19:05:00Z" for `when` (seconds since 1970), "" for 0.
 * Newly allocated (g_free). */
char *hst_format_utc (gint64 when);

G_END_DECLS
