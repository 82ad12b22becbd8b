#include "ui-about.h"

#include <glib/gi18n-lib.h>

/* The games' credits, from the title pages of the rulebooks the rules were
 * taken from.  Tablero referees a game; the game and its rulebook stay its
 * authors' and publisher's. */
static void
add_game_credits (AdwAboutWindow *about)
{
  adw_about_window_add_credit_section (about, _ ("Katua rulebook"), (const char *[]) {
    /* Translators: a credit line; the names stay as they are. */
    _ ("José Román and Rodrigo González (game design)"),
    _ ("Mar Martitegui (art)"),
    _ ("Buscalume, Ourense (publisher) https://www.buscalume.com"),
    NULL });
  adw_about_window_add_credit_section (about, _ ("Catchy! rulebook"), (const char *[]) {
    _ ("Yuko Y (game design)"),
    _ ("Javier Fernández (Spanish translation)"),
    NULL });
  adw_about_window_add_credit_section (about, _ ("Exploding Kittens rulebook"), (const char *[]) {
    _ ("Elan Lee, Matthew Inman and Shane Small (game design)"),
    _ ("Exploding Kittens (publisher) https://www.explodingkittens.com"),
    NULL });
  adw_about_window_add_legal_section (about, _ ("The games"), NULL, GTK_LICENSE_CUSTOM,
                                      _ ("Katua, Catchy! and Exploding Kittens, their rules, names "
                                         "and art belong to their authors and publishers. Tablero "
                                         "only referees a copy of the game you own; the rule "
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
