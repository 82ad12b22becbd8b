/* tablero: the GTK app.  Everything lives in ui/. */
#include <glib/gi18n-lib.h>
#include <locale.h>

#include "eng-i18n.h"
#include "ui-application.h"

int
main (int argc, char **argv)
{
  /* The table's language for words, but numbers stay C: calibration, zone
   * and scene files are read and written with strtod/printf.  GTK would
   * otherwise set the whole locale, LC_NUMERIC included. */
  gtk_disable_setlocale ();
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  eng_i18n_init (LOCALEDIR);
  textdomain (GETTEXT_PACKAGE);

  g_autoptr (UiApplication) app = ui_application_new ();
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  return status != 0 ? status : ui_application_get_exit_status (app);
}
