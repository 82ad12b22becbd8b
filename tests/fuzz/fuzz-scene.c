/* libFuzzer target: vis_scene_parse (a data/scenes file, the synthetic
 * renderer's input) on arbitrary bytes, then, for a scene that needs its
 * game's card set, vis_scene_resolve with that set (every registered game),
 * and every object's payloads.
 *
 * The scene parser (vis-scene.c) is pure C, but it sits in the vision
 * library with the renderer (OpenCV), which the fuzz build leaves out: so
 * vis-scene.c is compiled into this target. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-cardset.h"
#include "eng-game.h"
#include "vis-scene-private.h"


int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);


int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  fuzz_load_games ();
  return 0;
}

static void
check_loaded (VisScene *scene)
{
  if (vis_scene_width (scene) < 1 || vis_scene_height (scene) < 1 || vis_scene_file_format (scene) == NULL)
    abort ();
  (void) vis_scene_n_frames (scene);
  (void) vis_scene_seed (scene);
  if (vis_scene_needs_card_set (scene))
    {
      const char *game = vis_scene_game (scene);
      const EngGameClass *klass = game ? eng_game_class_find (game) : NULL;
      size_t g = 0;
      while (g < eng_game_class_count () && eng_game_class_get (g) != klass)
        g++;
      EngParseError err;
      memset (&err, 0, sizeof err);
      if (klass != NULL && g < FUZZ_MAX_GAMES && fuzz_sets[g] != NULL
          && vis_scene_resolve (scene, fuzz_sets[g], &err) == ENG_OK
          && vis_scene_needs_card_set (scene))
        abort ();
    }
  for (unsigned i = 0; i < scene->n_objects; i++)
    {
      char payload[VIS_TRUTH_PAYLOAD_MAX];
      (void) vis_scene_object_payload (scene, &scene->objects[i], true, payload, sizeof payload);
      (void) vis_scene_object_payload (scene, &scene->objects[i], false, payload, sizeof payload);
      double mm = vis_scene_object_sticker_mm (scene, &scene->objects[i]);
      (void) vis_scene_quiet_modules (scene, mm);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  VisScene *scene = NULL;
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = vis_scene_parse (text, size, "fuzz", &scene, &err);
  free (text);
  if (st != ENG_OK)
    {
      fuzz_check_refusal (scene != NULL, &err);
      return 0;
    }
  if (scene == NULL)
    abort ();
  check_loaded (scene);
  vis_scene_free (scene);
  return 0;
}
