#include "ui-report.h"

#include <glib/gi18n-lib.h>

static void
list (GString *out, const char *title, const char *const *items, gboolean numbered, const char *none)
{
  g_string_append_printf (out, "\n## %s\n\n", title);
  guint n = 0;
  for (const char *const *i = items; i != NULL && *i != NULL; i++)
    {
      n++;
      if (numbered)
        g_string_append_printf (out, "%u. %s\n", n, *i);
      else
        g_string_append_printf (out, "- %s\n", *i);
    }
  if (n == 0)
    g_string_append_printf (out, "%s\n", none);
}

char *
ui_report_build (const UiReportInput *in)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, _ ("# %s: game report\n\n"), in->game_title ? in->game_title : _ ("Game"));
  if (in->when != NULL)
    g_string_append_printf (out, _ ("Exported by Tablero on %s.\n\n"), in->when);
  if (in->status != NULL)
    g_string_append_printf (out, "**%s**\n", in->status);

  /* Translators: the report's section headings are Markdown text after "## "; the table's column titles follow. */
  g_string_append_printf (out, "\n## %s\n\n| %s | %s | %s | %s |\n| --- | --- | ---: | --- |\n", _ ("Players and scores"),
                          _ ("Player"), _ ("Seat"), _ ("Score"), _ ("Cards and status"));
  for (unsigned p = 0; p < in->n_players; p++)
    {
      const UiReportPlayer *pl = &in->players[p];
      g_autofree char *seat = pl->seat ? g_strdup_printf ("%u", pl->seat) : g_strdup ("-");
      g_string_append_printf (out, "| %s | %s | %d | %s |\n", pl->name, seat, pl->score,
                              pl->captured ? pl->captured : "");
    }

  g_string_append_printf (out, "\n## %s\n\n", _ ("Rule options"));
  for (size_t i = 0; in->options != NULL && i < in->options->n; i++)
    {
      const EngOption *o = &in->options->items[i];
      const char *usual = in->defaults ? eng_options_get (in->defaults, o->name) : NULL;
      if (usual != NULL && g_strcmp0 (usual, o->value) != 0)
        g_string_append_printf (out, _ ("- %s = %s (house rule; the rules file says %s)\n"), o->name, o->value, usual);
      else
        g_string_append_printf (out, "- %s = %s\n", o->name, o->value);
    }
  if (in->options == NULL || in->options->n == 0)
    g_string_append_printf (out, "%s\n", _ ("None."));

  if (in->corrections != NULL && in->corrections[0] != NULL)
    list (out, _ ("Misread stickers corrected"), in->corrections, FALSE, "");
  list (out, _ ("Moves"), in->moves, TRUE, _ ("No move yet."));
  list (out, _ ("Announcements"), in->announcements, FALSE, _ ("Nothing was announced."));
  if (in->record != NULL)
    g_string_append_printf (out, "\n## %s\n\n%s\n\n```\n%s%s```\n", _ ("Game record"),
                            _ ("Replays with `tablero-cli replay`."), in->record,
                            g_str_has_suffix (in->record, "\n") ? "" : "\n");
  return g_string_free (out, FALSE);
}
