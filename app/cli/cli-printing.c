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
