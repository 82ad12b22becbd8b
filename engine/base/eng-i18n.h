/* eng-i18n.h: the engine's words in the table's language (gettext).
 *
 * English is the source language: every msgid is the English text shown
 * in the C locale, so tests and records stay English.  The engine looks up
 * its own domain (GETTEXT_PACKAGE, "tablero") with dgettext(), so it needs
 * no textdomain() of the program that links it; the program only binds the
 * domain (eng_i18n_init) and selects a locale (setlocale).
 *
 * ENG_ translates now.  ENG_N_ only marks a string for the catalogue: the
 * engine's event and refusal helpers translate their format themselves,
 * and only when they actually format text, so the simulation path (which
 * formats nothing) pays no lookup.  Format strings with several arguments
 * may be reordered by translators with positional forms (%1$s, %2$d). */
#pragma once

#include <stdbool.h>

#ifndef GETTEXT_PACKAGE
#define GETTEXT_PACKAGE "tablero"
#endif

#include <libintl.h>

#define ENG_(s) dgettext (GETTEXT_PACKAGE, s)
#define ENG_N_(s) (s)
/* Plural forms: `one` and `many` are the English singular and plural. */
#define ENG_NG_(one, many, n) dngettext (GETTEXT_PACKAGE, one, many, (unsigned long) (n))
/* A word whose translation depends on what it qualifies (a colour of a
 * beam or of a cat: "luz roja" but "gato rojo").  `ctx` and `s` must be
 * string literals. */
#define ENG_C_(ctx, s) eng_i18n_pgettext (ctx "\004" s, s)

/* dgettext with a context: `key` is "CONTEXT\004MSGID"; returns the
 * translation (owned by gettext, static) or `msgid` when there is none. */
const char *eng_i18n_pgettext (const char *key, const char *msgid)
  __attribute__ ((format_arg (2)));

/* Binds the engine's text domain to its catalogues, in UTF-8.
 * `localedir` is the installed locale dir (the LOCALEDIR the build
 * defines).  First match wins: the environment variable TABLERO_LOCALEDIR,
 * when set and not empty; the build tree's po/ (which holds
 * <lang>/LC_MESSAGES/tablero.mo) when the executable runs from the build
 * tree, so a build run in place speaks the table's language without
 * installing; "../share/locale" beside the installed executable when it
 * exists; else `localedir` (the same order as eng_data_dir()).  Call once
 * at start-up, after or before setlocale (LC_ALL, ""); it changes no locale
 * itself.  Returns false when gettext could not bind the domain (no
 * memory), in which case every text stays English. */
bool eng_i18n_init (const char *localedir);

/* Elides, in place, the words the table's language shortens before a
 * vowel: Catalan writes "d'Ana", "d'Hug", "d'Úrsula" where a name known
 * only at run time follows "de".  Which words are elided is the
 * catalogue's (context "grammar": "de=d' De=D'" in ca.po, nothing in
 * English and Spanish), so the code names no language.  Before i or u
 * gliding into a, e or o (a semivowel: "de Iolanda") nothing changes.
 * `text` is NUL-terminated UTF-8 and only ever gets shorter. */
void eng_i18n_elide (char *text);

/* Capitalizes, in place, the first letter of `text` (after opening marks:
 * "¡", "¿", "«", quotes): an announcement starts as a sentence does even
 * when its words come from a refusal's reason ("only one abduction card
 * per turn").  ASCII and Latin-1 letters; others are left as they are. */
void eng_i18n_capitalize (char *text);
