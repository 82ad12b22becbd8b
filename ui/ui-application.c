#include "ui-application.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "eng-game.h"
#include "eng-name.h"
#include "ui-a11y.h"
#include "ui-about.h"
#include "ui-guide.h"
#include "ui-history-window.h"
#include "ui-preferences-window.h"
#include "ui-rules-dialog.h"
#include "ui-screenshot.h"
#include "ui-settings.h"
#include "ui-shortcuts.h"
#include "ui-stickers-dialog.h"
#include "ui-window.h"
#include "ui-window-fit.h"

struct _UiApplication
{
  AdwApplication parent_instance;

  char *game;
  char *source;
  char *screenshot_path;
  char *screenshot_page;       /* main, calibration, setup, correction or a dialog's page */
  guint guide_page;            /* with screenshot_page "guide" */
  char *screenshot_subpage;    /* with screenshot_page "about": credits or legal */
  char **players;
  gboolean new_game;
  gboolean players_given;
  guint screenshot_tries;
  gboolean page_opened;        /* a dialog opened once the frames were in */
  int screenshot_frames;
  gboolean screenshot_freeze;  /* the table stops at frame screenshot_frames */
  int screenshot_width, screenshot_height;   /* 0: the window's own size */
  int exit_status;
  gboolean no_camera;          /* no camera was found: the demo table plays instead */
  GSettings *settings;         /* NULL when the schema is not installed */
};

G_DEFINE_FINAL_TYPE (UiApplication, ui_application, ADW_TYPE_APPLICATION)

/* The first V4L2 capture node, else the bundled demo: a machine without a
 * camera is a normal place to run Tablero, not an error. */
static char *
first_camera (gboolean *none)
{
  for (int i = 0; i < 8; i++)
    {
      g_autofree char *node = g_strdup_printf ("/dev/video%d", i);
      if (g_file_test (node, G_FILE_TEST_EXISTS))
        return g_strdup_printf ("v4l2:%s", node);
    }
  *none = TRUE;
  return g_strdup ("demo");
}

/* The camera the table used last when it is still plugged in (a libcamera
 * spec is tried as it is: the window falls back to the demo and says so),
 * else the first camera. */
static char *
default_source (GSettings *settings, gboolean *no_camera)
{
  g_autofree char *kept = settings != NULL ? g_settings_get_string (settings, "camera") : NULL;
  if (kept != NULL && *kept != '\0'
      && (!g_str_has_prefix (kept, "v4l2:") || g_file_test (kept + strlen ("v4l2:"), G_FILE_TEST_EXISTS)))
    return g_steal_pointer (&kept);
  return first_camera (no_camera);
}

/* The game the table played last, when the registry still has it. */
static char *
default_game (GSettings *settings)
{
  g_autofree char *kept = settings != NULL ? g_settings_get_string (settings, "game") : NULL;
  if (kept != NULL && eng_game_class_find (kept) != NULL)
    return g_steal_pointer (&kept);
  return g_strdup (eng_game_class_get (0)->name);
}

static GtkWindow *
main_window (UiApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (UI_IS_WINDOW (l->data))
      return l->data;
  return NULL;
}

/* The game of the window on screen: F1 and the stickers are for it. */
static const char *
current_game (UiApplication *self)
{
  GtkWindow *window = main_window (self);
  return window != NULL ? ui_window_get_game (UI_WINDOW (window)) : self->game;
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
  /* the frames are counted by the main window, also when a dialog over it
   * is the active window (and the main window is saved beside it) */
  GtkWindow *table = main_window (self);
  gboolean ready = window != NULL
                   && (table == NULL
                       || (self->screenshot_freeze
                           ? ui_window_get_frozen (UI_WINDOW (table))
                           : ui_window_get_frames_shown (UI_WINDOW (table)) >= (guint) self->screenshot_frames)
                       || ui_window_get_held (UI_WINDOW (table)));
  /* Saying into a file (TABLERO_SPEECH_WAV, a testing aid as --screenshot
   * is), the window also waits until the voice has begun its second
   * sentence, however slow the machine: the event, not the clock. */
  gboolean speech = g_getenv ("TABLERO_SPEECH_WAV") != NULL;
  if (speech && table != NULL && ui_window_get_sentences_said (UI_WINDOW (table)) < 2)
    ready = FALSE;
  /* 250 ms a try, a deadline only: each try goes on as soon as what it
   * waits for is drawn.  A loaded machine gets a minute, plus half a
   * second a frame asked for (it renders the demo at 2 fps); four minutes
   * for the voice. */
  guint max_tries = speech ? 4 * 60 * 4 : 4 * 60 + (guint) self->screenshot_frames * 2;
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
  /* TABLERO_SCREENSHOT_HOOK: a program given FILE-screen.png, run while the
   * windows are still up, to save the whole screen as a window manager
   * shows it (tests/tools/screenshots.sh; a testing aid, as --screenshot is) */
  const char *hook = g_getenv ("TABLERO_SCREENSHOT_HOOK");
  if (hook != NULL && *hook != '\0')
    {
      g_autofree char *stem = g_strndup (self->screenshot_path,
                                         g_str_has_suffix (self->screenshot_path, ".png")
                                           ? strlen (self->screenshot_path) - 4
                                           : strlen (self->screenshot_path));
      g_autofree char *screen = g_strdup_printf ("%s-screen.png", stem);
      const char *argv[] = { hook, screen, NULL };
      int status = 0;
      g_autoptr (GError) hook_error = NULL;
      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                         &hook_error)
          || !g_spawn_check_wait_status (status, &hook_error))
        {
          g_printerr ("tablero: screenshot hook %s failed: %s\n", hook, hook_error->message);
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
  GtkWindow *window = main_window (self);
  if (window != NULL)
    {
      /* A second launch (its own command line stays with it) raises the
       * table's window: one camera, one journal. */
      g_debug ("activated again: raising the window");
      gtk_window_present (window);
      return;
    }
  window = GTK_WINDOW (ui_window_new (GTK_APPLICATION (app), self->game, self->source,
                                      (const char *const *) self->players));
  /* what a table sets once: the voice (muted or not, which, how fast), table mode */
  if (self->settings != NULL)
    {
      ui_settings_bind_window (self->settings, window);
      if (self->screenshot_path == NULL)
        g_settings_bind (self->settings, "table-mode", window, "table-mode", G_SETTINGS_BIND_DEFAULT);
    }
  if (self->screenshot_width > 0)
    {
      gtk_window_unmaximize (window);
      gtk_window_set_default_size (window, self->screenshot_width, self->screenshot_height);
    }
  if (self->no_camera)
    ui_window_show_no_camera (UI_WINDOW (window));
  if (self->screenshot_path != NULL && self->screenshot_freeze)
    ui_window_freeze_at_frame (UI_WINDOW (window), (guint) self->screenshot_frames);
  gtk_window_present (window);
  const char *page = self->screenshot_page;
  if (g_strcmp0 (page, "table") == 0)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.table-mode", NULL);
  if (self->new_game || g_strcmp0 (page, "setup") == 0)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.new-game", NULL);
  if (g_strcmp0 (page, "calibration") == 0)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "calibration");
  if (g_strcmp0 (page, "shortcuts") == 0 || g_strcmp0 (page, "rules") == 0
      || g_strcmp0 (page, "stickers") == 0 || g_strcmp0 (page, "preferences") == 0)
    g_action_group_activate_action (G_ACTION_GROUP (app), page, NULL);
  if (g_strcmp0 (page, "about") == 0)
    {
      GtkWindow *about = ui_about_show (window);
      if (self->screenshot_subpage != NULL)
        gtk_widget_activate_action (GTK_WIDGET (about), "about.subpage", "s", self->screenshot_subpage);
    }
  if (g_strcmp0 (page, "history") == 0)
    {
      UiHistoryWindow *history = ui_history_window_new (window);
      if (self->screenshot_width > 0)
        gtk_window_set_default_size (GTK_WINDOW (history), self->screenshot_width, self->screenshot_height);
      gtk_window_present (GTK_WINDOW (history));
      if (!ui_history_window_show (history, self->screenshot_subpage))
        g_printerr ("tablero: the history holds no game to show\n");
    }
  if (g_strcmp0 (page, "guide") == 0)
    {
      UiGuide *guide = ui_guide_new (window);
      gtk_window_present (GTK_WINDOW (guide));
      ui_guide_show_page (guide, self->guide_page);
    }
  /* The first run shows the guide once, and the table starts when it is
   * closed; screenshots never do unless asked ("first-run"). */
  gboolean first_run = self->settings != NULL && !g_settings_get_boolean (self->settings, "first-run-done");
  if ((self->screenshot_path == NULL && first_run) || g_strcmp0 (page, "first-run") == 0)
    {
      if (self->settings != NULL)
        g_settings_set_boolean (self->settings, "first-run-done", TRUE);
      UiGuide *guide = ui_guide_new (window);
      ui_window_first_run (UI_WINDOW (window), GTK_WINDOW (guide));
      gtk_window_present (GTK_WINDOW (guide));
    }
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

/* --game: one Tablero referees; false after saying which there are. */
static gboolean
read_game (UiApplication *self, GVariantDict *options)
{
  const char *game = NULL;
  if (!g_variant_dict_lookup (options, "game", "&s", &game))
    return TRUE;
  if (eng_game_class_find (game) == NULL)
    {
      char known[256];
      eng_game_class_names (known, sizeof known);
      g_printerr (_ ("tablero: unknown game '%s' (known: %s)\n"), game, known);
      return FALSE;
    }
  g_free (self->game);
  self->game = g_strdup (game);
  return TRUE;
}

/* --players: 2 or more names a player can be called by, none twice; false
 * after saying which is wrong. */
static gboolean
read_players (UiApplication *self, GVariantDict *options)
{
  const char *players = NULL;
  if (!g_variant_dict_lookup (options, "players", "&s", &players))
    return TRUE;
  g_auto (GStrv) names = g_strsplit (players, ",", -1);
  for (char **n = names; *n != NULL; n++)
    g_strstrip (*n);   /* "Ana, Bea" is two names, not " Bea" */
  guint n = g_strv_length (names);
  EngNameCheck check;
  int bad = eng_names_find_fault ((const char *const *) names, n, &check);
  if (n < 2 || n > ENG_MAX_PLAYERS)
    {
      g_printerr (_ ("tablero: --players takes 2 to %d comma-separated names\n"),
                  ENG_MAX_PLAYERS);
      return FALSE;
    }
  if (bad >= 0)
    {
      /* a name is shown as typed unless it holds bytes a terminal acts on */
      g_autofree char *shown = check == ENG_NAME_CONTROL || check == ENG_NAME_NOT_UTF8
                               ? g_strescape (names[bad], NULL) : g_strdup (names[bad]);
      g_printerr (_ ("tablero: --players: name %d '%s': %s\n"), bad + 1, shown,
                  check == ENG_NAME_OK ? _ ("named twice") : eng_name_check_to_string (check));
      return FALSE;
    }
  g_strfreev (self->players);
  self->players = g_steal_pointer (&names);
  self->players_given = TRUE;
  return TRUE;
}

/* --screenshot-size WIDTHxHEIGHT; false after saying the sizes taken. */
static gboolean
read_screenshot_size (UiApplication *self, GVariantDict *options)
{
  const char *size = NULL;
  if (!g_variant_dict_lookup (options, "screenshot-size", "&s", &size))
    return TRUE;
  char *end = NULL;
  gint64 w = g_ascii_strtoll (size, &end, 10), h = 0;
  if (end != NULL && *end == 'x')
    h = g_ascii_strtoll (end + 1, &end, 10);
  if (end == NULL || *end != '\0' || w < 320 || h < 240 || w > 7680 || h > 4320)
    {
      g_printerr (_ ("tablero: --screenshot-size '%s': give WIDTHxHEIGHT in pixels, from 320x240 to 7680x4320\n"),
                  size);
      return FALSE;
    }
  self->screenshot_width = (int) w;
  self->screenshot_height = (int) h;
  return TRUE;
}

/* Whether `sub` (NULL: none) is a subpage of `page` a screenshot can show:
 * "guide:N" shows the guide's page N (from 1, *n), "about:credits" and
 * "about:legal" the About window's page, "history:game" and
 * "history:player" the history's. */
static gboolean
subpage_is_known (const char *page, const char *sub, guint64 *n)
{
  return sub == NULL
         || (g_strcmp0 (page, "guide") == 0 && g_ascii_string_to_unsigned (sub, 10, 1, 99, n, NULL))
         || (g_strcmp0 (page, "about") == 0 && (g_strcmp0 (sub, "credits") == 0 || g_strcmp0 (sub, "legal") == 0))
         || (g_strcmp0 (page, "history") == 0 && (g_strcmp0 (sub, "game") == 0 || g_strcmp0 (sub, "player") == 0));
}

/* --screenshot-page PAGE[:SUB]; false after saying the pages there are. */
static gboolean
read_screenshot_page (UiApplication *self, GVariantDict *options)
{
  static const char *const known[] = {
    "main", "calibration", "setup", "correction", "table", "shortcuts", "about", "rules", "stickers", "guide",
    "preferences", "first-run", "history", NULL,
  };
  const char *page = NULL;
  if (!g_variant_dict_lookup (options, "screenshot-page", "&s", &page))
    return TRUE;
  g_auto (GStrv) parts = g_strsplit (page, ":", 2);
  guint64 n = 1;
  if (!g_strv_contains (known, parts[0]) || !subpage_is_known (parts[0], parts[1], &n))
    {
      g_printerr (_ ("tablero: unknown page '%s' (known: main, calibration, setup, correction, table, "
                     "shortcuts, about[:credits|:legal], rules, stickers, guide[:N], preferences, first-run, "
                     "history[:game|:player])\n"), page);
      return FALSE;
    }
  g_free (self->screenshot_page);
  self->screenshot_page = g_strdup (parts[0]);
  self->screenshot_subpage = g_strdup (parts[1]);
  self->guide_page = (guint) n - 1;
  return TRUE;
}

/* Players named on the command line are the table's choice for this
 * game: kept, and the window's first game starts with them. */
static void
keep_given_players (UiApplication *self)
{
  EngSetup setup;
  eng_setup_init (&setup);
  for (char **name = self->players; *name != NULL; name++, setup.n_players++)
    {
      g_strlcpy (setup.names[setup.n_players], *name, ENG_NAME_MAX);
      setup.seats[setup.n_players] = (uint8_t) (setup.n_players + 1);
    }
  EngOptions house;
  gboolean kept = ui_settings_get_options (self->settings, self->game, &house);
  ui_settings_save_game (self->settings, self->game, &setup, kept ? &house : NULL);
}

static int
ui_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  UiApplication *self = UI_APPLICATION (app);
  const char *source = NULL, *shot = NULL;
  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("tablero %s\n", TABLERO_VERSION);
      return 0;
    }
  if (!read_game (self, options))
    return 2;
  if (g_variant_dict_lookup (options, "source", "&s", &source))
    {
      g_free (self->source);
      self->source = g_strdup (source);
      self->no_camera = FALSE;   /* the source asked for is no fallback */
    }
  if (!read_players (self, options))
    return 2;
  self->new_game = g_variant_dict_contains (options, "new-game");
  if (!g_variant_dict_lookup (options, "screenshot-frames", "i", &self->screenshot_frames)
      || self->screenshot_frames < 1)
    self->screenshot_frames = 3;
  self->screenshot_freeze = g_variant_dict_contains (options, "screenshot-freeze");
  if (g_variant_dict_lookup (options, "screenshot", "^&ay", &shot))
    self->screenshot_path = g_strdup (shot);
  if (!read_screenshot_size (self, options) || !read_screenshot_page (self, options))
    return 2;
  if (self->screenshot_path != NULL)
    {
      /* A screenshot is its own run (tests and docs run several at once):
       * it never hands over to, or waits for, the table's instance. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  if (self->players_given)
    keep_given_players (self);
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
  g_free (self->screenshot_subpage);
  g_strfreev (self->players);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ui_application_parent_class)->finalize (object);
}

static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_application_quit (G_APPLICATION (data));
}

static void
about_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  ui_about_show (main_window (UI_APPLICATION (data)));
}

static void
shortcuts_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  GtkWindow *window = main_window (UI_APPLICATION (data));
  gtk_window_present (ui_shortcuts_window_new (window, window != NULL
                                               ? ui_window_get_card_set (UI_WINDOW (window)) : NULL));
}

static void
rules_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  UiApplication *self = UI_APPLICATION (data);
  gtk_window_present (GTK_WINDOW (ui_rules_dialog_new (main_window (self), current_game (self))));
}

static void
stickers_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  UiApplication *self = UI_APPLICATION (data);
  gtk_window_present (GTK_WINDOW (ui_stickers_dialog_new (main_window (self), current_game (self))));
}

static void
preferences_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  UiApplication *self = UI_APPLICATION (data);
  gtk_window_present (GTK_WINDOW (ui_preferences_window_new (main_window (self), self->settings)));
}

static void
history_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  gtk_window_present (GTK_WINDOW (ui_history_window_new (main_window (UI_APPLICATION (data)))));
}

static void
guide_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  gtk_window_present (GTK_WINDOW (ui_guide_new (main_window (UI_APPLICATION (data)))));
}

/* Keys that work in every window of the app; the window's own keys (the
 * table's commands) are its bindings.  ui-shortcuts.ui lists them all. */
static void
ui_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (ui_application_parent_class)->startup (app);
  ui_a11y_install ();
  ui_window_fit_dialogs ();
  static const struct { const char *action; const char *accels[2]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.shortcuts", { "<Control>question", NULL } },
    { "app.rules", { "F1", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.history", { "<Control>h", NULL } },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

static void
ui_application_class_init (UiApplicationClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ui_application_finalize;
  G_APPLICATION_CLASS (klass)->activate = ui_application_activate;
  G_APPLICATION_CLASS (klass)->startup = ui_application_startup;
  G_APPLICATION_CLASS (klass)->shutdown = ui_application_shutdown;
  G_APPLICATION_CLASS (klass)->handle_local_options = ui_application_handle_local_options;
}

static void
ui_application_init (UiApplication *self)
{
  static const GOptionEntry entries[] = {
    { "game", 'g', 0, G_OPTION_ARG_STRING, NULL, N_ ("Game to referee, by its short name (an unknown one lists them)"), N_ ("GAME") },
    { "source", 's', 0, G_OPTION_ARG_STRING, NULL, N_ ("Frame source: demo, camera[:N], v4l2:/dev/videoN, file:PATH"), N_ ("SPEC") },
    { "players", 'p', 0, G_OPTION_ARG_STRING, NULL, N_ ("Player names in seat order, clockwise (default: Ana,Bea)"), "A,B,..." },
    { "screenshot-frames", 0, 0, G_OPTION_ARG_INT, NULL, N_ ("With --screenshot: wait until N camera frames were shown (default 3)"), "N" },
    { "screenshot-freeze", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("With --screenshot: the table stops at frame N, so the picture is that moment however slow the machine"), NULL },
    { "screenshot-page", 0, 0, G_OPTION_ARG_STRING, NULL, N_ ("With --screenshot: show this first: main, calibration (camera setup), setup (new game), correction (a misread card), table (table mode), shortcuts, about[:credits|:legal], rules, stickers, guide[:N], preferences or first-run (the guide over the waiting table)"), N_ ("PAGE") },
    { "screenshot-size", 0, 0, G_OPTION_ARG_STRING, NULL, N_ ("With --screenshot: the window's size, e.g. 1920x1080"), N_ ("WxH") },
    { "new-game", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Open the new-game setup at start"), NULL },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_ ("Save a PNG of the window once shown, then quit"), N_ ("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the version and exit"), NULL },
    { NULL },
  };
  static const GActionEntry actions[] = {
    { .name = "quit", .activate = quit_action },
    { .name = "about", .activate = about_action },
    { .name = "shortcuts", .activate = shortcuts_action },
    { .name = "rules", .activate = rules_action },
    { .name = "stickers", .activate = stickers_action },
    { .name = "guide", .activate = guide_action },
    { .name = "preferences", .activate = preferences_action },
    { .name = "history", .activate = history_action },
  };
  self->settings = ui_settings_new ();
  self->game = default_game (self->settings);
  self->players = g_strsplit ("Ana,Bea", ",", -1);
  self->source = default_source (self->settings, &self->no_camera);
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
}

UiApplication *
ui_application_new (void)
{
  return g_object_new (UI_TYPE_APPLICATION,
                       "application-id", "org.tablero.Tablero",
                       /* one instance: a second launch raises the first window */
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       NULL);
}

int
ui_application_get_exit_status (UiApplication *self)
{
  return self->exit_status;
}
