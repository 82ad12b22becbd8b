#include "ui-setup-dialog.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include "eng-game.h"
#include "eng-i18n.h"
#include "eng-name.h"
#include "ui-a11y.h"
#include "ui-option-docs.h"
#include "ui-seat-layout.h"
#include "ui-settings.h"
#include "ui-window-fit.h"

/* One rule switch as shown: its description and the widget holding its
 * value (GtkSwitch, AdwComboRow, GtkSpinButton or AdwEntryRow by kind). */
typedef struct {
  UiOptionDoc *doc;        /* owned by the dialog's docs array */
  GtkWidget *input;
  AdwActionRow *row;
} OptionRow;

struct _UiSetupDialog
{
  AdwWindow parent_instance;

  GtkSpinButton *count;
  AdwEntryRow *names[5];
  GtkSpinButton *seats[5];
  AdwComboRow *first;
  AdwPreferencesGroup *options_group;
  char *options_description;   /* the group's own words, before a game's */
  UiSeatLayout *seat_layout;
  GtkFlowBox *games;
  char *game;
  GPtrArray *option_docs;  /* UiOptionDoc, NULL when the file is missing */
  GArray *option_rows;     /* OptionRow */
};

G_DEFINE_FINAL_TYPE (UiSetupDialog, ui_setup_dialog, ADW_TYPE_WINDOW)

enum { SIGNAL_START, N_SIGNALS };
static guint signals[N_SIGNALS];


static guint
player_count (UiSetupDialog *self)
{
  return (guint) gtk_spin_button_get_value_as_int (self->count);
}

/* The table picture follows the count, the names and the seat markers. */
static void
update_seat_layout (UiSetupDialog *self)
{
  const char *names[G_N_ELEMENTS (self->names)];
  guint seats[G_N_ELEMENTS (self->names)];
  guint n = MIN (player_count (self), G_N_ELEMENTS (self->names));
  for (guint i = 0; i < n; i++)
    {
      names[i] = gtk_editable_get_text (GTK_EDITABLE (self->names[i]));
      seats[i] = (guint) gtk_spin_button_get_value_as_int (self->seats[i]);
    }
  ui_seat_layout_set_players (self->seat_layout, n, names, seats);
}

/* The first-player list names the players as they are typed. */
static void
on_names_changed (UiSetupDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->first);
  GtkStringList *names = gtk_string_list_new (NULL);
  for (guint i = 0; i < player_count (self) && i < G_N_ELEMENTS (self->names); i++)
    {
      const char *name = gtk_editable_get_text (GTK_EDITABLE (self->names[i]));
      /* an empty entry is the player's number (eng-name.h) */
      g_autofree char *fallback = g_strdup_printf (_ ("Player%u"), i + 1);
      gtk_string_list_append (names, name && *name ? name : fallback);
    }
  adw_combo_row_set_model (self->first, G_LIST_MODEL (names));
  g_object_unref (names);
  adw_combo_row_set_selected (self->first, selected < player_count (self) ? selected : 0);
  update_seat_layout (self);
}

static void
on_count_changed (UiSetupDialog *self)
{
  guint n = player_count (self);
  for (guint i = 0; i < G_N_ELEMENTS (self->names); i++)
    gtk_widget_set_visible (GTK_WIDGET (self->names[i]), i < n);
  on_names_changed (self);
}

void
ui_setup_dialog_get_setup (UiSetupDialog *self, EngSetup *setup)
{
  eng_setup_init (setup);
  setup->n_players = player_count (self);
  for (guint i = 0; i < setup->n_players; i++)
    {
      const char *name = gtk_editable_get_text (GTK_EDITABLE (self->names[i]));
      /* an empty entry is the player's number (eng-name.h) */
      g_autofree char *fallback = g_strdup_printf (_ ("Player%u"), i + 1);
      g_strlcpy (setup->names[i], name && *name ? name : fallback, ENG_NAME_MAX);
      setup->seats[i] = (uint8_t) gtk_spin_button_get_value_as_int (self->seats[i]);
    }
  setup->first = (int) adw_combo_row_get_selected (self->first);
}

void
ui_setup_dialog_get_options (UiSetupDialog *self, EngOptions *options)
{
  memset (options, 0, sizeof *options);
  for (guint i = 0; i < self->option_rows->len; i++)
    {
      const OptionRow *r = &g_array_index (self->option_rows, OptionRow, i);
      g_autofree char *value = NULL;
      switch (r->doc->kind)
        {
        case UI_OPTION_SWITCH:
          value = g_strdup (gtk_switch_get_active (GTK_SWITCH (r->input)) ? "yes" : "no");
          break;
        case UI_OPTION_CHOICE:
          {
            guint k = gtk_drop_down_get_selected (GTK_DROP_DOWN (r->input));
            value = g_strdup (k < g_strv_length (r->doc->choices) ? r->doc->choices[k] : r->doc->value);
          }
          break;
        case UI_OPTION_NUMBER:
          value = g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (r->input)));
          break;
        case UI_OPTION_TEXT:
        default:
          value = g_strdup (gtk_editable_get_text (GTK_EDITABLE (r->input)));
          break;
        }
      eng_options_set (options, r->doc->name, value);
    }
}

/* A choice's row says what the chosen value means under the description. */
static void
on_choice_selected (GtkDropDown *combo, GParamSpec *pspec, UiSetupDialog *self)
{
  for (guint i = 0; i < self->option_rows->len; i++)
    {
      const OptionRow *r = &g_array_index (self->option_rows, OptionRow, i);
      if (r->input != GTK_WIDGET (combo))
        continue;
      guint k = gtk_drop_down_get_selected (combo);
      g_autofree char *description = g_markup_escape_text (r->doc->description, -1);
      g_autofree char *meaning = k < g_strv_length (r->doc->meanings)
                                   ? g_markup_escape_text (r->doc->meanings[k], -1) : NULL;
      g_autofree char *subtitle = meaning != NULL
                                    ? g_strdup_printf ("%s\n<b>%s</b>: %s", description, r->doc->labels[k], meaning)
                                    : g_strdup (description);
      adw_action_row_set_subtitle (r->row, subtitle);
    }
}

static char *
row_title (const UiOptionDoc *doc)
{
  return doc->rule[0] ? g_strdup_printf ("%s (%s)", doc->title, doc->rule) : g_strdup (doc->title);
}

/* The rows of the game chosen before (another game was picked). */
static void
clear_option_rows (UiSetupDialog *self)
{
  for (guint i = 0; i < self->option_rows->len; i++)
    {
      const OptionRow *r = &g_array_index (self->option_rows, OptionRow, i);
      adw_preferences_group_remove (self->options_group, r->row != NULL ? GTK_WIDGET (r->row) : r->input);
    }
  g_array_set_size (self->option_rows, 0);
  g_clear_pointer (&self->option_docs, g_ptr_array_unref);
  adw_preferences_group_set_description (self->options_group, self->options_description);
}

/* One row per switch of data/rules/GAME.options, shaped by its kind, in
 * the table's language (ui_option_docs_load_game). */
static void
build_option_rows (UiSetupDialog *self, const char *game, const EngOptions *options)
{
  g_autoptr (GError) error = NULL;
  self->option_docs = ui_option_docs_load_game (game, &error);
  if (self->option_docs == NULL)
    {
      g_autofree char *why = g_strdup_printf (_ ("This game's rule options could not be read: %s"),
                                              error ? error->message : _ ("no data directory"));
      adw_preferences_group_set_description (self->options_group, why);
      return;
    }
  if (self->option_docs->len == 0)
    adw_preferences_group_set_description (self->options_group, _ ("This game has no rule options."));
  for (guint i = 0; i < self->option_docs->len; i++)
    {
      UiOptionDoc *doc = self->option_docs->pdata[i];
      const char *chosen = options != NULL ? eng_options_get (options, doc->name) : NULL;
      const char *value = chosen != NULL ? chosen : doc->value;
      g_autofree char *title = row_title (doc);
      OptionRow r = { .doc = doc };
      if (doc->kind == UI_OPTION_CHOICE)
        {
          GtkStringList *values = gtk_string_list_new ((const char *const *) doc->labels);
          /* A drop-down, not an AdwComboRow: the combo row ellipsizes its
           * value to "…" beside a long description. */
          r.input = gtk_drop_down_new (G_LIST_MODEL (values), NULL);
          r.row = ADW_ACTION_ROW (adw_action_row_new ());
          gtk_widget_set_valign (r.input, GTK_ALIGN_CENTER);
          gtk_widget_add_css_class (r.input, "flat");
          adw_action_row_add_suffix (r.row, r.input);
          for (guint k = 0; doc->choices[k] != NULL; k++)
            if (g_strcmp0 (doc->choices[k], value) == 0)
              gtk_drop_down_set_selected (GTK_DROP_DOWN (r.input), k);
        }
      else if (doc->kind == UI_OPTION_TEXT)
        {
          r.input = adw_entry_row_new ();
          gtk_editable_set_text (GTK_EDITABLE (r.input), value);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (r.input), title);
          adw_preferences_group_add (self->options_group, r.input);
          gtk_widget_set_tooltip_text (r.input, doc->description);
          g_array_append_val (self->option_rows, r);
          continue;
        }
      else
        {
          r.row = ADW_ACTION_ROW (adw_action_row_new ());
          if (doc->kind == UI_OPTION_SWITCH)
            {
              r.input = gtk_switch_new ();
              gtk_switch_set_active (GTK_SWITCH (r.input), g_strcmp0 (value, "yes") == 0);
              adw_action_row_set_activatable_widget (r.row, r.input);
            }
          else
            {
              r.input = gtk_spin_button_new_with_range (1, 999, 1);
              gtk_spin_button_set_value (GTK_SPIN_BUTTON (r.input), atoi (value));
            }
          gtk_widget_set_valign (r.input, GTK_ALIGN_CENTER);
          adw_action_row_add_suffix (r.row, r.input);
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (r.row), title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (r.row), TRUE);
      ui_a11y_name_control (r.input, title, doc->description);
      g_autofree char *description = g_markup_escape_text (doc->description, -1);
      adw_action_row_set_subtitle (r.row, description);
      g_array_append_val (self->option_rows, r);
      adw_preferences_group_add (self->options_group, GTK_WIDGET (r.row));
      if (doc->kind == UI_OPTION_CHOICE)
        {
          g_signal_connect (r.input, "notify::selected", G_CALLBACK (on_choice_selected), self);
          on_choice_selected (GTK_DROP_DOWN (r.input), NULL, self);
        }
    }
}

/* Two players behind one seat marker cannot be told apart by the camera. */
static gboolean
seats_distinct (UiSetupDialog *self)
{
  guint n = player_count (self);
  gboolean ok = TRUE;
  for (guint i = 0; i < n; i++)
    {
      gboolean clash = FALSE;
      for (guint j = 0; j < n; j++)
        clash |= i != j && gtk_spin_button_get_value_as_int (self->seats[i])
                             == gtk_spin_button_get_value_as_int (self->seats[j]);
      if (clash)
        gtk_widget_add_css_class (GTK_WIDGET (self->seats[i]), "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->seats[i]), "error");
      ok &= !clash;
    }
  return ok;
}

/* Every name the table typed is one a record can hold (eng-name.h), none
 * twice: a name at fault is marked and says why under it. */
static gboolean
names_ok (UiSetupDialog *self)
{
  guint n = player_count (self);
  const char *names[G_N_ELEMENTS (self->names)];
  char *fallbacks[G_N_ELEMENTS (self->names)] = { NULL };
  for (guint i = 0; i < n; i++)
    {
      const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->names[i]));
      fallbacks[i] = g_strdup_printf (_ ("Player%u"), i + 1);
      names[i] = typed != NULL && *typed != '\0' ? typed : fallbacks[i];
      gtk_widget_remove_css_class (GTK_WIDGET (self->names[i]), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->names[i]), NULL);
    }
  EngNameCheck check;
  int bad = eng_names_find_fault (names, n, &check);
  for (guint i = 0; i < G_N_ELEMENTS (fallbacks); i++)
    g_free (fallbacks[i]);
  if (bad < 0)
    return TRUE;
  gtk_widget_add_css_class (GTK_WIDGET (self->names[bad]), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->names[bad]),
                               check == ENG_NAME_OK ? _ ("Another player has this name")
                                                    : eng_name_check_to_string (check));
  gtk_widget_grab_focus (GTK_WIDGET (self->names[bad]));
  return FALSE;
}

static void
start_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  if (!seats_distinct (UI_SETUP_DIALOG (widget)) || !names_ok (UI_SETUP_DIALOG (widget)))
    return;
  /* What the table chose is kept before the game starts, so the next
   * setup (and the next launch) begins from it. */
  UiSetupDialog *self = UI_SETUP_DIALOG (widget);
  EngSetup setup;
  EngOptions options;
  ui_setup_dialog_get_setup (self, &setup);
  ui_setup_dialog_get_options (self, &options);
  g_autoptr (GSettings) settings = ui_settings_new ();
  ui_settings_save_game (settings, self->game, &setup, &options);
  g_signal_emit (widget, signals[SIGNAL_START], 0);
  gtk_window_close (GTK_WINDOW (widget));
}

/* Each seat marker's number is a field of its own: a word beside it says
 * what it is, and a screen reader hears whose marker it is. */
static void
label_seat_markers (UiSetupDialog *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->seats); i++)
    {
      GtkWidget *spin = GTK_WIDGET (self->seats[i]);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new (_ ("Seat"));
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
      g_object_ref (spin);
      adw_entry_row_remove (self->names[i], spin);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), spin);
      g_object_unref (spin);
      adw_entry_row_add_suffix (self->names[i], box);
      /* Translators: a seat marker's field, for a screen reader; the player's number. */
      g_autofree char *name = g_strdup_printf (_ ("Seat marker of player %u"), i + 1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _ ("The number on the seat marker this player sits behind"), -1);
    }
}

/* Wide enough for the longest title any game gives it in this language
 * ("Nueva partida de Exploding Kittens") beside its two buttons, as tall
 * as the screen allows. */
static int
bold_width (PangoLayout *layout, const char *text)
{
  int w, h;
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  return w;
}

static void
fit_to_screen (UiSetupDialog *self, GtkWindow *parent)
{
  int widest = 0;
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  PangoAttrList *attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  for (guint i = 0; i < eng_game_class_count (); i++)
    {
      const EngGameClass *klass = eng_game_class_get (i);
      g_autofree char *title = g_strdup_printf (_ ("New game of %s"),
                                                klass->title != NULL ? klass->title : klass->name);
      widest = MAX (widest, bold_width (layout, title));
    }
  /* the title is centred between Cancel and Start game (their labels
   * without the mnemonic mark, and a button's padding) */
  g_autofree char *cancel = g_strdup (_ ("_Cancel"));
  g_autofree char *start = g_strdup (_ ("_Start game"));
  g_strdelimit (cancel, "_", ' ');
  g_strdelimit (start, "_", ' ');
  int button = MAX (bold_width (layout, cancel), bold_width (layout, start)) + 40;
  g_object_unref (layout);
  int width = MAX (560, widest + 2 * button + 48);
  int height = 720;
  GdkRectangle area;
  if (ui_window_fit_monitor (parent, &area, NULL, NULL))
    {
      width = MIN (width, area.width);
      height = MIN (height, area.height - 40);
    }
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
}

static void
ui_setup_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_SETUP_DIALOG);
  G_OBJECT_CLASS (ui_setup_dialog_parent_class)->dispose (object);
}

static void
ui_setup_dialog_finalize (GObject *object)
{
  UiSetupDialog *self = UI_SETUP_DIALOG (object);
  g_array_unref (self->option_rows);
  g_free (self->game);
  g_free (self->options_description);
  g_clear_pointer (&self->option_docs, g_ptr_array_unref);
  G_OBJECT_CLASS (ui_setup_dialog_parent_class)->finalize (object);
}

static void
ui_setup_dialog_class_init (UiSetupDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_setup_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = ui_setup_dialog_finalize;
  g_type_ensure (UI_TYPE_SEAT_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-setup-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, count);
  gtk_widget_class_bind_template_child_full (widget_class, "name0", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "name1", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "name2", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "name3", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "name4", FALSE, G_STRUCT_OFFSET (UiSetupDialog, names[4]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat0", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat1", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat2", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat3", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "seat4", FALSE, G_STRUCT_OFFSET (UiSetupDialog, seats[4]));
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, first);
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, options_group);
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, seat_layout);
  gtk_widget_class_bind_template_child (widget_class, UiSetupDialog, games);
  gtk_widget_class_install_action (widget_class, "setup.start", NULL, start_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  signals[SIGNAL_START] = g_signal_new ("start", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ui_setup_dialog_init (UiSetupDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->option_rows = g_array_new (FALSE, TRUE, sizeof (OptionRow));
  g_signal_connect_swapped (self->count, "value-changed", G_CALLBACK (on_count_changed), self);
  for (guint i = 0; i < G_N_ELEMENTS (self->names); i++)
    {
      g_signal_connect_swapped (self->names[i], "changed", G_CALLBACK (on_names_changed), self);
      g_signal_connect_swapped (self->seats[i], "value-changed", G_CALLBACK (update_seat_layout),
                                self);
    }
  self->options_description = g_strdup (adw_preferences_group_get_description (self->options_group));
  ui_a11y_name_control (GTK_WIDGET (self->count), _ ("Number of players"), NULL);
  label_seat_markers (self);
}

/* Learning: the referee explains each rule the first time it comes up
 * (GSettings "learning", bound both ways: the window follows at once).
 * Without the schema the row is not shown. */
static void
add_learning_row (UiSetupDialog *self, GSettings *settings)
{
  if (settings == NULL || !ui_settings_has_key (settings, "learning"))
    return;
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _ ("Referee"));
  GtkWidget *row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _ ("Learning"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _ ("Explain each rule briefly the first time it comes up in the game"));
  GtkWidget *toggle = gtk_switch_new ();
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Learning"), -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
  g_settings_bind (settings, "learning", toggle, "active", G_SETTINGS_BIND_DEFAULT);
  adw_preferences_group_add (group, row);
  GtkWidget *page = gtk_widget_get_ancestor (GTK_WIDGET (self->options_group),
                                             ADW_TYPE_PREFERENCES_PAGE);
  if (page != NULL)
    adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), group);
  else
    g_object_unref (g_object_ref_sink (group));
}

/* Everything that follows the game: its title, how many may play, the
 * players, seats and house rules the table last started it with (else
 * `setup` and `options`, may be NULL), its table picture and its rule
 * switches. */
static void
apply_game (UiSetupDialog *self, const char *game, const EngSetup *setup, const EngOptions *options)
{
  g_free (self->game);
  self->game = g_strdup (game);
  /* The players, seats and house rules the table last started this game
   * with win over the game on screen (which may be a default or resumed one). */
  g_autoptr (GSettings) settings = ui_settings_new ();
  EngSetup kept_setup;
  EngOptions kept_options;
  if (ui_settings_get_setup (settings, game, &kept_setup))
    setup = &kept_setup;
  if (ui_settings_get_options (settings, game, &kept_options))
    options = &kept_options;
  /* the number of players within the game's limits (and the rows there are) */
  const EngGameClass *klass = eng_game_class_find (game);
  guint lo = klass != NULL ? klass->min_players : 2;
  guint hi = MIN (klass != NULL ? klass->max_players : 4, G_N_ELEMENTS (self->names));
  gtk_spin_button_set_range (self->count, lo, hi);
  if (klass != NULL)
    {
      /* Translators: the dialog's title, with the game's name ("Katua"). */
      g_autofree char *title = g_strdup_printf (_ ("New game of %s"),
                                                klass->title != NULL ? klass->title : klass->name);
      eng_i18n_elide (title);   /* "Partida nova d'Exploding Kittens" */
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  if (setup != NULL)
    {
      guint n = setup->n_players >= lo ? MIN (setup->n_players, hi) : lo;
      gtk_spin_button_set_value (self->count, n);
      for (guint i = 0; i < setup->n_players && i < G_N_ELEMENTS (self->names); i++)
        {
          gtk_editable_set_text (GTK_EDITABLE (self->names[i]), setup->names[i]);
          if (setup->seats[i] > 0)
            gtk_spin_button_set_value (self->seats[i], setup->seats[i]);
        }
      if (setup->first >= 0)
        adw_combo_row_set_selected (self->first, (guint) setup->first);
    }
  /* without its zone file the picture still shows the seats */
  g_autoptr (GError) zones_error = NULL;
  if (!ui_seat_layout_set_game (self->seat_layout, game, &zones_error))
    g_debug ("setup picture: %s", zones_error->message);
  on_count_changed (self);
  clear_option_rows (self);
  build_option_rows (self, game, options);
}

static void
on_game_toggled (GtkToggleButton *button, UiSetupDialog *self)
{
  const char *game = g_object_get_data (G_OBJECT (button), "game");
  if (gtk_toggle_button_get_active (button) && g_strcmp0 (game, self->game) != 0)
    apply_game (self, game, NULL, NULL);
}

/* One toggle per game of the registry, `game` pressed. */
static void
build_game_buttons (UiSetupDialog *self, const char *game)
{
  GtkToggleButton *group = NULL;
  for (guint i = 0; i < eng_game_class_count (); i++)
    {
      const EngGameClass *klass = eng_game_class_get (i);
      GtkWidget *button = gtk_toggle_button_new_with_label (klass->title != NULL ? klass->title : klass->name);
      g_object_set_data_full (G_OBJECT (button), "game", g_strdup (klass->name), g_free);
      gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), group);
      if (group == NULL)
        group = GTK_TOGGLE_BUTTON (button);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), g_strcmp0 (klass->name, game) == 0);
      g_signal_connect (button, "toggled", G_CALLBACK (on_game_toggled), self);
      gtk_flow_box_append (self->games, button);
    }
}

UiSetupDialog *
ui_setup_dialog_new (GtkWindow *parent, const char *game, const EngSetup *setup, const EngOptions *options)
{
  UiSetupDialog *self = g_object_new (UI_TYPE_SETUP_DIALOG, "transient-for", parent,
                                      "application", gtk_window_get_application (parent), NULL);
  build_game_buttons (self, game);
  apply_game (self, game, setup, options);
  g_autoptr (GSettings) settings = ui_settings_new ();
  add_learning_row (self, settings);
  fit_to_screen (self, parent);
  return self;
}

const char *
ui_setup_dialog_get_game (UiSetupDialog *self)
{
  g_return_val_if_fail (UI_IS_SETUP_DIALOG (self), NULL);
  return self->game;
}

UiSeatLayout *
ui_setup_dialog_get_seat_layout (UiSetupDialog *self)
{
  g_return_val_if_fail (UI_IS_SETUP_DIALOG (self), NULL);
  return self->seat_layout;
}
