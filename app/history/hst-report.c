/* hst-report.c: a stored game as a readable report (hst_game_report). */
#include <glib/gi18n-lib.h>

#include "hst-game.h"

char *
hst_game_summary (const HstGame *game)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out,
                          game->finished ? g_dngettext (GETTEXT_PACKAGE, "Finished after %u move",
                                                        "Finished after %u moves", game->n_moves)
                                         : g_dngettext (GETTEXT_PACKAGE, "Abandoned after %u move",
                                                        "Abandoned after %u moves", game->n_moves),
                          game->n_moves);
  if (game->started > 0 && game->ended >= game->started)
    {
      guint minutes = (guint) ((game->ended - game->started + 30) / 60);
      g_string_append (out, " · ");
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u minute", "%u minutes", minutes), minutes);
    }
  return g_string_free (out, FALSE);
}

static void
report_header (GString *out, const HstGame *game)
{
  g_autofree char *when = hst_format_time (game->started > 0 ? game->started : game->ended);
  g_autofree char *summary = hst_game_summary (game);
  g_string_append_printf (out, "# %s, %s\n\n%s\n\n", hst_game_title (game), when, summary);
}

static void
report_players (GString *out, const HstGame *game)
{
  g_string_append_printf (out, "## %s\n\n| %s | %s | %s | |\n|---|---|---|---|\n", _ ("Players"), _ ("Seat"),
                          _ ("Player"), game->scored ? _ ("Score") : _ ("Still in"));
  for (guint p = 0; p < game->n_seats; p++)
    {
      const HstSeat *s = &game->seats[p];
      g_autofree char *marker = s->marker > 0 ? g_strdup_printf ("%u", s->marker) : g_strdup ("–");
      const char *score = NULL;
      g_autofree char *number = g_strdup_printf ("%d", s->score);
      if (game->scored)
        score = number;
      else
        score = s->score > 0 ? _ ("yes") : _ ("no");
      g_string_append_printf (out, "| %s | %s | %s | %s |\n", marker, s->name, score,
                              s->won ? _ ("winner") : (s->first ? _ ("started") : ""));
    }
  g_string_append (out, "\n");
}

static void
report_rules (GString *out, const HstGame *game)
{
  if (game->options.n > 0)
    {
      g_string_append_printf (out, "## %s\n\n", _ ("House rules"));
      for (size_t i = 0; i < game->options.n; i++)
        g_string_append_printf (out, "- %s = %s\n", game->options.items[i].name, game->options.items[i].value);
      g_string_append (out, "\n");
    }
  if (game->refusals->len > 0)
    {
      g_string_append_printf (out, "## %s\n\n", _ ("Refused moves by rule"));
      for (guint i = 0; i < game->refusals->len; i++)
        {
          const HstRefusal *r = &g_array_index (game->refusals, HstRefusal, i);
          const char *who = r->position >= 0 && (guint) r->position < game->n_seats
                              ? game->seats[r->position].name : _ ("the table");
          g_string_append_printf (out, "- %s: %s × %u\n", who, r->rule, r->count);
        }
      g_string_append (out, "\n");
    }
}

char *
hst_game_report (const HstGame *game)
{
  GString *out = g_string_new (NULL);
  report_header (out, game);
  report_players (out, game);
  report_rules (out, game);
  if (game->record != NULL && game->record[0] != '\0')
    g_string_append_printf (out, "## %s\n\n```\n%s```\n", _ ("Game record"), game->record);
  return g_string_free (out, FALSE);
}
