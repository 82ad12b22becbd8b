#include "ui-window.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-data.h"
#include "eng-game.h"
#include "ui-calibration-page.h"
#include "ui-camera-controls.h"
#include "ui-camera-view.h"
#include "ui-command-bar.h"
#include "ui-correction-dialog.h"
#include "ui-list.h"
#include "ui-pipeline.h"
#include "ui-referee.h"
#include "ui-rule-panel.h"
#include "ui-scoreboard.h"
#include "ui-settings.h"
#include "ui-setup-dialog.h"
#include "ui-table-map.h"
#include "ui-table-mode.h"
#include "ui-window-fit.h"
#include "ui-words.h"
#include "vis-source.h"
#ifdef TABLERO_HAVE_SPEECH
#include "spk-sentence.h"
#include "spk-voice.h"
#endif

#define LOG_MAX_ROWS 200
/* words a minute: spk-voice.h's range, the schema's default (speech-rate) */
#define SPEECH_RATE_MIN 80
#define SPEECH_RATE_MAX 450
#define SPEECH_RATE_DEFAULT 175

G_DEFINE_QUARK (ui-window-error-quark, ui_window_error)

struct _UiWindow
{
  AdwApplicationWindow parent_instance;

  char *game;
  char *source;
  char **players;
  char *journal_path;
  UiPipeline *pipeline;
  UiReferee *referee;
  EngCardSet *card_set;
  GtkShortcutController *command_keys;   /* the set's command keys (`key=` in its file) */

  AdwWindowTitle *window_title;
  UiCameraView *camera_view;
  GtkLabel *camera_status;
  AdwComboRow *game_row;
  UiCommandBar *command_bar;
  AdwComboRow *source_row;
  GtkStringList *source_names;
  GPtrArray *source_specs;     /* parallel to source_names */
  gboolean filling_sources;    /* the list is being rebuilt: not a choice */
  UiCameraControls *camera_controls;
  VisCameraControls controls;  /* focus, exposure, anti-flicker (the camera-* settings) */
  AdwActionRow *version_row;
  GtkListBox *log_list;
  GtkListBox *todo_list;
  UiScoreboard *scoreboard;
  UiRulePanel *rule_panel;
  UiTableMap *table_map;
  GtkStack *sidebar_stack;
  GtkToggleButton *game_page_button;
  GtkToggleButton *setup_page_button;
  UiCalibrationPage *calibration_page;
  AdwToastOverlay *toast_overlay;
  AdwToast *toast;             /* the one shown, owned by the overlay; NULL: none */
  GtkStack *main_stack;
  GtkWidget *header_bar;
  AdwFlap *flap;
  GtkWidget *panel_button;
  GtkBox *picture_box;
  GtkWidget *sidebar;
  GtkLabel *caption;           /* the latest announcement (a status) */
  GtkInfoBar *notice_bar;
  GtkLabel *notice_label;
  GtkWidget *camera_overlay;
  GtkWidget *table_page;
  GtkGrid *table_box;
  UiTableMode *table_mode;
  GtkWidget *new_game_button;
  GtkWindow *hold;             /* the table waits until this window closes (the first run's guide) */
  gboolean table_mode_on;      /* the "table-mode" property (win.table-mode) */
  char *calibration_path;      /* where the table's calibration is saved */
  gboolean recalibrate;        /* the next pipeline ignores the saved one */
  gint64 calibration_shown_us; /* the page is refreshed a few times a second */
  guint n_log_rows;
  guint pending_move;          /* 1 + the said index of a move not yet shown in
                                  a row's details; 0 none */
  gboolean learning;           /* the "learning" property: rules taught as they come up */
  guint n_referees;            /* referees attached so far: which game a log row is of */
  guint frames_shown;
  guint freeze_at;             /* --screenshot-freeze: the source's last frame (0: none) */
  /* The table as the camera last committed it: a referee started on a
   * still table (a new game, a journal set aside) reads it at the next
   * frame, since a table that does not change sends no new snapshot. */
  EngSnapshot *table_now;
  gboolean table_seen;         /* table_now holds a snapshot */
  gboolean referee_unfed;      /* the referee has read no snapshot yet */

  /* The voice says the announcements of one batch as one utterance, once
   * the batch is complete (an idle after the signals). */
  GtkToggleButton *mute_button;
  gboolean muted;
  char *voice_name;            /* the "voice" property: "" the language's default */
  int speech_rate;             /* the "speech-rate" property */
#ifdef TABLERO_HAVE_SPEECH
  SpkVoice *voice;             /* NULL when espeak-ng cannot start */
  GString *utterance;
  SpkPriority utterance_priority;
  guint speak_idle;
#endif
};

G_DEFINE_FINAL_TYPE (UiWindow, ui_window, ADW_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_TABLE_MODE, PROP_MUTED, PROP_VOICE, PROP_SPEECH_RATE, PROP_LEARNING, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* The game row lists the registry's games in its order. */
static guint
game_index (const char *game)
{
  for (guint i = 0; i < eng_game_class_count (); i++)
    if (g_strcmp0 (game, eng_game_class_get (i)->name) == 0)
      return i;
  return 0;
}

static const char *
game_title (const EngGameClass *klass)
{
  return klass->title != NULL ? klass->title : klass->name;
}

static GListModel *
game_titles_model (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);
  for (guint i = 0; i < eng_game_class_count (); i++)
    gtk_string_list_append (list, game_title (eng_game_class_get (i)));
  return G_LIST_MODEL (list);
}

static char *
describe_source (const char *source)
{
  if (g_str_has_prefix (source, "demo"))
    return g_strdup (_ ("Demo table: a scripted game, rendered live"));
  if (g_str_has_prefix (source, "v4l2:"))
    return g_strdup_printf (_ ("Webcam %s"), source + strlen ("v4l2:"));
  if (g_str_has_prefix (source, "camera"))
    return g_strdup_printf (_ ("Camera (libcamera) %s"), source);
  if (g_str_has_prefix (source, "file:"))
    return g_strdup_printf (_ ("Recorded frames from %s"), source + strlen ("file:"));
  return g_strdup (source);
}

/* Newest announcement first; the list keeps the last LOG_MAX_ROWS. */
static void
announce_row (UiWindow *self, GtkWidget *label)
{
  gtk_list_box_prepend (self->log_list, label);
  if (++self->n_log_rows > LOG_MAX_ROWS)
    {
      GtkListBoxRow *last = gtk_list_box_get_row_at_index (self->log_list, LOG_MAX_ROWS);
      if (last != NULL)
        gtk_list_box_remove (self->log_list, GTK_WIDGET (last));
      self->n_log_rows--;
    }
}

/* The newest words under the picture: the caption a person reads at a
 * glance and a screen reader reads as the window's status. */
static void
caption (UiWindow *self, const char *text)
{
  gtk_label_set_text (self->caption, text);
  gtk_widget_set_visible (GTK_WIDGET (self->caption), text != NULL && text[0] != '\0');
}

static void
announce (UiWindow *self, const char *text)
{
  announce_row (self, ui_list_label (text));
  caption (self, text);
}

/* The details of a log row, for who asks: the rule by its id and name, and
 * the move as the record writes it ("Bea hit show 26").  NULL when there
 * is nothing to tell. */
static char *
row_details (UiWindow *self, guint said, guint move)
{
  GString *details = g_string_new (NULL);
  const char *rule = said > 0 ? ui_referee_get_said_rule (self->referee, said - 1) : NULL;
  const UiRuleDoc *doc = ui_referee_get_rule (self->referee, rule);
  if (doc != NULL)
    /* Translators: a rule's id and name in an announcement's details. */
    g_string_append_printf (details, _ ("Rule %s: %s"), doc->id, doc->title);
  if (move > 0)
    {
      g_autofree char *line = ui_referee_dup_said (self->referee, move - 1);
      if (details->len > 0)
        g_string_append_c (details, '\n');
      /* Translators: the move as the game record writes it, in the details. */
      g_string_append_printf (details, _ ("Record: %s"), line);
    }
  if (details->len == 0)
    {
      g_string_free (details, TRUE);
      return NULL;
    }
  return g_string_free (details, FALSE);
}

/* One announcement in the log: its words, and under a "Details" expander
 * the rule and record line it came with.  `said` and `move` are 1 + their
 * said indexes (0: none), kept so the row can be read again as the game
 * changes (redact_log). */
static void
announce_said (UiWindow *self, const char *text, guint said, guint move)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = ui_list_label (text);
  gtk_box_append (GTK_BOX (box), label);
  g_object_set_data (G_OBJECT (box), "text", label);
  /* the indexes are this referee's: a new game's rows count afresh */
  g_object_set_data (G_OBJECT (box), "game", GUINT_TO_POINTER (self->n_referees));
  g_object_set_data (G_OBJECT (box), "said", GUINT_TO_POINTER (said));
  g_object_set_data (G_OBJECT (box), "move", GUINT_TO_POINTER (move));
  g_autofree char *details = row_details (self, said, move);
  if (details != NULL)
    {
      GtkWidget *expander = gtk_expander_new (_ ("Details"));
      /* GTK 4.8 names an expander by its type, not its label */
      gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL, _ ("Details"), -1);
      GtkWidget *more = ui_list_label (details);
      gtk_widget_add_css_class (more, "dim-label");
      gtk_widget_add_css_class (more, "caption");
      gtk_label_set_selectable (GTK_LABEL (more), TRUE);
      gtk_expander_set_child (GTK_EXPANDER (expander), more);
      gtk_widget_set_margin_start (expander, 12);
      gtk_widget_set_margin_bottom (expander, 6);
      gtk_widget_add_css_class (expander, "dim-label");
      gtk_box_append (GTK_BOX (box), expander);
      g_object_set_data (G_OBJECT (box), "details", more);
    }
  announce_row (self, box);
}

/* A move the batch accepted but no announcement carried yet (one that
 * only asked the table for something): a row of its own, so its record
 * line stays in the details. */
static void
flush_pending_move (UiWindow *self)
{
  if (self->pending_move == 0)
    return;
  guint move = self->pending_move;
  self->pending_move = 0;
  announce_said (self, _ ("The move is recorded."), 0, move);
}

/* Every announcement in the log as the table may read it now: one that
 * names a card gone face down since (back into a hand, turned down again)
 * no longer names it (K20, C11, E16), in its words or its details. */
static void
redact_log (UiWindow *self)
{
  flush_pending_move (self);
  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->log_list, i);
      if (row == NULL)
        break;
      GtkWidget *box = gtk_list_box_row_get_child (row);
      guint said = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (box), "said"));
      guint move = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (box), "move"));
      guint n = ui_referee_n_said (self->referee);
      if ((said == 0 && move == 0) || said > n || move > n
          || GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (box), "game")) != self->n_referees)
        continue;
      GtkLabel *label = g_object_get_data (G_OBJECT (box), "text");
      if (said > 0 && label != NULL)
        {
          g_autofree char *now = ui_referee_dup_said (self->referee, said - 1);
          if (g_strcmp0 (gtk_label_get_text (label), now) != 0)
            gtk_label_set_text (label, now);
        }
      GtkLabel *more = g_object_get_data (G_OBJECT (box), "details");
      g_autofree char *details = more != NULL ? row_details (self, said, move) : NULL;
      if (details != NULL && g_strcmp0 (gtk_label_get_text (more), details) != 0)
        gtk_label_set_text (more, details);
    }
}

/* A question that names players ("Whose card is this?", "Who swapped
 * the start card?"): one button per candidate, the
 * one the referee names first; a click answers through win.choose-player. */
static GtkWidget *
choice_row (UiWindow *self, const int *players, guint n)
{
  const EngSetup *setup = ui_referee_get_setup (self->referee);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  GtkWidget *question = gtk_label_new (_ ("Or tap the player:"));
  gtk_label_set_wrap (GTK_LABEL (question), TRUE);
  gtk_label_set_xalign (GTK_LABEL (question), 0);
  gtk_box_append (GTK_BOX (box), question);
  GtkWidget *buttons = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (buttons), GTK_SELECTION_NONE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (buttons), 8);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (buttons), 8);
  for (guint i = 0; i < n; i++)
    {
      if (players[i] < 0 || (unsigned) players[i] >= setup->n_players)
        continue;
      GtkWidget *button = gtk_button_new_with_label (setup->names[players[i]]);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.choose-player");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "i", (gint32) players[i]);
      if (i == 0)
        gtk_widget_add_css_class (button, "suggested-action");
      gtk_flow_box_append (GTK_FLOW_BOX (buttons), button);
    }
  gtk_box_append (GTK_BOX (box), buttons);
  return box;
}

/* Highlights only what the table is expected to give now: the turn's
 * command while the player in turn decides with nothing else open, "New
 * game" once the game is over, nothing otherwise (a defence, a question). */
static void
refresh_suggestions (UiWindow *self)
{
  gboolean over = self->referee == NULL || ui_referee_is_over (self->referee);
  gboolean turn = self->referee != NULL && ui_referee_awaits_turn_command (self->referee);
  ui_command_bar_update (self->command_bar, over, turn);
  if (over)
    gtk_widget_add_css_class (self->new_game_button, "suggested-action");
  else
    gtk_widget_remove_css_class (self->new_game_button, "suggested-action");
}

/* The game is over: the result (the way on to the next game is the
 * command bar's and the header's New game). */
static void
show_game_over (UiWindow *self)
{
  ui_rule_panel_dismiss (self->rule_panel);
  g_autofree char *status = ui_referee_dup_status (self->referee);
  GtkWidget *label = ui_list_label (status);
  gtk_widget_add_css_class (label, "title-4");
  gtk_list_box_append (self->todo_list, label);
}

static void
refresh_todo (UiWindow *self)
{
  ui_list_clear (self->todo_list);
  refresh_suggestions (self);
  if (self->referee != NULL && ui_referee_is_over (self->referee))
    {
      show_game_over (self);
      return;
    }
  g_auto (GStrv) questions = self->referee ? ui_referee_dup_questions (self->referee) : NULL;
  for (char **q = questions; q && *q; q++)
    {
      GtkWidget *label = ui_list_label (*q);
      gtk_widget_add_css_class (label, "heading");
      gtk_list_box_append (self->todo_list, label);
    }
  g_auto (GStrv) todo = self->referee ? ui_referee_dup_expectations (self->referee) : NULL;
  for (char **t = todo; t && *t; t++)
    gtk_list_box_append (self->todo_list, ui_list_label (*t));
  int players[ENG_MAX_PLAYERS];
  guint n_choice = self->referee ? ui_referee_get_choice (self->referee, players, G_N_ELEMENTS (players)) : 0;
  if (n_choice > 0)
    gtk_list_box_append (self->todo_list, choice_row (self, players, n_choice));
  if ((todo == NULL || todo[0] == NULL) && n_choice == 0 && (questions == NULL || questions[0] == NULL))
    {
      GtkWidget *label = gtk_label_new (_ ("Nothing pending: play on."));
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_margin_top (label, 8);
      gtk_widget_set_margin_bottom (label, 8);
      gtk_list_box_append (self->todo_list, label);
    }
}

#ifdef TABLERO_HAVE_SPEECH
static gboolean
speak_batch (gpointer data)
{
  UiWindow *self = data;
  self->speak_idle = 0;
  spk_voice_say (self->voice, self->utterance->str, self->utterance_priority);
  g_string_truncate (self->utterance, 0);
  g_autoptr (GError) error = NULL;
  if (!spk_voice_check (self->voice, &error))
    {
      /* no sound card: the button says why the referee is silent */
      g_autofree char *why = g_strdup_printf (_ ("The referee cannot speak: %s"), error->message);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->mute_button), why);
      gtk_widget_set_sensitive (GTK_WIDGET (self->mute_button), FALSE);
      g_clear_pointer (&self->voice, spk_voice_free);
    }
  self->utterance_priority = SPK_PRIORITY_NORMAL;
  return G_SOURCE_REMOVE;
}
#endif

/* The table hears what the log and "What to do next" show, the same
 * public text (never a face-down card: K20, C11, E16). */
static void
speak (UiWindow *self, guint kind, const char *text)
{
#ifdef TABLERO_HAVE_SPEECH
  if (self->voice == NULL
      || !spk_utterance_add_text (self->utterance, &self->utterance_priority, kind, text))
    return;
  if (self->speak_idle == 0)
    self->speak_idle = g_idle_add (speak_batch, self);
#endif
}

static void
on_announce (UiReferee *referee, guint kind, const char *text, const char *rule, UiWindow *self)
{
  speak (self, kind, text);
  guint said = ui_referee_n_said (referee);   /* this announcement is said - 1 */
  if (kind == ENG_EVENT_ACCEPTED)
    {
      ui_camera_view_set_highlight (self->camera_view, ui_referee_get_card_in_play (referee));
      /* the game moved on: a refusal of before no longer applies */
      ui_rule_panel_dismiss (self->rule_panel);
      ui_table_mode_clear_refusal (self->table_mode);
      /* the record line is a detail of what the table reads next */
      flush_pending_move (self);
      self->pending_move = said;
      return;
    }
  if (kind == ENG_EVENT_NEED)
    return;   /* needs are listed under "What to do next" */
  if (kind == ENG_EVENT_ILLEGAL || kind == ENG_EVENT_CONSERVATION)
    {
      /* the rule the refusal names is the one explained: the same id */
      const UiRuleDoc *doc = ui_referee_get_rule (referee, rule);
      ui_rule_panel_explain (self->rule_panel, text, rule, doc != NULL ? doc->title : NULL,
                             doc != NULL ? doc->text : NULL);
      ui_table_mode_show_refusal (self->table_mode, text, doc != NULL ? doc->title : NULL);
    }
  guint move = self->pending_move;
  self->pending_move = 0;
  announce_said (self, text, said, move);
  /* a rule explained the first time it comes up (learning) stands out */
  const UiRuleDoc *doc = ui_referee_get_rule (referee, rule);
  if (kind == ENG_EVENT_NOTE && doc != NULL && g_strcmp0 (text, doc->brief) == 0)
    gtk_widget_add_css_class (gtk_list_box_row_get_child (gtk_list_box_get_row_at_index (self->log_list, 0)),
                              "accent");
}

/* Shows the window's referee in every view.  Journaling starts only once
 * no saved game waits for an answer, so a new game never overwrites it. */
static void
attach_referee (UiWindow *self)
{
  self->referee_unfed = TRUE;
  ui_referee_set_learning (self->referee, self->learning);
  self->pending_move = 0;
  self->n_referees++;
  g_signal_connect (self->referee, "announce", G_CALLBACK (on_announce), self);
  g_signal_connect_swapped (self->referee, "changed", G_CALLBACK (refresh_todo), self);
  g_signal_connect_swapped (self->referee, "changed", G_CALLBACK (redact_log), self);
  ui_scoreboard_set_referee (self->scoreboard, self->referee);
  ui_table_map_set_referee (self->table_map, self->referee);
  ui_table_mode_set_referee (self->table_mode, self->referee);
  ui_camera_view_set_game (self->camera_view, ui_referee_get_game (self->referee));
  refresh_todo (self);
}

/* A fresh referee for the window's game: the table starts a new game (the
 * first snapshot with every cat dealt becomes its baseline).  `options`
 * may be NULL (the rules file as it is). */
static void
start_referee (UiWindow *self, const EngSetup *setup, const EngOptions *options)
{
  if (self->referee != NULL)
    g_signal_handlers_disconnect_by_data (self->referee, self);
  ui_camera_view_set_game (self->camera_view, NULL);
  g_clear_object (&self->referee);
  ui_scoreboard_set_referee (self->scoreboard, NULL);
  ui_table_map_set_referee (self->table_map, NULL);
  ui_table_mode_set_referee (self->table_mode, NULL);
  ui_rule_panel_dismiss (self->rule_panel);

  g_autoptr (GError) error = NULL;
  self->referee = ui_referee_new (self->game, setup, options, &error);
  if (self->referee == NULL)
    {
      g_autofree char *text = g_strdup_printf (_ ("No referee: %s"), error->message);
      announce (self, text);
      refresh_todo (self);
      return;
    }
  attach_referee (self);
  GString *names = g_string_new (NULL);
  for (unsigned p = 0; p < setup->n_players; p++)
    g_string_append_printf (names, "%s%s", p ? ", " : "", setup->names[p]);
  /* Translators: the player names, then the first player. */
  g_autofree char *text = g_strdup_printf (_ ("New game: %s. %s starts."), names->str,
                                           setup->names[setup->first >= 0 ? setup->first : 0]);
  g_string_free (names, TRUE);
  announce (self, text);
}

static void
start_referee_with_players (UiWindow *self)
{
  EngSetup setup;
  eng_setup_init (&setup);
  for (char **name = self->players; name && *name && setup.n_players < ENG_MAX_PLAYERS; name++)
    {
      g_strlcpy (setup.names[setup.n_players], *name, ENG_NAME_MAX);
      setup.seats[setup.n_players] = (uint8_t) (setup.n_players + 1);
      setup.n_players++;
    }
  setup.first = 0;
  /* the players, seats and house rules the table last set for this game */
  g_autoptr (GSettings) settings = ui_settings_new ();
  EngOptions options;
  gboolean kept_options = ui_settings_get_options (settings, self->game, &options);
  EngSetup kept;
  if (ui_settings_get_setup (settings, self->game, &kept))
    setup = kept;
  start_referee (self, &setup, kept_options ? &options : NULL);
}

static gboolean show_game (UiWindow *self, const char *game);

static void
on_setup_start (UiSetupDialog *dialog, UiWindow *self)
{
  EngSetup setup;
  EngOptions options;
  /* the table may have picked another game in the setup */
  show_game (self, ui_setup_dialog_get_game (dialog));
  ui_setup_dialog_get_setup (dialog, &setup);
  ui_setup_dialog_get_options (dialog, &options);
  start_referee (self, &setup, &options);
  if (self->referee != NULL)
    ui_referee_set_journal (self->referee, self->journal_path);
}

static void
on_resume_response (AdwMessageDialog *dialog, const char *response, UiWindow *self)
{
  if (g_strcmp0 (response, "resume") == 0)
    {
      g_autoptr (GError) error = NULL;
      UiReferee *resumed = ui_referee_resume (self->journal_path, &error);
      if (resumed != NULL)
        {
          if (self->referee != NULL)
            g_signal_handlers_disconnect_by_data (self->referee, self);
          g_clear_object (&self->referee);
          self->referee = resumed;
          attach_referee (self);
          announce (self, _ ("Game resumed where the table was. Put the cards back as the map shows if anything moved."));
          return;
        }
      g_autofree char *text = g_strdup_printf (_ ("The saved game could not be resumed: %s"), error->message);
      announce (self, text);
    }
  else
    announce (self, _ ("The saved game was set aside: a new game starts."));
  if (self->referee != NULL)
    ui_referee_set_journal (self->referee, self->journal_path);
}

static void
on_mapped_present (GtkWindow *dialog)
{
  g_signal_handlers_disconnect_by_func (gtk_window_get_transient_for (dialog), on_mapped_present, dialog);
  gtk_window_present (dialog);
}

/* Shows `dialog` over the window: once the window is on screen, so that a
 * window manager does not stack the window above its own dialog. */
static void
present_over (UiWindow *self, GtkWindow *dialog)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_window_present (dialog);
  else
    g_signal_connect_object (self, "map", G_CALLBACK (on_mapped_present), dialog,
                             G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

/* Whether `saved` is a game of the window's game and players. */
static gboolean
same_table (UiWindow *self, UiReferee *saved)
{
  if (self->referee == NULL
      || g_strcmp0 (eng_game_class (ui_referee_get_game (saved))->name, self->game) != 0)
    return FALSE;
  const EngSetup *a = ui_referee_get_setup (saved), *b = ui_referee_get_setup (self->referee);
  if (a->n_players != b->n_players)
    return FALSE;
  for (unsigned p = 0; p < a->n_players; p++)
    if (strcmp (a->names[p], b->names[p]) != 0)
      return FALSE;
  return TRUE;
}

/* A game journaled by a previous run that did not finish (crash, kill, power
 * cut) is offered back; anything else starts journaling at once. */
static void
offer_resume (UiWindow *self)
{
  g_autoptr (GError) error = NULL;
  if (!g_file_test (self->journal_path, G_FILE_TEST_EXISTS))
    {
      if (self->referee != NULL)
        ui_referee_set_journal (self->referee, self->journal_path);
      return;
    }
  g_autoptr (UiReferee) saved = ui_referee_resume (self->journal_path, &error);
  if (saved == NULL)
    {
      g_autofree char *text = g_strdup_printf (_ ("A saved game was found but cannot be resumed: %s"), error->message);
      announce (self, text);
      if (self->referee != NULL)
        ui_referee_set_journal (self->referee, self->journal_path);
      return;
    }
  /* a game stopped before its first move has nothing to lose: the game
   * asked for goes on, its table read as it is now (the cards laid since
   * included); one of another game or table is set aside */
  if (eng_game_history_depth (ui_referee_get_game (saved)) == 0)
    {
      if (!same_table (self, saved))
        {
          if (self->referee != NULL)
            ui_referee_set_journal (self->referee, self->journal_path);
          return;
        }
      if (self->referee != NULL)
        g_signal_handlers_disconnect_by_data (self->referee, self);
      g_clear_object (&self->referee);
      self->referee = g_steal_pointer (&saved);
      attach_referee (self);
      return;
    }
  /* the game, the players and when, as the table remembers them: "a game
   * of Katua with Ana and Bea, yesterday at 21:40" */
  const EngSetup *setup = ui_referee_get_setup (saved);
  const char *names[ENG_MAX_PLAYERS];
  for (unsigned p = 0; p < setup->n_players && p < ENG_MAX_PLAYERS; p++)
    names[p] = setup->names[p];
  g_autofree char *players = ui_words_join_names (names, MIN (setup->n_players, ENG_MAX_PLAYERS));
  const EngGameClass *klass = eng_game_class (ui_referee_get_game (saved));
  g_autoptr (GFile) file = g_file_new_for_path (self->journal_path);
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_TIME_MODIFIED, G_FILE_QUERY_INFO_NONE,
                                                  NULL, NULL);
  g_autoptr (GDateTime) modified = info != NULL ? g_file_info_get_modification_date_time (info) : NULL;
  g_autoptr (GDateTime) then = modified != NULL ? g_date_time_to_local (modified) : g_date_time_new_now_local ();
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = ui_words_when (then, now);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _ ("Resume the game in progress?"), NULL);
  /* Translators: the game ("Katua"), the players ("Ana and Bea"), when
   * ("yesterday at 21:40"). */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _ ("Tablero stopped during a game of %s with %s, %s. Resume it where the table was, or start a new game?"),
                                  game_title (klass), players, when);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "new", _ ("_New game"), "resume", _ ("_Resume"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "resume",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "resume");
  gtk_window_set_application (GTK_WINDOW (dialog), gtk_window_get_application (GTK_WINDOW (self)));
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_resume_response), self, 0);
  present_over (self, GTK_WINDOW (dialog));
}

static void
new_game_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  UiSetupDialog *dialog = ui_setup_dialog_new (GTK_WINDOW (self), self->game,
                                               self->referee ? ui_referee_get_setup (self->referee) : NULL,
                                               self->referee ? ui_referee_get_options (self->referee) : NULL);
  g_signal_connect_object (dialog, "start", G_CALLBACK (on_setup_start), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
update_titles (UiWindow *self)
{
  adw_window_title_set_subtitle (self->window_title,
                                 game_title (eng_game_class_get (game_index (self->game))));
  g_autofree char *description = describe_source (self->source);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->source_row), description);
}

static void
on_frame (UiPipeline *pipeline, GdkTexture *texture, UiWindow *self)
{
  guint n = 0;
  const VisDetection *detections = ui_pipeline_get_detections (pipeline, &n);
  guint n_zones = 0;
  const CalZoneOutline *zones = ui_pipeline_get_zones (pipeline, &n_zones);
  const UiCalibrationFacts *facts = ui_pipeline_get_calibration (pipeline);
  ui_camera_view_set_zones (self->camera_view, zones, n_zones);
  ui_camera_view_set_doubled (self->camera_view, facts->doubled_anchors, facts->doubled_seat,
                              facts->n_doubled_seats);
  ui_camera_view_set_frame (self->camera_view, texture, detections, n);
  /* on a frame, not when the referee starts: its journal is set by then */
  if (self->referee != NULL && self->referee_unfed && self->table_seen)
    {
      self->referee_unfed = FALSE;
      ui_referee_feed (self->referee, self->table_now);
    }
  if (self->referee != NULL)
    ui_referee_frame (self->referee);
  self->frames_shown++;
  double fps = ui_pipeline_get_fps (pipeline);
  g_autofree char *status = fps > 0 ? g_strdup_printf (_ ("%u stickers · %.1f fps"), n, fps)
                                    : g_strdup_printf (_ ("%u stickers"), n);
  /* A doubled marker stays said under the picture while it is in view
   * (the toast that told it goes after a few seconds). */
  g_autofree char *doubles = ui_calibration_facts_doubles (facts);
  if (doubles != NULL)
    {
      g_autofree char *both = g_strdup_printf ("%s · %s", status, doubles);
      gtk_label_set_text (self->camera_status, both);
    }
  else
    gtk_label_set_text (self->camera_status, status);

  gint64 now = g_get_monotonic_time ();
  if (now - self->calibration_shown_us >= G_USEC_PER_SEC / 4)
    {
      self->calibration_shown_us = now;
      ui_calibration_page_update (self->calibration_page, ui_pipeline_get_calibration (pipeline),
                                  self->referee ? ui_referee_get_setup (self->referee) : NULL);
    }
}

static void
on_snapshot (UiPipeline *pipeline, gpointer snapshot, UiWindow *self)
{
  *self->table_now = *(const EngSnapshot *) snapshot;
  self->table_seen = TRUE;
  if (self->referee != NULL)
    {
      self->referee_unfed = FALSE;
      ui_referee_feed (self->referee, snapshot);
    }
}

static void
on_toast_dismissed (UiWindow *self)
{
  self->toast = NULL;
}

/* News of the app itself goes to the log and, wherever the user is
 * looking, to a toast. */
static void
tell (UiWindow *self, const char *message)
{
  announce (self, message);
  /* in table mode the toast would cover the scores: the large view says it */
  ui_table_mode_show_notice (self->table_mode, message);
  /* a toast's title is Pango markup; the message is plain text (paths) */
  g_autofree char *title = g_markup_escape_text (message, -1);
  /* one toast at a time, showing the newest news: a camera that keeps
   * recalibrating must not queue toasts for minutes */
  if (self->toast != NULL)
    {
      adw_toast_set_title (self->toast, title);
      return;
    }
  self->toast = adw_toast_new (title);
  adw_toast_set_timeout (self->toast, 5);
  g_signal_connect_swapped (self->toast, "dismissed", G_CALLBACK (on_toast_dismissed), self);
  adw_toast_overlay_add_toast (self->toast_overlay, self->toast);
}

/* The camera's news ("Calibration saved to ...", "Camera disconnected"). */
static void
on_status (UiPipeline *pipeline, const char *message, UiWindow *self)
{
  tell (self, message);
}

/* The command bar's buttons: one per command card of the game's set.
 * Confirm and cancel are Return and Escape (and a question's own buttons). */
static void
fill_command_buttons (UiWindow *self)
{
  ui_command_bar_set_card_set (self->command_bar, self->card_set);
  refresh_suggestions (self);
}

/* The table's keyboard: one key per thing the camera cannot see, as the
 * game's card set gives them; Return, Escape and Ctrl+Z are the class's. */
static void
fill_command_keys (UiWindow *self)
{
  GListModel *keys = G_LIST_MODEL (self->command_keys);
  while (g_list_model_get_n_items (keys) > 0)
    {
      g_autoptr (GtkShortcut) old = g_list_model_get_item (keys, 0);
      gtk_shortcut_controller_remove_shortcut (self->command_keys, old);
    }
  for (size_t i = 0; self->card_set != NULL && i < eng_card_set_n_commands (self->card_set); i++)
    {
      const EngCommand *c = eng_card_set_command (self->card_set, i);
      if (c->key == 0)
        continue;
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (gdk_unicode_to_keyval (c->key), 0),
                                                gtk_named_action_new ("win.command"));
      gtk_shortcut_set_arguments (shortcut, g_variant_new_string (c->id));
      gtk_shortcut_controller_add_shortcut (self->command_keys, shortcut);
    }
}

static void
load_card_set (UiWindow *self)
{
  g_clear_pointer (&self->card_set, eng_card_set_free);
  ui_camera_view_set_card_set (self->camera_view, NULL);
  ui_command_bar_set_card_set (self->command_bar, NULL);
  fill_command_keys (self);
  g_autofree char *name = g_strdup_printf ("cards/%s.set", self->game);
  char *path = eng_data_path (name);
  EngParseError err = { "" };
  EngStatus status = eng_card_set_load_file (path, &self->card_set, &err);
  free (path);
  if (status != ENG_OK)
    {
      g_autofree char *text = g_strdup_printf (_ ("Card set not loaded: %s:%u: %s"), err.source,
                                               err.line, err.reason);
      announce (self, text);
      return;
    }
  ui_camera_view_set_card_set (self->camera_view, self->card_set);
  fill_command_buttons (self);
  fill_command_keys (self);
}

/* Starts the pipeline on `source`; a missing camera falls back to the demo
 * table, which is where a new user should land anyway. */
static void
start_pipeline (UiWindow *self)
{
  g_autoptr (GError) error = NULL;
  if (self->pipeline != NULL)
    {
      ui_pipeline_stop (self->pipeline);
      g_signal_handlers_disconnect_by_data (self->pipeline, self);
      g_clear_object (&self->pipeline);
    }
  self->pipeline = ui_pipeline_new (self->source, self->game);
  ui_pipeline_freeze_at (self->pipeline, self->freeze_at);
  ui_pipeline_set_camera_controls (self->pipeline, &self->controls);
  gboolean from_saved = !self->recalibrate && g_file_test (self->calibration_path, G_FILE_TEST_IS_REGULAR);
  if (from_saved)
    ui_pipeline_set_calibration_file (self->pipeline, self->calibration_path);
  self->recalibrate = FALSE;
  g_signal_connect (self->pipeline, "frame", G_CALLBACK (on_frame), self);
  g_signal_connect (self->pipeline, "status", G_CALLBACK (on_status), self);
  g_signal_connect (self->pipeline, "snapshot", G_CALLBACK (on_snapshot), self);
  if (ui_pipeline_start (self->pipeline, &error))
    {
      /* the table reads what it is shown in its own words; the source's
       * technical description (paths) is for the debug log */
      g_debug ("watching: %s", ui_pipeline_get_description (self->pipeline));
      g_autofree char *what = describe_source (self->source);
      g_autofree char *text = g_str_has_prefix (self->source, "demo")
                                ? g_strdup (_ ("The demo table plays: a scripted game, rendered live."))
                                : g_strdup_printf (_ ("Watching: %s"), what);
      announce (self, text);
      return;
    }
  /* A saved calibration that no longer loads must not stop the table. */
  if (from_saved && g_error_matches (error, UI_PIPELINE_ERROR, UI_PIPELINE_ERROR_DETECTOR))
    {
      g_autofree char *text = g_strdup_printf (_ ("The saved calibration could not be used (%s): calibrating from the anchors."),
                                               error->message);
      announce (self, text);
      self->recalibrate = TRUE;
      start_pipeline (self);
      return;
    }
  if (g_error_matches (error, UI_PIPELINE_ERROR, UI_PIPELINE_ERROR_NO_CAMERA)
      && !g_str_has_prefix (self->source, "demo"))
    {
      g_autofree char *text = g_strdup_printf (_ ("No camera found (%s): showing the demo table."),
                                               error->message);
      announce (self, text);
      ui_window_show_no_camera (self);
      g_free (self->source);
      self->source = g_strdup ("demo");
      update_titles (self);
      start_pipeline (self);
      return;
    }
  g_autofree char *text = g_strdup_printf (_ ("Cannot watch the table: %s"), error->message);
  announce (self, text);
  ui_camera_view_set_placeholder (self->camera_view, text);
}

/* The sources a table can pick: the demo, every camera present, and the
 * one given on the command line. */
static void
fill_sources (UiWindow *self)
{
  self->filling_sources = TRUE;
  g_ptr_array_set_size (self->source_specs, 0);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->source_names));
  gtk_string_list_splice (self->source_names, 0, n, NULL);
  g_ptr_array_add (self->source_specs, g_strdup ("demo"));
  gtk_string_list_append (self->source_names, _ ("Demo table"));
  VisSourceList list;
  if (vis_source_list (&list, NULL) == VIS_SOURCE_OK)
    for (unsigned i = 0; i < list.n; i++)
      {
        g_ptr_array_add (self->source_specs, g_strdup (list.sources[i].spec));
        gtk_string_list_append (self->source_names, list.sources[i].name);
      }
  guint selected = G_MAXUINT;
  for (guint i = 0; i < self->source_specs->len; i++)
    if (g_strcmp0 (self->source_specs->pdata[i], self->source) == 0)
      selected = i;
  if (selected == G_MAXUINT)
    {
      g_ptr_array_add (self->source_specs, g_strdup (self->source));
      gtk_string_list_append (self->source_names, self->source);
      selected = self->source_specs->len - 1;
    }
  self->filling_sources = TRUE;
  adw_combo_row_set_selected (self->source_row, selected);
  self->filling_sources = FALSE;
}

static void
on_source_selected (UiWindow *self)
{
  guint index = adw_combo_row_get_selected (self->source_row);
  if (!self->filling_sources && index < self->source_specs->len)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.select-source", "s",
                                (const char *) self->source_specs->pdata[index]);
}

static void
select_source_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  const char *source = g_variant_get_string (parameter, NULL);
  if (g_strcmp0 (source, self->source) == 0)
    return;
  g_free (self->source);
  self->source = g_strdup (source);
  g_autoptr (GSettings) settings = ui_settings_new ();
  ui_settings_set_string (settings, "camera", source);
  update_titles (self);
  start_pipeline (self);
  fill_sources (self);
}

/* A row of the camera controls changed ("(sv)": a camera-* settings key
 * and its value): kept in the settings, set on the camera at once. */
static void
camera_control_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  const char *key;
  g_autoptr (GVariant) value = NULL;
  g_variant_get (parameter, "(&sv)", &key, &value);
  if (!ui_settings_apply_camera_control (&self->controls, key, value))
    {
      g_warning ("win.camera-control: not a camera setting: %s", key);
      return;
    }
  g_autoptr (GSettings) settings = ui_settings_new ();
  if (ui_settings_has_key (settings, key))
    g_settings_set_value (settings, key, value);
  if (self->pipeline != NULL)
    ui_pipeline_set_camera_controls (self->pipeline, &self->controls);
  ui_camera_controls_show (self->camera_controls, &self->controls);
}

static void
on_game_selected (UiWindow *self)
{
  guint index = adw_combo_row_get_selected (self->game_row);
  if (index < eng_game_class_count ())
    gtk_widget_activate_action (GTK_WIDGET (self), "win.select-game", "s",
                                eng_game_class_get (index)->name);
}

/* The window shows `game` (kept as the table's last game): its title and
 * its card set.  FALSE when it already did.  The caller starts its referee. */
static gboolean
show_game (UiWindow *self, const char *game)
{
  if (game == NULL || g_strcmp0 (game, self->game) == 0)
    return FALSE;
  g_free (self->game);
  self->game = g_strdup (game);
  g_autoptr (GSettings) settings = ui_settings_new ();
  ui_settings_set_string (settings, "game", game);
  adw_combo_row_set_selected (self->game_row, game_index (game));
  update_titles (self);
  load_card_set (self);
  /* the camera places cards in this game's zones; the demo plays its game */
  if (self->pipeline != NULL)
    start_pipeline (self);
  return TRUE;
}

static void
select_game_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  if (!show_game (self, g_variant_get_string (parameter, NULL)))
    return;
  start_referee_with_players (self);
  if (self->referee != NULL)
    ui_referee_set_journal (self->referee, self->journal_path);
}

/* Keys, buttons and command cards all end here, in the interpreter. */
static void
command_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  g_autoptr (GError) error = NULL;
  /* A command given from a focused button (Tab, then Return) must not stay
   * one key press away: focus leaves the button for the window itself. */
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  if (focus != NULL && GTK_IS_ACTIONABLE (focus)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (focus)), "win.command") == 0)
    gtk_root_set_focus (GTK_ROOT (self), NULL);
  if (self->referee == NULL)
    return;
  if (!ui_referee_command (self->referee, g_variant_get_string (parameter, NULL), &error))
    announce (self, error->message);
}

/* The panel's page `page` ("game", "calibration"); the other page is
 * hidden, so that a screen reader does not read what is not on screen. */
static void
show_sidebar_page (UiWindow *self, const char *page)
{
  GtkWidget *want = gtk_stack_get_child_by_name (self->sidebar_stack, page);
  if (want == NULL)
    return;
  gtk_widget_set_visible (want, TRUE);
  gtk_stack_set_visible_child (self->sidebar_stack, want);
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->sidebar_stack)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (c != want)
      gtk_widget_set_visible (c, FALSE);
  gboolean game = g_strcmp0 (page, "game") == 0;
  gtk_toggle_button_set_active (game ? self->game_page_button : self->setup_page_button, TRUE);
}

static void
on_page_button_toggled (GtkToggleButton *button, UiWindow *self)
{
  if (gtk_toggle_button_get_active (button))
    show_sidebar_page (self, button == self->game_page_button ? "game" : "calibration");
}

enum { NOTICE_CAMERA_SETUP = 1 };

static void
on_notice_response (UiWindow *self, int response)
{
  if (response == NOTICE_CAMERA_SETUP)
    {
      show_sidebar_page (self, "calibration");
      adw_flap_set_reveal_flap (self->flap, TRUE);
    }
  gtk_info_bar_set_revealed (self->notice_bar, FALSE);
}

void
ui_window_show_no_camera (UiWindow *self)
{
  g_return_if_fail (UI_IS_WINDOW (self));
  gtk_label_set_text (self->notice_label,
                      _ ("No camera found, so this is the demo table: a recorded game that plays by itself. "
                         "To referee your own table, plug in a webcam that looks down at it and choose it "
                         "under Camera setup."));
  if (g_object_get_data (G_OBJECT (self->notice_bar), "button") == NULL)
    {
      GtkWidget *button = gtk_info_bar_add_button (self->notice_bar, _ ("Camera setup"), NOTICE_CAMERA_SETUP);
      g_object_set_data (G_OBJECT (self->notice_bar), "button", button);
      gtk_info_bar_add_button (self->notice_bar, _ ("Hide"), GTK_RESPONSE_CLOSE);
    }
  gtk_info_bar_set_revealed (self->notice_bar, TRUE);
}

gboolean
ui_window_get_notice_shown (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), FALSE);
  return gtk_info_bar_get_revealed (self->notice_bar);
}

/* The guide of the first run is closed: the table starts, and table mode
 * (large type, full screen) is offered once. */
static void
on_first_guide_closed (UiWindow *self)
{
  self->hold = NULL;
  ui_camera_view_set_placeholder (self->camera_view, NULL);
  start_pipeline (self);
  AdwToast *toast = adw_toast_new (_ ("Reading from across the table? Table mode shows large type on the whole screen (F11)."));
  adw_toast_set_button_label (toast, _ ("Table mode"));
  adw_toast_set_action_name (toast, "win.table-mode");
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
ui_window_first_run (UiWindow *self, GtkWindow *guide)
{
  g_return_if_fail (UI_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_WINDOW (guide));
  /* one thing at a time: nothing plays or speaks behind the guide */
  if (self->pipeline != NULL)
    {
      ui_pipeline_stop (self->pipeline);
      g_signal_handlers_disconnect_by_data (self->pipeline, self);
      g_clear_object (&self->pipeline);
    }
  self->hold = guide;
  ui_camera_view_set_placeholder (self->camera_view, _ ("The table starts when the guide is closed."));
  caption (self, "");   /* nothing plays yet: the picture says why */
  g_signal_connect_object (guide, "destroy", G_CALLBACK (on_first_guide_closed), self, G_CONNECT_SWAPPED);
}

gboolean
ui_window_get_held (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), FALSE);
  return self->hold != NULL;
}

/* Table mode: the window fills the screen with UiTableMode; the camera
 * picture moves beside it, smaller; the header and the panel are hidden
 * (the corner button, F11 and the command bar stay).  The layout switches
 * at once, with or without a window manager to make the window
 * fullscreen; the type is sized for the monitor the window is on. */
static void
apply_table_mode (UiWindow *self)
{
  GtkWidget *camera = self->camera_overlay;
  gboolean in_table = gtk_widget_get_parent (camera) == GTK_WIDGET (self->table_box);
  if (self->table_mode_on == in_table)
    return;
  g_object_ref (camera);
  if (in_table)
    gtk_grid_remove (self->table_box, camera);
  else
    gtk_box_remove (self->picture_box, camera);
  gtk_widget_set_visible (self->header_bar, !self->table_mode_on);
  if (self->table_mode_on)
    {
      int width = 0, height = 0;
      ui_window_fit_monitor_size (GTK_WINDOW (self), &width, &height);
      ui_table_mode_fit (self->table_mode, width, height);
      gtk_grid_attach (self->table_box, camera, 2, 0, 1, 1);
      gtk_widget_set_visible (self->table_page, TRUE);
      gtk_stack_set_visible_child_name (self->main_stack, "table");
      gtk_widget_set_visible (GTK_WIDGET (self->toast_overlay), FALSE);
      gtk_window_fullscreen (GTK_WINDOW (self));
    }
  else
    {
      gtk_box_prepend (self->picture_box, camera);
      gtk_widget_set_visible (GTK_WIDGET (self->toast_overlay), TRUE);
      gtk_stack_set_visible_child_name (self->main_stack, "desk");
      gtk_widget_set_visible (self->table_page, FALSE);
      gtk_window_unfullscreen (GTK_WINDOW (self));
    }
  g_object_unref (camera);
}

static void
choose_player_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  g_autoptr (GError) error = NULL;
  if (self->referee != NULL && !ui_referee_choose_player (self->referee, g_variant_get_int32 (parameter), &error))
    announce (self, error->message);
}

static void
correct_card_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  if (self->referee == NULL)
    return;
  UiCorrectionDialog *dialog = ui_correction_dialog_new (GTK_WINDOW (self), self->referee);
  if (parameter != NULL)
    ui_correction_dialog_select (dialog, g_variant_get_string (parameter, NULL));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_sticker_activated (UiCameraView *view, const char *payload, UiWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.correct-sticker", "s", payload);
}

static void
on_export_response (GtkNativeDialog *dialog, int response, UiWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->referee != NULL)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *report = ui_referee_dup_report (self->referee);
      g_autoptr (GError) error = NULL;
      g_autofree char *msg = path != NULL && g_file_set_contents (path, report, -1, &error)
                               ? g_strdup_printf (_ ("Game report exported to %s"), path)
                               : g_strdup_printf (_ ("Report not exported: %s"), error ? error->message : _ ("not a local file"));
      announce (self, msg);
    }
  g_object_unref (dialog);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  if (self->referee == NULL)
    return;
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (_ ("Export a game report"), GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  g_autofree char *name = g_strdup_printf ("%s-game-report.md", self->game);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_save_response (GtkNativeDialog *dialog, int response, UiWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->referee != NULL)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *text = ui_referee_dup_record_text (self->referee);
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_file_get_path (file);
      if (path == NULL || !g_file_set_contents (path, text, -1, &error))
        {
          g_autofree char *msg = g_strdup_printf (_ ("Record not saved: %s"),
                                                  error ? error->message : _ ("not a local file"));
          announce (self, msg);
        }
      else
        {
          g_autofree char *msg = g_strdup_printf (_ ("Game record saved to %s"), path);
          announce (self, msg);
        }
    }
  g_object_unref (dialog);
}

static void
save_record_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (_ ("Save the game record"), GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"), _ ("_Cancel"));
  g_autofree char *name = g_strdup_printf ("%s-game.record", self->game);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_calibration_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  if (self->pipeline != NULL)
    ui_pipeline_save_calibration (self->pipeline, self->calibration_path);
}

/* The table is measured again from the four anchors as soon as they are
 * all in view; the camera, the tracker and the game go on meanwhile. */
static void
recalibrate_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  if (self->pipeline == NULL)
    return;
  announce (self, _ ("Recalibrating: the table is placed again from the four anchors in view."));
  ui_pipeline_request_recalibration (self->pipeline);
}

static void
show_page_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiWindow *self = UI_WINDOW (widget);
  const char *page = g_variant_get_string (parameter, NULL);
  show_sidebar_page (self, page);
}

static void
update_mute_button (UiWindow *self)
{
  gtk_button_set_icon_name (GTK_BUTTON (self->mute_button),
                            self->muted ? "audio-volume-muted-symbolic" : "audio-volume-high-symbolic");
  const char *what = self->muted ? _ ("Let the referee speak (Ctrl+Shift+M)")
                                 : _ ("Mute the referee's voice (Ctrl+Shift+M)");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->mute_button), what);
  /* a toggle's name stays; its state (pressed: muted) and the description say the rest */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->mute_button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  what, -1);
}

/* The table's voice and speed on the voice that speaks.  A voice name
 * espeak-ng lacks (a hand-edited setting, a voice package removed) leaves
 * the language's default voice speaking: the table still hears the game. */
static void
apply_voice_settings (UiWindow *self)
{
#ifdef TABLERO_HAVE_SPEECH
  if (self->voice == NULL)
    return;
  /* the property's range is the voice's: this cannot be refused */
  spk_voice_set_rate (self->voice, self->speech_rate, NULL);
  g_autoptr (GError) error = NULL;
  gboolean chosen = self->voice_name != NULL && self->voice_name[0] != '\0';
  if (spk_voice_set_voice (self->voice, chosen ? self->voice_name : spk_table_language (), &error))
    return;
  spk_voice_set_voice (self->voice, spk_table_language (), NULL);
  /* Translators: a voice name from the preferences (espeak-ng's, English). */
  g_autofree char *message = g_strdup_printf (_ ("There is no voice “%s”: the referee speaks with the default voice"),
                                              self->voice_name);
  tell (self, message);
#endif
}

static void
ui_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  UiWindow *self = UI_WINDOW (object);
  switch (prop_id)
    {
    case PROP_TABLE_MODE:
      if (self->table_mode_on == g_value_get_boolean (value))
        return;
      self->table_mode_on = g_value_get_boolean (value);
      apply_table_mode (self);
      g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_MUTED:
      if (self->muted == g_value_get_boolean (value))
        return;
      self->muted = g_value_get_boolean (value);
#ifdef TABLERO_HAVE_SPEECH
      if (self->voice != NULL)
        spk_voice_set_muted (self->voice, self->muted);
#endif
      update_mute_button (self);
      g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_VOICE:
      if (g_strcmp0 (self->voice_name, g_value_get_string (value)) == 0)
        return;
      g_free (self->voice_name);
      self->voice_name = g_value_dup_string (value);
      apply_voice_settings (self);
      g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_SPEECH_RATE:
      if (self->speech_rate == g_value_get_int (value))
        return;
      self->speech_rate = g_value_get_int (value);
      apply_voice_settings (self);
      g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_LEARNING:
      if (self->learning == g_value_get_boolean (value))
        return;
      self->learning = g_value_get_boolean (value);
      if (self->referee != NULL)
        ui_referee_set_learning (self->referee, self->learning);
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ui_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  UiWindow *self = UI_WINDOW (object);
  switch (prop_id)
    {
    case PROP_TABLE_MODE:
      g_value_set_boolean (value, self->table_mode_on);
      break;
    case PROP_MUTED:
      g_value_set_boolean (value, self->muted);
      break;
    case PROP_VOICE:
      g_value_set_string (value, self->voice_name);
      break;
    case PROP_SPEECH_RATE:
      g_value_set_int (value, self->speech_rate);
      break;
    case PROP_LEARNING:
      g_value_set_boolean (value, self->learning);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ui_window_dispose (GObject *object)
{
  UiWindow *self = UI_WINDOW (object);
#ifdef TABLERO_HAVE_SPEECH
  g_clear_handle_id (&self->speak_idle, g_source_remove);
  /* a closing window waits only for the sentence being said */
  if (self->voice != NULL)
    spk_voice_set_muted (self->voice, TRUE);
  g_clear_pointer (&self->voice, spk_voice_free);
#endif
  if (self->pipeline != NULL)
    {
      ui_pipeline_stop (self->pipeline);
      g_signal_handlers_disconnect_by_data (self->pipeline, self);
      g_clear_object (&self->pipeline);
    }
  if (self->referee != NULL)
    g_signal_handlers_disconnect_by_data (self->referee, self);
  g_clear_object (&self->referee);
  if (self->toast != NULL)
    g_signal_handlers_disconnect_by_data (self->toast, self);
  self->toast = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_WINDOW);
  G_OBJECT_CLASS (ui_window_parent_class)->dispose (object);
}

static void
ui_window_finalize (GObject *object)
{
  UiWindow *self = UI_WINDOW (object);
  g_free (self->table_now);
  g_clear_pointer (&self->card_set, eng_card_set_free);
  g_free (self->game);
  g_free (self->source);
  g_strfreev (self->players);
  g_free (self->journal_path);
  g_free (self->calibration_path);
  g_free (self->voice_name);
  g_ptr_array_unref (self->source_specs);
#ifdef TABLERO_HAVE_SPEECH
  g_string_free (self->utterance, TRUE);
#endif
  G_OBJECT_CLASS (ui_window_parent_class)->finalize (object);
}

/* The window's properties, each bound to a GSettings key by whoever keeps
 * the settings (ui-application.c). */
static void
install_properties (GObjectClass *object_class)
{
  /* Bound to GSettings' table-mode key by whoever keeps the settings. */
  properties[PROP_TABLE_MODE] = g_param_spec_boolean ("table-mode", NULL, NULL, FALSE,
                                                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                        | G_PARAM_STATIC_STRINGS);
  /* the preferences (GSettings "muted") can bind to it */
  properties[PROP_MUTED] = g_param_spec_boolean ("muted", NULL, NULL, FALSE,
                                                 G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                   | G_PARAM_STATIC_STRINGS);
  /* GSettings "voice" and "speech-rate" bind to these */
  properties[PROP_VOICE] = g_param_spec_string ("voice", NULL, NULL, "",
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                  | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEECH_RATE] = g_param_spec_int ("speech-rate", NULL, NULL, SPEECH_RATE_MIN,
                                                   SPEECH_RATE_MAX, SPEECH_RATE_DEFAULT,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  /* GSettings "learning": each rule explained the first time it comes up */
  properties[PROP_LEARNING] = g_param_spec_boolean ("learning", NULL, NULL, TRUE,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                      | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
bind_template (GtkWidgetClass *widget_class)
{
  g_type_ensure (UI_TYPE_CAMERA_VIEW);
  g_type_ensure (UI_TYPE_CAMERA_CONTROLS);
  g_type_ensure (UI_TYPE_SCOREBOARD);
  g_type_ensure (UI_TYPE_RULE_PANEL);
  g_type_ensure (UI_TYPE_TABLE_MAP);
  g_type_ensure (UI_TYPE_CALIBRATION_PAGE);
  g_type_ensure (UI_TYPE_TABLE_MODE);
  g_type_ensure (UI_TYPE_COMMAND_BAR);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-window.ui");
  gtk_widget_class_bind_template_child (widget_class, UiWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, camera_view);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, camera_status);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, game_row);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, command_bar);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, source_row);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, source_names);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, camera_controls);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, version_row);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, log_list);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, todo_list);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, scoreboard);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, rule_panel);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, table_map);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, game_page_button);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, setup_page_button);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, calibration_page);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, panel_button);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, picture_box);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, caption);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, notice_bar);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, notice_label);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, table_page);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, camera_overlay);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, table_box);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, table_mode);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, new_game_button);
  gtk_widget_class_bind_template_child (widget_class, UiWindow, mute_button);
}

/* The window's actions and their keys; a game's command keys come later,
 * from its card set (fill_command_keys). */
static void
install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.select-game", "s", select_game_action);
  gtk_widget_class_install_action (widget_class, "win.command", "s", command_action);
  gtk_widget_class_install_action (widget_class, "win.select-source", "s", select_source_action);
  gtk_widget_class_install_action (widget_class, "win.camera-control", "(sv)", camera_control_action);
  gtk_widget_class_install_action (widget_class, "win.save-record", NULL, save_record_action);
  gtk_widget_class_install_action (widget_class, "win.new-game", NULL, new_game_action);
  gtk_widget_class_install_action (widget_class, "win.save-calibration", NULL, save_calibration_action);
  gtk_widget_class_install_action (widget_class, "win.recalibrate", NULL, recalibrate_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.choose-player", "i", choose_player_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.correct-card", NULL, correct_card_action);
  gtk_widget_class_install_action (widget_class, "win.correct-sticker", "s", correct_card_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.correct-card", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-game", NULL);
  gtk_widget_class_install_property_action (widget_class, "win.table-mode", "table-mode");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F11, 0, "win.table-mode", NULL);
  gtk_widget_class_install_property_action (widget_class, "win.mute", "muted");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.mute", NULL);

  /* The answers to the referee's questions and undo, every game's; the
   * game's own command keys come from its card set (fill_command_keys). */
  static const struct { guint key; GdkModifierType mods; const char *command; } keys[] = {
    { GDK_KEY_Return, 0, "confirm" }, { GDK_KEY_Escape, 0, "cancel" },
    { GDK_KEY_z, GDK_CONTROL_MASK, "undo" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, keys[i].mods, "win.command",
                                         "s", keys[i].command);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK,
                                       "win.save-record", NULL);
}

static void
ui_window_class_init (UiWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ui_window_dispose;
  object_class->finalize = ui_window_finalize;
  object_class->get_property = ui_window_get_property;
  object_class->set_property = ui_window_set_property;
  install_properties (object_class);
  bind_template (widget_class);
  install_actions (widget_class);
}

static void
ui_window_init (UiWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->command_keys = GTK_SHORTCUT_CONTROLLER (gtk_shortcut_controller_new ());
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->command_keys));
  self->table_now = g_new0 (EngSnapshot, 1);
  adw_action_row_set_subtitle (self->version_row, TABLERO_VERSION);
  self->source_specs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GListModel) games = game_titles_model ();
  adw_combo_row_set_model (self->game_row, games);
  g_signal_connect_swapped (self->game_row, "notify::selected",
                            G_CALLBACK (on_game_selected), self);
  g_signal_connect_swapped (self->source_row, "notify::selected",
                            G_CALLBACK (on_source_selected), self);
  g_autoptr (GSettings) settings = ui_settings_new ();
  ui_settings_get_camera_controls (settings, &self->controls);
  ui_camera_controls_show (self->camera_controls, &self->controls);
  g_signal_connect (self->camera_view, "sticker-activated", G_CALLBACK (on_sticker_activated), self);
  /* too narrow for the panel beside the picture: it slides over, from a button */
  g_object_bind_property (self->flap, "folded", self->panel_button, "visible", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->flap, "reveal-flap", self->panel_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_signal_connect_swapped (self->notice_bar, "response", G_CALLBACK (on_notice_response), self);
  g_signal_connect (self->game_page_button, "toggled", G_CALLBACK (on_page_button_toggled), self);
  g_signal_connect (self->setup_page_button, "toggled", G_CALLBACK (on_page_button_toggled), self);
  update_mute_button (self);
  self->voice_name = g_strdup ("");
  self->speech_rate = SPEECH_RATE_DEFAULT;
  self->learning = TRUE;
#ifndef TABLERO_HAVE_SPEECH
  gtk_widget_set_visible (GTK_WIDGET (self->mute_button), FALSE);   /* built without a voice */
#else
  self->utterance = g_string_new (NULL);
  /* the voice is a help, not a need: without it the table reads */
  g_autoptr (GError) error = NULL;
  /* TABLERO_SPEECH_WAV: said into that file instead (a testing aid, as
   * --screenshot is) */
  const char *wav = g_getenv ("TABLERO_SPEECH_WAV");
  self->voice = spk_voice_new (wav != NULL ? SPK_OUTPUT_WAV : SPK_OUTPUT_SOUND, NULL, wav, &error);
  if (self->voice == NULL)
    g_debug ("no voice: %s", error->message);
  apply_voice_settings (self);
#endif
}

UiWindow *
ui_window_new (GtkApplication *app, const char *game, const char *source,
               const char *const *players)
{
  UiWindow *self = g_object_new (UI_TYPE_WINDOW, "application", app, NULL);
  gtk_widget_set_size_request (self->sidebar, ui_window_fit_to_monitor (GTK_WINDOW (self)), -1);
  self->game = g_strdup (game);
  self->source = g_strdup (source);
  self->players = g_strdupv ((char **) players);
  adw_combo_row_set_selected (self->game_row, game_index (game));
  update_titles (self);
  load_card_set (self);
  start_referee_with_players (self);
  self->journal_path = g_build_filename (g_get_user_state_dir (), "tablero", "journal.record", NULL);
  self->calibration_path = g_build_filename (g_get_user_state_dir (), "tablero", "table.cal", NULL);
  offer_resume (self);
  start_pipeline (self);
  fill_sources (self);
  return self;
}

const char *
ui_window_get_game (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->game;
}

const EngCardSet *
ui_window_get_card_set (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->card_set;
}

const char *
ui_window_get_source (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->source;
}

guint
ui_window_get_frames_shown (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), 0);
  return self->frames_shown;
}

void
ui_window_freeze_at_frame (UiWindow *self, guint n)
{
  g_return_if_fail (UI_IS_WINDOW (self));
  self->freeze_at = n;
  if (self->pipeline != NULL)
    ui_pipeline_freeze_at (self->pipeline, n);
}

gboolean
ui_window_get_frozen (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), FALSE);
  return self->pipeline != NULL && ui_pipeline_get_frozen (self->pipeline);
}

guint
ui_window_get_sentences_said (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), 0);
#ifdef TABLERO_HAVE_SPEECH
  SpkVoiceStats stats = { 0 };
  if (self->voice != NULL)
    spk_voice_get_stats (self->voice, &stats);
  return stats.said;
#else
  return 0;
#endif
}

UiReferee *
ui_window_get_referee (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->referee;
}

gboolean
ui_window_try_voice (UiWindow *self, GError **error)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), FALSE);
#ifdef TABLERO_HAVE_SPEECH
  if (self->voice != NULL && !self->muted)
    {
      /* said at once, over any waiting announcement: the table is listening
       * for the voice, not for the game */
      spk_voice_say (self->voice, _ ("This is how the referee will speak to the table."),
                     SPK_PRIORITY_HIGH);
      return TRUE;
    }
#endif
  if (self->muted)
    g_set_error_literal (error, UI_WINDOW_ERROR, UI_WINDOW_ERROR_MUTED,
                         _ ("The referee is muted: let it speak (Ctrl+Shift+M) to hear the voice"));
  else
    g_set_error_literal (error, UI_WINDOW_ERROR, UI_WINDOW_ERROR_NO_VOICE, _ ("The referee cannot speak here"));
  return FALSE;
}

#ifdef TABLERO_HAVE_SPEECH
SpkVoice *
ui_window_get_voice (UiWindow *self)
{
  g_return_val_if_fail (UI_IS_WINDOW (self), NULL);
  return self->voice;
}
#endif
