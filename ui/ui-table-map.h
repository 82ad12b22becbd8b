/* ui-table-map.h: a schematic map of the table as the referee knows it:
 * each seat's three slots (face-down cats drawn as backs, never named: K20),
 * hand sizes, captured counts, the decks and the discard pile. */
#pragma once

#include <gtk/gtk.h>

#include "ui-referee.h"

G_BEGIN_DECLS

#define UI_TYPE_TABLE_MAP (ui_table_map_get_type ())
G_DECLARE_FINAL_TYPE (UiTableMap, ui_table_map, UI, TABLE_MAP, GtkWidget)

GtkWidget *ui_table_map_new (void);

/* Follows `referee` (a new reference is kept; NULL shows an empty table). */
void ui_table_map_set_referee (UiTableMap *self, UiReferee *referee);

/* The map in words (ui_words_describe_view), its accessible description;
 * owned by the map. */
const char *ui_table_map_get_description (UiTableMap *self);

G_END_DECLS
