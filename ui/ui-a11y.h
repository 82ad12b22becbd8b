/* ui-a11y.h: what a screen reader hears of every window, where GTK 4.8
 * alone would say it wrong or nothing.  A button labelled with a mnemonic ("_Next")
 * is named by GTK 4.8 as its raw label and its text together ("_Next
 * Next"); once installed, every such button, in any window, is named by
 * its text alone, also after its label changes. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Installs the fixes for every widget mapped from now on (once per
 * process; later calls do nothing). */
void ui_a11y_install (void);

/* Names a control that sits beside its words rather than holding them
 * (a row's switch, spin button or drop-down): `name` (the row's title),
 * `description` (may be NULL). */
void ui_a11y_name_control (GtkWidget *control, const char *name, const char *description);

G_END_DECLS
