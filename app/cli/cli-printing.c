/* cli-printing.c: the table's printing for the commands that render or read
 * stickers (cli.h). */
#include "cli.h"

#include <stdio.h>

#include "eng-cardset.h"
#include "eng-printing.h"
#include "prt-store.h"

EngPrinting *
cli_printing_for_game (const char *cmd, const char *game)
{
  g_autofree char *path = cli_card_set_path (game);
  if (path == NULL)
    return NULL;
  EngCardSet *set = NULL;
  EngParseError perr = { 0 };
  EngStatus st = eng_card_set_load_file (path, &set, &perr);
  if (st != ENG_OK)
    {
      cli_say (cmd, "%s:%u: %s", perr.source, perr.line, perr.reason);
      return NULL;
    }
  g_autoptr (GError) error = NULL;
  EngPrinting *printing = prt_store_printing (set, &error);
  eng_card_set_free (set);
  if (printing == NULL)
    cli_say (cmd, "%s", error->message);
  return printing;
}

EngPrinting *
cli_printing_for_every_game (const char *cmd)
{
  EngPrinting *printing = cli_printing_for_game (cmd, eng_game_class_get (0)->name);
  for (size_t g = 1; g < eng_game_class_count () && printing != NULL; g++)
    {
      g_autofree char *path = cli_card_set_path (eng_game_class_get (g)->name);
      EngCardSet *set = NULL;
      EngParseError perr = { 0 };
      g_autoptr (GError) error = NULL;
      if (path != NULL && eng_card_set_load_file (path, &set, &perr) != ENG_OK)
        cli_say (cmd, "%s:%u: %s", perr.source, perr.line, perr.reason);
      else if (set != NULL && !prt_store_add (printing, set, &error))
        cli_say (cmd, "%s", error->message);
      if (set == NULL || error != NULL)
        g_clear_pointer (&printing, eng_printing_free);
      eng_card_set_free (set);
    }
  return printing;
}

#ifdef TABLERO_HAVE_VISION
gboolean
cli_printing_for_scene (const char *cmd, VisScene *scene, EngPrinting **out)
{
  *out = NULL;
  const char *game = cli_game_for_letter (vis_scene_game_letter (scene));
  if (game == NULL)
    return TRUE;  /* no bundled set to seal with: painted unsealed */
  *out = cli_printing_for_game (cmd, game);
  if (*out == NULL)
    return FALSE;
  vis_scene_set_printing (scene, *out);
  return TRUE;
}
#endif
