#include "ui-application.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "eng-game.h"
#include "eng-name.h"
#include "ui-screenshot.h"
#include "ui-window.h"

struct _UiApplication
{
  AdwApplication parent_instance;

  char *game;
  char *source;
  char *screenshot_path;
  char *screenshot_page;       /* main, calibration or setup */
  char **players;
  gboolean new_game;
  guint screenshot_tries;
  gboolean page_opened;        /* a dialog opened once the frames were in */
  int screenshot_frames;
  int screenshot_width, screenshot_height;   /* 0: the window's own size */
  int exit_status;
};

G_DEFINE_FINAL_TYPE (UiApplication, ui_application, ADW_TYPE_APPLICATION)

/* The first V4L2 capture node, else the bundled demo: a machine without a
 * camera is a normal place to run Tablero, not an error. */
static char *
default_source (void)
{
  for (int i = 0; i < 8; i++)
    {
      g_autofree char *node = g_strdup_printf ("/dev/video%d", i);
      if (g_file_test (node, G_FILE_TEST_EXISTS))
        return g_strdup_printf ("v4l2:%s", node);
    }
  return g_strdup ("demo");
}

/* Waits until the window has shown a camera frame (or gives up after about
 * ten seconds and shoots what is there), so the picture is what a person
 * sees once the table is up. */
static gboolean
take_screenshot (gpointer data)
{
  UiApplication *self = UI_APPLICATION (data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr (GError) error = NULL;
  self->screenshot_tries++;
  gboolean ready = window != NULL
                   && (!UI_IS_WINDOW (window)
                       || ui_window_get_frames_shown (UI_WINDOW (window)) >= (guint) self->screenshot_frames);
  /* 250 ms a try; a slow machine gets about ten seconds, plus 100 ms a frame asked for. */
  guint max_tries = 40 + (guint) self->screenshot_frames * 2 / 5;
  if (!ready && self->screenshot_tries < max_tries)
    return G_SOURCE_CONTINUE;
  /* The correction dialog lists what the camera reads: it opens once the
   * frames are in, and is drawn on the next try. */
  if (window != NULL && !self->page_opened && g_strcmp0 (self->screenshot_page, "correction") == 0)
    {
      self->page_opened = TRUE;
      gtk_widget_activate_action (GTK_WIDGET (window), "win.correct-card", NULL);
      return G_SOURCE_CONTINUE;
    }
  if (window == NULL || !ui_screenshot_save_png (GTK_WIDGET (window), self->screenshot_path, &error))
    {
      if (self->screenshot_tries < max_tries)
        return G_SOURCE_CONTINUE;
      g_printerr ("tablero: screenshot failed: %s\n", error ? error->message : "no window");
      self->exit_status = 1;
    }
  /* Dialogs open over the window are saved beside it: FILE-dialog-N.png. */
  guint n = 0;
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (l->data == window)
        continue;
      g_autofree char *stem = g_strndup (self->screenshot_path,
                                         g_str_has_suffix (self->screenshot_path, ".png")
                                           ? strlen (self->screenshot_path) - 4
                                           : strlen (self->screenshot_path));
      g_autofree char *path = g_strdup_printf ("%s-dialog-%u.png", stem, ++n);
      g_autoptr (GError) dialog_error = NULL;
      if (!ui_screenshot_save_png (GTK_WIDGET (l->data), path, &dialog_error)
          && self->screenshot_tries < max_tries)
        return G_SOURCE_CONTINUE;   /* not drawn yet: the next try */
      if (dialog_error != NULL)
        {
          g_printerr ("tablero: screenshot of a dialog failed: %s\n", dialog_error->message);
          self->exit_status = 1;
        }
    }
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_REMOVE;
}

static void
ui_application_activate (GApplication *app)
{
  UiApplication *self = UI_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (ui_window_new (GTK_APPLICATION (app), self->game, self->source,
                                        (const char *const *) self->players));
  if (self->screenshot_width > 0)
    gtk_window_set_default_size (window, self->screenshot_width, self->screenshot_height);
  gtk_window_present (window);
  if (g_strcmp0 (self->screenshot_page, "table") == 0)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.table-mode", NULL);
  if (self->new_game || g_strcmp0 (self->screenshot_page, "setup") == 0)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.new-game", NULL);
  if (g_strcmp0 (self->screenshot_page, "calibration") == 0)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "calibration");
  if (self->screenshot_path != NULL)
    {
      g_timeout_add_full (G_PRIORITY_DEFAULT, 250, take_screenshot,
                          g_object_ref (self), g_object_unref);
    }
}

/* Windows own worker threads (the camera pipeline): they must be gone
 * before main() returns and library destructors run under them. */
static void
ui_application_shutdown (GApplication *app)
{
  GList *windows;
  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL)
    gtk_window_destroy (GTK_WINDOW (windows->data));
  G_APPLICATION_CLASS (ui_application_parent_class)->shutdown (app);
}

static int
ui_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  UiApplication *self = UI_APPLICATION (app);
  const char *game = NULL, *source = NULL, *shot = NULL;
  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("tablero %s\n", TABLERO_VERSION);
      return 0;
    }
  if (g_variant_dict_lookup (options, "game", "&s", &game))
    {
      if (eng_game_class_find (game) == NULL)
        {
          char known[256];
          eng_game_class_names (known, sizeof known);
          g_printerr (_ ("tablero: unknown game '%s' (known: %s)\n"), game, known);
          return 2;
        }
      g_free (self->game);
      self->game = g_strdup (game);
    }
  if (g_variant_dict_lookup (options, "source", "&s", &source))
    {
      g_free (self->source);
      self->source = g_strdup (source);
    }
  const char *players = NULL;
  if (g_variant_dict_lookup (options, "players", "&s", &players))
    {
      g_auto (GStrv) names = g_strsplit (players, ",", -1);
      guint n = g_strv_length (names);
      EngNameCheck check;
      int bad = eng_names_find_fault ((const char *const *) names, n, &check);
      if (n < 2 || n > ENG_MAX_PLAYERS)
        {
          g_printerr (_ ("tablero: --players takes 2 to %d comma-separated names\n"),
                      ENG_MAX_PLAYERS);
          return 2;
        }
      if (bad >= 0)
        {
          /* a name is shown as typed unless it holds bytes a terminal acts on */
          g_autofree char *shown = check == ENG_NAME_CONTROL || check == ENG_NAME_NOT_UTF8
                                   ? g_strescape (names[bad], NULL) : g_strdup (names[bad]);
          g_printerr (_ ("tablero: --players: name %d '%s': %s\n"), bad + 1, shown,
                      check == ENG_NAME_OK ? _ ("named twice") : eng_name_check_to_string (check));
          return 2;
        }
      g_strfreev (self->players);
      self->players = g_steal_pointer (&names);
    }
  self->new_game = g_variant_dict_contains (options, "new-game");
  if (!g_variant_dict_lookup (options, "screenshot-frames", "i", &self->screenshot_frames)
      || self->screenshot_frames < 1)
    self->screenshot_frames = 3;
  if (g_variant_dict_lookup (options, "screenshot", "^&ay", &shot))
    self->screenshot_path = g_strdup (shot);
  const char *size = NULL;
  if (g_variant_dict_lookup (options, "screenshot-size", "&s", &size))
    {
      char *end = NULL;
      gint64 w = g_ascii_strtoll (size, &end, 10), h = 0;
      if (end != NULL && *end == 'x')
        h = g_ascii_strtoll (end + 1, &end, 10);
      if (end == NULL || *end != '\0' || w < 320 || h < 240 || w > 7680 || h > 4320)
        {
          g_printerr (_ ("tablero: --screenshot-size '%s': give WIDTHxHEIGHT in pixels, from 320x240 to 7680x4320\n"),
                      size);
          return 2;
        }
      self->screenshot_width = (int) w;
      self->screenshot_height = (int) h;
    }
  const char *page = NULL;
  if (g_variant_dict_lookup (options, "screenshot-page", "&s", &page))
    {
      if (g_strcmp0 (page, "main") != 0 && g_strcmp0 (page, "calibration") != 0
          && g_strcmp0 (page, "setup") != 0 && g_strcmp0 (page, "correction") != 0
          && g_strcmp0 (page, "table") != 0)
        {
          g_printerr (_ ("tablero: unknown page '%s' (known: main, calibration, setup, correction, table)\n"), page);
          return 2;
        }
      g_free (self->screenshot_page);
      self->screenshot_page = g_strdup (page);
    }
  return -1;
}

static void
ui_application_finalize (GObject *object)
{
  UiApplication *self = UI_APPLICATION (object);
  g_free (self->game);
  g_free (self->source);
  g_free (self->screenshot_path);
  g_free (self->screenshot_page);
  g_strfreev (self->players);
  G_OBJECT_CLASS (ui_application_parent_class)->finalize (object);
}

static void
ui_application_class_init (UiApplicationClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ui_application_finalize;
  G_APPLICATION_CLASS (klass)->activate = ui_application_activate;
  G_APPLICATION_CLASS (klass)->shutdown = ui_application_shutdown;
  G_APPLICATION_CLASS (klass)->handle_local_options = ui_application_handle_local_options;
}

static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_application_quit (G_APPLICATION (data));
}

static void
ui_application_init (UiApplication *self)
{
  static const GOptionEntry entries[] = {
    { "game", 'g', 0, G_OPTION_ARG_STRING, NULL, N_ ("Game to referee, by its short name (an unknown one lists them)"), N_ ("GAME") },
    { "source", 's', 0, G_OPTION_ARG_STRING, NULL, N_ ("Frame source: demo, camera[:N], v4l2:/dev/videoN, file:PATH"), N_ ("SPEC") },
    { "players", 'p', 0, G_OPTION_ARG_STRING, NULL, N_ ("Player names in seat order, clockwise (default: Ana,Bea)"), "A,B,..." },
    { "screenshot-frames", 0, 0, G_OPTION_ARG_INT, NULL, N_ ("With --screenshot: wait until N camera frames were shown (default 3)"), "N" },
    { "screenshot-page", 0, 0, G_OPTION_ARG_STRING, NULL, N_ ("With --screenshot: show this first: main, calibration (camera setup), setup (new game), correction (a misread card) or table (table mode)"), N_ ("PAGE") },
    { "screenshot-size", 0, 0, G_OPTION_ARG_STRING, NULL, N_ ("With --screenshot: the window's size, e.g. 1920x1080"), N_ ("WxH") },
    { "new-game", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Open the new-game setup at start"), NULL },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_ ("Save a PNG of the window once shown, then quit"), N_ ("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the version and exit"), NULL },
    { NULL },
  };
  static const GActionEntry actions[] = {
    { .name = "quit", .activate = quit_action },
  };
  self->game = g_strdup (eng_game_class_get (0)->name);
  self->players = g_strsplit ("Ana,Bea", ",", -1);
  self->source = default_source ();
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
}

UiApplication *
ui_application_new (void)
{
  return g_object_new (UI_TYPE_APPLICATION,
                       "application-id", "org.tablero.Tablero",
                       "flags", G_APPLICATION_NON_UNIQUE,
                       NULL);
}

int
ui_application_get_exit_status (UiApplication *self)
{
  return self->exit_status;
}
