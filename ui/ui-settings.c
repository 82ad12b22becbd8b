#include "ui-settings.h"

#include <stdlib.h>
#include <string.h>

#include "eng-name.h"

#define SCHEMA_ID "org.tablero.Tablero"

GSettings *
ui_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  if (source == NULL)
    return NULL;
  g_autoptr (GSettingsSchema) schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* The value kept for `game` in the a{ss} `key`, NULL when none (transfer full). */
static char *
lookup_for_game (GSettings *settings, const char *key, const char *game)
{
  if (settings == NULL || game == NULL)
    return NULL;
  g_autoptr (GVariant) dict = g_settings_get_value (settings, key);
  char *value = NULL;
  if (!g_variant_lookup (dict, game, "s", &value))
    return NULL;
  return value;
}

/* Replaces (or with NULL removes) `game`'s entry of the a{ss} `key`. */
static void
store_for_game (GSettings *settings, const char *key, const char *game, const char *value)
{
  g_autoptr (GVariant) old = g_settings_get_value (settings, key);
  GVariantBuilder builder;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  GVariantIter iter;
  const char *k, *v;
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &k, &v))
    if (g_strcmp0 (k, game) != 0)
      g_variant_builder_add (&builder, "{ss}", k, v);
  if (value != NULL)
    g_variant_builder_add (&builder, "{ss}", game, value);
  g_settings_set_value (settings, key, g_variant_builder_end (&builder));
}

static gboolean
seats_distinct (const uint8_t *seats, guint n)
{
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < i; j++)
      if (seats[i] == seats[j])
        return FALSE;
  return TRUE;
}

gboolean
ui_settings_get_setup (GSettings *settings, const char *game, EngSetup *setup)
{
  eng_setup_init (setup);
  setup->first = 0;
  g_autofree char *players = lookup_for_game (settings, "players", game);
  g_autofree char *seats = lookup_for_game (settings, "seats", game);
  if (players == NULL || *players == '\0')
    return FALSE;
  g_auto (GStrv) names = g_strsplit (players, ",", -1);
  g_auto (GStrv) marks = g_strsplit (seats != NULL ? seats : "", ",", -1);
  guint n = g_strv_length (names);
  EngNameCheck check;
  const EngGameClass *klass = eng_game_class_find (game);
  guint lo = klass != NULL ? klass->min_players : 1, hi = klass != NULL ? klass->max_players : ENG_MAX_PLAYERS;
  if (n < lo || n > MIN (hi, ENG_MAX_PLAYERS)
      || eng_names_find_fault ((const char *const *) names, n, &check) >= 0)
    return FALSE;
  guint n_marks = g_strv_length (marks);
  for (guint i = 0; i < n; i++)
    {
      g_strlcpy (setup->names[i], names[i], ENG_NAME_MAX);
      /* a seat that does not read as a marker number falls back to the
       * player's place in the order, as a table without settings has */
      char *end = NULL;
      long seat = i < n_marks ? strtol (marks[i], &end, 10) : 0;
      setup->seats[i] = end != NULL && end != marks[i] && *end == '\0' && seat >= 1 && seat <= 99
                          ? (uint8_t) seat : (uint8_t) (i + 1);
    }
  /* two players behind one marker cannot be told apart (the setup dialog
   * refuses it too): then every player sits by their place in the order */
  if (!seats_distinct (setup->seats, n))
    for (guint i = 0; i < n; i++)
      setup->seats[i] = (uint8_t) (i + 1);
  setup->n_players = n;
  return TRUE;
}

gboolean
ui_settings_get_options (GSettings *settings, const char *game, EngOptions *options)
{
  memset (options, 0, sizeof *options);
  g_autofree char *text = lookup_for_game (settings, "options", game);
  if (text == NULL || *text == '\0')
    return FALSE;
  g_auto (GStrv) pairs = g_strsplit (text, ",", -1);
  for (char **p = pairs; *p != NULL; p++)
    {
      const char *eq = strchr (*p, '=');
      if (eq == NULL || eq == *p)
        continue;
      g_autofree char *name = g_strndup (*p, (gsize) (eq - *p));
      /* a name or value too long for the engine is skipped, not cut */
      eng_options_set (options, name, eq + 1);
    }
  return options->n > 0;
}

void
ui_settings_save_game (GSettings *settings, const char *game, const EngSetup *setup,
                       const EngOptions *options)
{
  if (settings == NULL || game == NULL || setup == NULL)
    return;
  g_autoptr (GString) players = g_string_new (NULL);
  g_autoptr (GString) seats = g_string_new (NULL);
  for (unsigned i = 0; i < setup->n_players; i++)
    {
      g_string_append_printf (players, "%s%s", i ? "," : "", setup->names[i]);
      g_string_append_printf (seats, "%s%u", i ? "," : "", setup->seats[i]);
    }
  g_autoptr (GString) opts = g_string_new (NULL);
  for (size_t i = 0; options != NULL && i < options->n; i++)
    {
      /* a value holding the separators could not be read back as it was */
      if (strpbrk (options->items[i].value, ",=") != NULL)
        continue;
      g_string_append_printf (opts, "%s%s=%s", opts->len ? "," : "", options->items[i].name,
                              options->items[i].value);
    }
  /* one write for all keys: a reader never sees new players with old seats */
  g_settings_delay (settings);
  g_settings_set_string (settings, "game", game);
  store_for_game (settings, "players", game, players->str);
  store_for_game (settings, "seats", game, seats->str);
  store_for_game (settings, "options", game, opts->len ? opts->str : NULL);
  g_settings_apply (settings);
}

void
ui_settings_set_string (GSettings *settings, const char *key, const char *value)
{
  if (settings != NULL && value != NULL)
    g_settings_set_string (settings, key, value);
}

void
ui_settings_bind_window (GSettings *settings, gpointer window)
{
  if (settings == NULL)
    return;
  static const char *const keys[] = { "muted", "voice", "speech-rate", "learning" };
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (ui_settings_has_key (settings, keys[i]))
      g_settings_bind (settings, keys[i], window, keys[i], G_SETTINGS_BIND_DEFAULT);
}

/* One key bound to one action.  Each of the two signal closures holds a
 * reference; each is watched by the other object, so a handler only runs
 * while both objects are alive and the raw pointers are valid. */
typedef struct {
  GSettings *settings;
  GActionGroup *group;
  char *key;
  char *action;
} Binding;

static void
binding_clear (gpointer data)
{
  Binding *b = data;
  g_free (b->key);
  g_free (b->action);
}

static void
binding_release (gpointer data, GClosure *closure)
{
  g_rc_box_release_full (data, binding_clear);
}

static void
on_key_changed (GSettings *settings, const char *key, Binding *b)
{
  g_autoptr (GVariant) value = g_settings_get_value (settings, b->key);
  g_autoptr (GVariant) state = g_action_group_get_action_state (b->group, b->action);
  if (state != NULL && !g_variant_equal (state, value))
    g_action_group_change_action_state (b->group, b->action, value);
}

static void
on_state_changed (GActionGroup *group, const char *name, GVariant *state, Binding *b)
{
  g_autoptr (GVariant) value = g_settings_get_value (b->settings, b->key);
  if (!g_variant_equal (state, value))
    g_settings_set_value (b->settings, b->key, state);
}

void
ui_settings_bind_action (GSettings *settings, const char *key, GActionGroup *group,
                         const char *action_name)
{
  g_return_if_fail (G_IS_ACTION_GROUP (group));
  if (settings == NULL)
    return;
  g_autoptr (GVariant) value = g_settings_get_value (settings, key);
  g_autoptr (GVariant) state = g_action_group_get_action_state (group, action_name);
  if (state == NULL || !g_variant_is_of_type (state, g_variant_get_type (value)))
    {
      g_critical ("ui_settings_bind_action: action '%s' has no state of key '%s''s type",
                  action_name, key);
      return;
    }
  Binding *b = g_rc_box_new0 (Binding);
  b->settings = settings;
  b->group = group;
  b->key = g_strdup (key);
  b->action = g_strdup (action_name);
  g_rc_box_acquire (b);
  GClosure *to_action = g_cclosure_new (G_CALLBACK (on_key_changed), b, binding_release);
  GClosure *to_key = g_cclosure_new (G_CALLBACK (on_state_changed), b, binding_release);
  g_object_watch_closure (G_OBJECT (group), to_action);
  g_object_watch_closure (G_OBJECT (settings), to_key);
  g_autofree char *key_signal = g_strdup_printf ("changed::%s", key);
  g_autofree char *state_signal = g_strdup_printf ("action-state-changed::%s", action_name);
  g_signal_connect_closure (settings, key_signal, to_action, FALSE);
  g_signal_connect_closure (group, state_signal, to_key, FALSE);
  /* the table's kept choice wins over the action's initial state */
  if (!g_variant_equal (state, value))
    g_action_group_change_action_state (group, action_name, value);
}

gboolean
ui_settings_has_key (GSettings *settings, const char *key)
{
  if (settings == NULL || key == NULL)
    return FALSE;
  g_autoptr (GSettingsSchema) schema = NULL;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return schema != NULL && g_settings_schema_has_key (schema, key);
}

gboolean
ui_settings_apply_camera_control (VisCameraControls *controls, const char *key, GVariant *value)
{
  if (key == NULL || value == NULL)
    return FALSE;
  gboolean is_bool = g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN);
  gboolean is_int = g_variant_is_of_type (value, G_VARIANT_TYPE_INT32);
  if (strcmp (key, "camera-focus-locked") == 0 && is_bool)
    controls->focus = g_variant_get_boolean (value) ? VIS_FOCUS_LOCKED : VIS_FOCUS_AUTO;
  else if (strcmp (key, "camera-exposure-auto") == 0 && is_bool)
    controls->exposure = g_variant_get_boolean (value) ? VIS_EXPOSURE_AUTO : VIS_EXPOSURE_MANUAL;
  else if (strcmp (key, "camera-exposure-meter") == 0 && is_bool)
    controls->meter_stickers = g_variant_get_boolean (value);
  else if ((strcmp (key, "camera-focus") == 0 || strcmp (key, "camera-exposure") == 0) && is_int)
    {
      gint32 n = g_variant_get_int32 (value);
      gboolean focus = key[7] == 'f';
      if (n < -1 || n > (focus ? VIS_CAMERA_FOCUS_MAX : VIS_CAMERA_EXPOSURE_MAX))
        return FALSE;
      if (focus)
        controls->focus_position = n;
      else
        controls->exposure_time = n;
    }
  else if (strcmp (key, "camera-anti-flicker") == 0 && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      VisAntiFlicker flicker;
      if (!vis_anti_flicker_parse (g_variant_get_string (value, NULL), &flicker))
        return FALSE;
      controls->anti_flicker = flicker;
    }
  else
    return FALSE;
  return TRUE;
}

void
ui_settings_get_camera_controls (GSettings *settings, VisCameraControls *controls)
{
  *controls = (VisCameraControls) { .focus = VIS_FOCUS_AUTO, .focus_position = -1,
                                    .exposure = VIS_EXPOSURE_AUTO, .exposure_time = -1 };
  if (settings == NULL)
    return;
  static const char *const keys[] = { "camera-focus-locked", "camera-focus", "camera-exposure-auto",
                                      "camera-exposure", "camera-exposure-meter", "camera-anti-flicker" };
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      /* a schema without the key (an older install) keeps the default */
      if (!ui_settings_has_key (settings, keys[i]))
        continue;
      g_autoptr (GVariant) value = g_settings_get_value (settings, keys[i]);
      ui_settings_apply_camera_control (controls, keys[i], value);
    }
}
