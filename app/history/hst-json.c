/* hst-json.c: JSON helpers (hst-json.h). */
#include "hst-json.h"

void
hst_json_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

void
hst_json_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

void
hst_json_bool (JsonBuilder *b, const char *name, gboolean value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_boolean_value (b, value);
}

void
hst_json_double (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

char *
hst_format_utc (gint64 when)
{
  if (when <= 0)
    return g_strdup ("");
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_utc (when);
  return t != NULL ? g_date_time_format (t, "%Y-%m-%dT%H:%M:%SZ") : g_strdup ("");
}
