#include "ui-about.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

#include "eng-data.h"
#include "eng-game.h"

/* The games' credits, from the title pages of the rulebooks the rules were
 * taken from, as each game's card set gives them (`credit` lines, data
 * texts translated through the catalogue).  Tablero referees a game; the
 * game and its rulebook stay its authors' and publishers'. */
static void
add_game_credits (AdwAboutWindow *about)
{
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const EngGameClass *klass = eng_game_class_get (g);
      g_autofree char *rel = g_strdup_printf ("cards/%s.set", klass->name);
      char *path = eng_data_path (rel);
      EngCardSet *set = NULL;
      if (path != NULL && eng_card_set_load_file (path, &set, NULL) == ENG_OK
          && eng_card_set_n_credits (set) > 0)
        {
          size_t n = eng_card_set_n_credits (set);
          g_autofree const char **lines = g_new0 (const char *, n + 1);
          for (size_t i = 0; i < n; i++)
            lines[i] = _ (eng_card_set_credit (set, i));
          /* Translators: a heading in the About window: the game's name. */
          g_autofree char *heading = g_strdup_printf (_ ("%s rulebook"), klass->title);
          adw_about_window_add_credit_section (about, heading, lines);
        }
      eng_card_set_free (set);
      free (path);
    }
  adw_about_window_add_legal_section (about, _ ("The games"), NULL, GTK_LICENSE_CUSTOM,
                                      _ ("The games Tablero referees, their rules, names and art "
                                         "belong to their authors and publishers. Tablero only "
                                         "referees a copy of the game you own; the rule "
                                         "explanations it shows are its own summaries."));
}

GtkWindow *
ui_about_show (GtkWindow *parent)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  const char *icon = gtk_icon_theme_has_icon (theme, "org.tablero.Tablero")
                       ? "org.tablero.Tablero" : "applications-games-symbolic";
  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  gtk_window_set_default_size (GTK_WINDOW (about), 420, 680);
  g_object_set (about,
                "application-name", "Tablero",
                "application-icon", icon,
                "version", TABLERO_VERSION,
                "developer-name", _ ("The Tablero developers"),
                "comments", _ ("A camera referee for real card games"),
                "license-type", GTK_LICENSE_GPL_3_0,
                /* Translators: your names, one per line, as they should be credited. */
                "translator-credits", _ ("translator-credits"),
                NULL);
  add_game_credits (about);
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (about), parent);
      gtk_window_set_application (GTK_WINDOW (about), gtk_window_get_application (parent));
    }
  gtk_window_present (GTK_WINDOW (about));
  return GTK_WINDOW (about);
}
