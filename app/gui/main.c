/* tablero: the GTK app.  Everything lives in ui/. */
#include "ui-application.h"

int
main (int argc, char **argv)
{
  g_autoptr (UiApplication) app = ui_application_new ();
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  return status != 0 ? status : ui_application_get_exit_status (app);
}
