/* ui-option-docs.h: a game's rule switches as a person reads them.
 *
 * data/rules/GAME.options gives each switch's name and default (read with
 * the engine's eng_options_parse, so the app offers exactly what the engine
 * loads) and, in the comment block above it, the ruling it comes from, what
 * it does and, for a choice, each value's meaning ("#   reshuffle = ...").
 * The setup dialog builds its rows from these, so a new switch or a new
 * game's switches appear without UI changes.  Pure GLib, no GTK.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define UI_OPTION_DOCS_ERROR (ui_option_docs_error_quark ())
GQuark ui_option_docs_error_quark (void);

typedef enum {
  UI_OPTION_DOCS_ERROR_IO,
  UI_OPTION_DOCS_ERROR_SYNTAX,
} UiOptionDocsError;

typedef enum {
  UI_OPTION_SWITCH,    /* yes / no without documented meanings */
  UI_OPTION_CHOICE,    /* documented values: one of them */
  UI_OPTION_NUMBER,    /* a whole number */
  UI_OPTION_TEXT,      /* anything else */
} UiOptionKind;

typedef struct {
  char *name;          /* "ufo_deck_out" */
  char *value;         /* the file's value, the engine's default */
  char *rule;          /* "K18", "" when the comment names none */
  char *title;         /* "Ufo deck out" */
  char *description;   /* the comment's words, without the value list */
  UiOptionKind kind;
  GStrv choices;       /* CHOICE: the values in file order; else NULL */
  GStrv meanings;      /* parallel to choices */
} UiOptionDoc;

void ui_option_doc_free (UiOptionDoc *doc);

/* Reads an options file's text: an array of UiOptionDoc (transfer full,
 * each freed with the array) in file order.  NULL with `error` set
 * (UI_OPTION_DOCS_ERROR_SYNTAX naming the line) when the engine refuses it. */
GPtrArray *ui_option_docs_parse (const char *text, const char *source, GError **error);
/* The same from a file (UI_OPTION_DOCS_ERROR_IO when unreadable). */
GPtrArray *ui_option_docs_load (const char *path, GError **error);

/* One rule explanation of data/rules/GAME.rules: "ID: text" on one line. */
typedef struct {
  char *id;            /* "K5" */
  char *text;          /* the explanation, stripped */
} UiRuleDoc;

/* Reads a rules file's text: an array of UiRuleDoc (transfer full, each
 * freed with the array) in file order, one per line holding a ':' and not
 * starting with '#'; other lines are skipped.  Never NULL. */
GPtrArray *ui_rule_docs_parse (const char *text);

G_END_DECLS
