/* The main window in this process, under Xvfb: a demo turn played from the
 * keyboard, and what the window highlights and clears as the game goes.
 *
 * GTK 4 has no public way to synthesise a key press, so a key is what GTK
 * runs for it: Return on a focused button activates that button
 * (gtk_widget_activate); Return with no button focused runs the window's
 * own binding (win.command "confirm"). */
#include <criterion/criterion.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "eng-tag.h"
#include "eng-data.h"
#include "eng-game.h"
#include "ui-command-bar.h"
#include "ui-correction-dialog.h"
#include "ui-option-docs.h"
#include "ui-referee.h"
#include "referee-table.h"
#include "ui-rule-panel.h"
#include "ui-rules-dialog.h"
#include "ui-scoreboard.h"
#include "ui-table-mode.h"
#include "ui-window.h"

static void
setup_gtk (void)
{
  g_autofree char *state = g_dir_make_tmp ("tablero-window-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  gtk_init ();
  adw_init ();
}

static void
spin (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The first widget under `root` of `type` whose action target (if
 * `target` is not NULL) is that string. */
static GtkWidget *
find (GtkWidget *root, GType type, const char *target)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    {
      if (target == NULL)
        return root;
      GVariant *t = GTK_IS_ACTIONABLE (root) ? gtk_actionable_get_action_target_value (GTK_ACTIONABLE (root)) : NULL;
      if (t != NULL && g_variant_is_of_type (t, G_VARIANT_TYPE_STRING)
          && g_strcmp0 (g_variant_get_string (t, NULL), target) == 0)
        return root;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find (c, type, target);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
count_lines_ending (const char *text, const char *suffix)
{
  guint n = 0;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    n += g_str_has_suffix (*l, suffix);
  return n;
}

/* What Return does now, as GTK would run it.  A button shows itself
 * pressed for a moment before it clicks: the loop runs until it has. */
static void
press_return (UiWindow *window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  if (focus == NULL || !GTK_IS_BUTTON (focus))
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.command", "s", "confirm");
      return;
    }
  gtk_widget_activate (focus);
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (gtk_widget_has_css_class (focus, "keyboard-activating") && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  cr_assert_not (gtk_widget_has_css_class (focus, "keyboard-activating"), "the button never clicked");
}

static GString *said;

static void
on_announce (UiReferee *referee, guint kind, const char *text, const char *rule, gpointer data)
{
  g_string_append_printf (said, "%u %s\n", kind, text);
}

/* A Katua window for Ana and Bea whose camera finds no frames: the game
 * is fed by hand (ui_referee_feed, the referee's signals). */
static UiWindow *
window_without_camera (void)
{
  const char *players[] = { "Ana", "Bea", NULL };
  UiWindow *window = ui_window_new (NULL, "katua", "file:/nonexistent/frames", players);
  gtk_window_present (GTK_WINDOW (window));
  spin ();
  cr_assert_not_null (ui_window_get_referee (window));
  return window;
}

static UiWindow *
demo_window_at_first_turn (void)
{
  const char *players[] = { "Ana", "Bea", NULL };
  UiWindow *window = ui_window_new (NULL, "katua", "demo", players);
  gtk_window_present (GTK_WINDOW (window));
  /* the demo deals; the first snapshot with every cat dealt is the
   * baseline, and Ana is asked to play, discard or pass */
  gint64 deadline = g_get_monotonic_time () + 90 * G_USEC_PER_SEC;
  UiReferee *referee = NULL;
  while (g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, TRUE);
      referee = ui_window_get_referee (window);
      if (referee != NULL && ui_referee_awaits_turn_command (referee))
        break;
    }
  if (referee == NULL || !ui_referee_awaits_turn_command (referee))
    {
      g_autofree char *status = referee ? ui_referee_dup_status (referee) : g_strdup ("no referee");
      g_auto (GStrv) todo = referee ? ui_referee_dup_expectations (referee) : NULL;
      g_auto (GStrv) questions = referee ? ui_referee_dup_questions (referee) : NULL;
      g_autofree char *t = todo ? g_strjoinv (" | ", todo) : g_strdup ("");
      g_autofree char *q = questions ? g_strjoinv (" | ", questions) : g_strdup ("");
      cr_assert_fail ("the demo never reached Ana's first turn: %s; %u frames; todo: %s; asked: %s", status,
                      ui_window_get_frames_shown (window), t, q);
    }
  return window;
}

/* Ana passes with the header's button, from the keyboard (Tab to it,
 * Return).  The next Return must not pass Bea's turn too. */
Test (window, keyboard_turn_does_not_repeat_a_header_command, .init = setup_gtk, .timeout = 150)
{
  UiWindow *window = demo_window_at_first_turn ();
  UiReferee *referee = ui_window_get_referee (window);
  GtkWidget *pass = find (GTK_WIDGET (window), GTK_TYPE_BUTTON, "pass");
  cr_assert_not_null (pass, "no Pass button in the header");
  cr_expect_not (gtk_widget_get_focus_on_click (pass), "a click would leave focus on Pass");
  GtkWidget *end_turn = find (GTK_WIDGET (window), GTK_TYPE_BUTTON, "end-turn");
  cr_assert_not_null (end_turn);
  cr_expect_not (gtk_widget_get_focus_on_click (end_turn));
  /* the table is asked to play or end the turn: that command alone is
   * highlighted, and "New game" is not offered mid-game */
  cr_expect (gtk_widget_has_css_class (end_turn, "suggested-action"));
  cr_expect_not (gtk_widget_has_css_class (pass, "suggested-action"));

  g_autofree char *before = ui_referee_dup_record_text (referee);
  cr_assert_eq (ui_referee_get_view (referee)->active, 0);
  said = g_string_new (NULL);
  g_signal_connect (referee, "announce", G_CALLBACK (on_announce), NULL);
  cr_assert (gtk_widget_grab_focus (pass), "Pass cannot take keyboard focus");
  press_return (window);
  g_autofree char *after_pass = ui_referee_dup_record_text (referee);
  cr_assert_eq (count_lines_ending (after_pass, " pass"), count_lines_ending (before, " pass") + 1,
                "Return on Pass did not pass:\n%s\n%s", after_pass, said->str);
  cr_assert_eq (ui_referee_get_view (referee)->active, 1, "not Bea's turn after Ana passed");
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  cr_expect (focus != pass, "focus stayed on Pass");

  /* Return again: the table was not asked for another pass */
  press_return (window);
  spin ();
  g_autofree char *after_return = ui_referee_dup_record_text (referee);
  cr_expect_eq (count_lines_ending (after_return, " pass"), count_lines_ending (after_pass, " pass"),
                "Return passed again, for Bea:\n%s", after_return);
  cr_expect_eq (ui_referee_get_view (referee)->active, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A refusal shows in the rule panel and in table mode; the next accepted
 * move clears both.  Table mode is a stateful action (F11). */
Test (window, accepted_move_clears_the_refusal, .init = setup_gtk, .timeout = 150)
{
  UiWindow *window = window_without_camera ();
  UiReferee *referee = ui_window_get_referee (window);
  GtkWidget *panel = find (GTK_WIDGET (window), UI_TYPE_RULE_PANEL, NULL);
  UiTableMode *table = UI_TABLE_MODE (find (GTK_WIDGET (window), UI_TYPE_TABLE_MODE, NULL));
  cr_assert_not_null (panel);
  g_signal_emit_by_name (referee, "announce", (guint) ENG_EVENT_ILLEGAL, "Ana cannot play that now", "K3");
  cr_expect (gtk_widget_get_visible (panel));
  cr_expect_not_null (strstr (ui_table_mode_get_refusal (table), "Ana cannot play that now"));
  g_signal_emit_by_name (referee, "announce", (guint) ENG_EVENT_ACCEPTED, "Ana pass", "");
  cr_expect_not (gtk_widget_get_visible (panel), "the old refusal stays after a move was accepted");
  cr_expect_str_eq (ui_table_mode_get_refusal (table), "");

  gboolean on = TRUE;
  g_object_get (window, "table-mode", &on, NULL);
  cr_expect_not (on);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.table-mode", NULL);
  g_object_get (window, "table-mode", &on, NULL);
  cr_expect (on, "win.table-mode did not turn table mode on");
  cr_expect (gtk_widget_get_mapped (GTK_WIDGET (table)) || !gtk_widget_get_realized (GTK_WIDGET (window)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.table-mode", NULL);
  g_object_get (window, "table-mode", &on, NULL);
  cr_expect_not (on);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The correction dialog chooses nothing for the user: Apply waits until
 * both the card read and what it really is are picked. */
Test (window, correction_dialog_picks_nothing, .init = setup_gtk, .timeout = 60)
{
  EngSetup setup;
  eng_setup_init (&setup);
  setup.n_players = 2;
  g_strlcpy (setup.names[0], "Ana", ENG_NAME_MAX);
  g_strlcpy (setup.names[1], "Bea", ENG_NAME_MAX);
  setup.seats[0] = 1;
  setup.seats[1] = 2;
  g_autoptr (GError) error = NULL;
  g_autoptr (UiReferee) referee = ui_referee_new ("katua", &setup, NULL, &error);
  cr_assert_not_null (referee);
  /* the camera reads one face-up cat */
  const EngCardSet *set = ui_referee_get_card_set (referee);
  size_t deck = 0;
  cr_assert_eq (eng_card_set_find_deck (set, "cat", &deck), ENG_OK);
  EngSnapshot *snap = g_new0 (EngSnapshot, 1);
  for (size_t i = 0; i < eng_card_set_n_cards (set) && snap->n_items == 0; i++)
    {
      const EngCard *card = eng_card_set_card (set, i);
      if (card->deck != deck)
        continue;
      EngTag tag = { .game = eng_card_set_game_letter (set), .kind = ENG_TAG_FACE, .serial = card->serial };
      g_strlcpy (tag.set, eng_card_set_id (set), sizeof tag.set);
      EngSnapshotItem *item = &snap->items[snap->n_items++];
      cr_assert_eq (eng_tag_format (&tag, item->payload), ENG_OK);
      item->tag_kind = ENG_TAG_FACE;
      item->serial = card->serial;
      item->zone.seat = -1;
      item->zone.index = -1;
    }
  snap->seq = 1;
  ui_referee_feed (referee, snap);
  GtkWidget *parent = gtk_window_new ();
  UiCorrectionDialog *dialog = ui_correction_dialog_new (GTK_WINDOW (parent), referee);
  cr_expect_not (ui_correction_dialog_can_apply (dialog), "Apply is ready before anything was picked");
  ui_correction_dialog_select (dialog, snap->items[0].payload);
  cr_expect_not (ui_correction_dialog_can_apply (dialog), "an answer was picked for the user");
  g_free (snap);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (parent));
}

/* A referee resumed from record text (a temporary journal). */
static UiReferee *
resume_text (const char *text)
{
  g_autofree char *tmp = NULL;
  int fd = g_file_open_tmp ("tablero-window-XXXXXX.record", &tmp, NULL);
  cr_assert (fd >= 0);
  close (fd);
  cr_assert (g_file_set_contents (tmp, text, -1, NULL));
  g_autoptr (GError) error = NULL;
  UiReferee *referee = ui_referee_resume (tmp, &error);
  cr_assert_not_null (referee, "%s", error ? error->message : "?");
  g_unlink (tmp);
  return referee;
}

/* The row titles of a scoreboard, one per line. */
static void
collect_titles (GtkWidget *root, GString *out)
{
  if (ADW_IS_PREFERENCES_ROW (root))
    g_string_append_printf (out, "%s\n", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (root)));
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_titles (c, out);
}

/* During Bea's defence of Ana's attack, table mode and the scoreboard
 * point at Bea, not at Ana whose turn it is. */
Test (window, views_point_at_whoever_the_table_waits_for, .init = setup_gtk, .timeout = 60)
{
  g_autoptr (UiReferee) referee = resume_text ("game katua\nplayer Ana\nplayer Bea\nfirst Ana\n"
                                               "Ana attack 71 Bea 1\n");
  GtkWidget *table = g_object_ref_sink (ui_table_mode_new ());
  ui_table_mode_set_referee (UI_TABLE_MODE (table), referee);
  cr_expect_not_null (strstr (ui_table_mode_get_headline (UI_TABLE_MODE (table)), "Bea"),
                      "headline: %s", ui_table_mode_get_headline (UI_TABLE_MODE (table)));
  GtkWidget *board = g_object_ref_sink (ui_scoreboard_new ());
  ui_scoreboard_set_referee (UI_SCOREBOARD (board), referee);
  GString *titles = g_string_new (NULL);
  collect_titles (board, titles);
  g_auto (GStrv) lines = g_strsplit (titles->str, "\n", -1);
  cr_assert_geq (g_strv_length (lines), 2);
  cr_expect (g_str_has_prefix (lines[0], "Ana") && strstr (lines[0], "◀") == NULL, "Ana's row: %s", lines[0]);
  cr_expect (g_str_has_prefix (lines[1], "Bea") && strstr (lines[1], "◀") != NULL, "Bea's row: %s", lines[1]);
  g_string_free (titles, TRUE);
  ui_table_mode_set_referee (UI_TABLE_MODE (table), NULL);
  ui_scoreboard_set_referee (UI_SCOREBOARD (board), NULL);
  g_object_unref (table);
  g_object_unref (board);
}

/* A finished game: table mode says who won and offers a new game. */
Test (window, table_mode_offers_a_new_game_when_over, .init = setup_gtk, .timeout = 60)
{
  g_autofree char *path = g_build_filename (g_getenv ("TABLERO_DATADIR"), "games", "demo-katua.rec", NULL);
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (path, &text, NULL, NULL));
  g_autoptr (UiReferee) referee = resume_text (text);
  cr_assert (ui_referee_is_over (referee));
  GtkWidget *table = g_object_ref_sink (ui_table_mode_new ());
  ui_table_mode_set_referee (UI_TABLE_MODE (table), referee);
  cr_expect_not_null (strstr (ui_table_mode_get_headline (UI_TABLE_MODE (table)), "Ana"));
  GtkWidget *button = find (table, GTK_TYPE_BUTTON, NULL);
  cr_assert_not_null (button);
  cr_expect (gtk_widget_get_visible (button), "no New game offered");
  cr_expect_str_eq (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), "win.new-game");
  cr_expect_str_eq (ui_table_mode_get_next (UI_TABLE_MODE (table)), "");
  ui_table_mode_set_referee (UI_TABLE_MODE (table), NULL);
  g_object_unref (table);
}

/* A label under `root`, outside any list (the log), whose text starts
 * with `prefix`. */
static GtkWidget *
find_label_outside_lists (GtkWidget *root, const char *prefix)
{
  if (GTK_IS_LIST_BOX (root))
    return NULL;
  if (GTK_IS_LABEL (root) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (root)), prefix))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_outside_lists (c, prefix);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* "Calibration (not) saved" is said where the user is, as a toast over
 * the window, not only in the game page's log. */
Test (window, calibration_news_is_a_toast, .init = setup_gtk, .timeout = 120)
{
  const char *players[] = { "Ana", "Bea", NULL };
  UiWindow *window = ui_window_new (NULL, "katua", "demo", players);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "calibration");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-calibration", NULL);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GtkWidget *toast = NULL;
  while (toast == NULL && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, TRUE);
      toast = find_label_outside_lists (GTK_WIDGET (window), "Calibration saved");
      if (toast == NULL)
        toast = find_label_outside_lists (GTK_WIDGET (window), "Calibration not saved");
    }
  cr_expect_not_null (toast, "no toast said what became of the calibration");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- a refusal explains the rule it names --------------------------------- */

typedef struct {
  guint kind;
  char *text;
  char *rule;
} Refusal;

static void
keep_refusal (UiReferee *referee, guint kind, const char *text, const char *rule, Refusal *r)
{
  if (kind != ENG_EVENT_ILLEGAL && kind != ENG_EVENT_CONSERVATION)
    return;
  g_free (r->text);
  g_free (r->rule);
  r->kind = kind;
  r->text = g_strdup (text);
  r->rule = g_strdup (rule);
}

/* The text of the log's newest row and of its details (NULL: none). */
static void
newest_log_row (UiWindow *window, const char *words, char **details)
{
  *details = NULL;
  /* the log row whose label shows `words` */
  GtkWidget *label = NULL;
  GPtrArray *stack = g_ptr_array_new ();
  g_ptr_array_add (stack, window);
  while (stack->len > 0 && label == NULL)
    {
      GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);
      if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), words) == 0
          && gtk_widget_get_ancestor (w, GTK_TYPE_LIST_BOX_ROW) != NULL)
        label = w;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  g_ptr_array_unref (stack);
  cr_assert_not_null (label, "no log row reads \"%s\"", words);
  GtkWidget *box = gtk_widget_get_parent (label);
  GtkWidget *expander = find (box, GTK_TYPE_EXPANDER, NULL);
  if (expander != NULL)
    *details = g_strdup (gtk_label_get_text (GTK_LABEL (gtk_expander_get_child (GTK_EXPANDER (expander)))));
}

/* Bea lays a UFO at Ana's slot during Ana's turn: the refusal is K21's,
 * and the panel explains K21 (not the Hook's K12, as it once did), by
 * its name and in the words of the rules file; the log shows the refusal
 * in plain words, its rule id only in the details. */
Test (window, a_refusal_explains_the_rule_it_names, .init = setup_gtk, .timeout = 60)
{
  UiWindow *window = window_without_camera ();
  UiReferee *referee = ui_window_get_referee (window);
  Refusal r = { 0 };
  g_signal_connect (referee, "announce", G_CALLBACK (keep_refusal), &r);
  Table t = { 0 };
  table_deal (referee, &t);
  table_put (referee, &t, 'F', serial_of_type (referee, "ufo-red"), 20,
             (EngZone){ ENG_ZONE_ATTACK, 0, 0 });
  table_show (referee, &t);
  spin ();
  cr_assert_not_null (r.rule, "the UFO at Ana's own slot was not refused");
  cr_expect_str_eq (r.rule, "K21");
  UiRulePanel *panel = UI_RULE_PANEL (find (GTK_WIDGET (window), UI_TYPE_RULE_PANEL, NULL));
  cr_expect_str_eq (ui_rule_panel_get_rule_id (panel), r.rule, "the panel explains another rule");
  const UiRuleDoc *doc = ui_referee_get_rule (referee, r.rule);
  cr_assert_not_null (doc);
  cr_expect_str_eq (ui_rule_panel_get_explanation (panel), doc->text);
  /* the refusal's words cite no other rule: the rule is the event's alone */
  cr_expect_null (strstr (r.text, "(K"), "%s", r.text);
  cr_expect_null (strstr (r.text, "Hook"), "the refusal explains the Hook: %s", r.text);
  g_autofree char *details = NULL;
  newest_log_row (window, r.text, &details);
  cr_assert_not_null (details, "the refusal's row has no details");
  cr_expect_not_null (strstr (details, "K21"), "details: %s", details);
  cr_expect_not_null (strstr (details, doc->title), "details: %s", details);
  g_free (r.text);
  g_free (r.rule);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- F1: the rules grouped as the data groups them, searchable ------------ */

Test (window, rules_dialog_groups_and_searches, .init = setup_gtk, .timeout = 60)
{
  /* every registered game: a new one is checked without a line changed */
  cr_assert_gt (eng_game_class_count (), 0);
  for (gsize g = 0; g < eng_game_class_count (); g++)
    {
      const char *game = eng_game_class_get (g)->name;
      g_autoptr (GPtrArray) docs = ui_rule_docs_load_game (game);
      cr_assert_gt (docs->len, 0, "%s has its rules", game);
      /* what the data says, as the dialog should show it */
      GString *want = g_string_new (NULL);
      const char *heading = NULL;
      guint n_groups = 0;
      for (guint i = 0; i < docs->len; i++)
        {
          const UiRuleDoc *doc = docs->pdata[i];
          cr_assert (doc->group[0] != '\0', "%s %s stands under no heading", game, doc->id);
          cr_assert_neq (g_strcmp0 (doc->title, doc->id), 0, "%s %s has no name", game, doc->id);
          if (g_strcmp0 (heading, doc->group) != 0)
            {
              g_string_append_printf (want, "[%s] ", doc->group);
              heading = doc->group;
              n_groups++;
            }
          g_string_append_printf (want, "%s ", doc->id);
        }
      cr_expect_geq (n_groups, 1, "%s: the rules are grouped (%u groups)", game, n_groups);
      UiRulesDialog *dialog = ui_rules_dialog_new (NULL, game);
      gtk_window_present (GTK_WINDOW (dialog));
      spin ();
      g_auto (GStrv) shown = ui_rules_dialog_dup_shown (dialog);
      g_autofree char *joined = g_strjoinv (" ", shown);
      g_string_truncate (want, want->len - 1);
      cr_expect_str_eq (joined, want->str, "%s: the dialog's groups are not the data's", game);
      g_string_free (want, TRUE);

      /* a search shows the rules that answer it, under their headings */
      const UiRuleDoc *first = docs->pdata[0];
      ui_rules_dialog_search (dialog, first->title);
      g_auto (GStrv) found = ui_rules_dialog_dup_shown (dialog);
      cr_expect (g_strv_contains ((const char *const *) found, first->id), "%s: \"%s\" does not find %s",
                 game, first->title, first->id);
      cr_expect_lt (g_strv_length (found), g_strv_length (shown), "%s: the search hid nothing", game);
      ui_rules_dialog_search (dialog, "zzqxj");
      g_auto (GStrv) none = ui_rules_dialog_dup_shown (dialog);
      cr_expect_eq (g_strv_length (none), 0, "%s: a search for nothing shows rules", game);
      ui_rules_dialog_search (dialog, "");
      g_auto (GStrv) again = ui_rules_dialog_dup_shown (dialog);
      cr_expect_eq (g_strv_length (again), g_strv_length (shown), "%s: clearing the search", game);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

/* The first actionable widget under `root` running `action`. */
static GtkWidget *
find_action (GtkWidget *root, const char *action)
{
  if (GTK_IS_ACTIONABLE (root) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_action (c, action);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The command bar offers what can act: the game's command cards while it
 * is played (Katua's four), only New game once it is over. */
Test (window, command_bar_after_game_over_offers_only_a_new_game, .init = setup_gtk, .timeout = 60)
{
  char *path = eng_data_path ("cards/katua.set");
  EngCardSet *set = NULL;
  EngParseError err = { "" };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  free (path);
  GtkWidget *bar = g_object_ref_sink (ui_command_bar_new ());
  ui_command_bar_set_card_set (UI_COMMAND_BAR (bar), set);
  GtkWidget *new_game = find_action (bar, "win.new-game");
  cr_assert_not_null (new_game);
  ui_command_bar_update (UI_COMMAND_BAR (bar), FALSE, TRUE);
  cr_expect_eq (ui_command_bar_get_n_shown (UI_COMMAND_BAR (bar)), 4, "Katua's command cards");
  cr_expect_not (gtk_widget_get_visible (new_game), "New game offered mid-game");
  ui_command_bar_update (UI_COMMAND_BAR (bar), TRUE, FALSE);
  cr_expect_eq (ui_command_bar_get_n_shown (UI_COMMAND_BAR (bar)), 0, "commands offered after the game");
  cr_expect (gtk_widget_get_visible (new_game), "no New game after the game");
  g_object_unref (bar);
  eng_card_set_free (set);
}
