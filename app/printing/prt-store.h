/* prt-store.h: where a table keeps the keys its stickers are sealed with.
 *
 * Each printing of a card set (a game letter and a set id) has a key of
 * ENG_PRINTING_KEY_LEN random bytes (engine/cards/eng-printing.h explains
 * the seal).  The keys live in one GKeyFile, printings.ini, in
 * g_get_user_data_dir()/tablero/ (so XDG_DATA_HOME moves it), one group per
 * set:
 *
 *   [K01]
 *   key=<64 hex digits>
 *   created=2026-11-24T23:30:00Z
 *
 * A key is made on first need (printing stickers, rendering a scene,
 * starting the referee).  Many processes may need the same key at once, so
 * every change to the file happens under an exclusive lock on
 * printings.ini.lock and is written whole to a temporary file renamed over
 * the old one: a process that finds the key missing takes the lock, reads
 * again, and only writes when the key is still missing, so every process
 * ends up with the one key the first writer made.  The file and its folder
 * are private to the user (0600, 0700).
 *
 * Nothing here prints, logs or returns the key outside the EngPrinting it
 * builds; error messages name the file and the set, never the key.
 */
#pragma once

#include <glib.h>

#include "eng-cardset.h"
#include "eng-printing.h"

#define PRT_STORE_ERROR (prt_store_error_quark ())
GQuark prt_store_error_quark (void);

typedef enum {
  PRT_STORE_ERROR_IO,       /* the file or its folder cannot be read or written */
  PRT_STORE_ERROR_CORRUPT,  /* printings.ini is not a key file, or a set's key is
                               not ENG_PRINTING_KEY_LEN bytes of hex */
  PRT_STORE_ERROR_RANDOM,   /* the system gave no random bytes for a new key */
  PRT_STORE_ERROR_SET,      /* the card set cannot be sealed (engine status) */
} PrtStoreError;

/* The path of printings.ini (newly allocated; g_free). */
char *prt_store_path (void);

/* The table's printing of `set`: its key read from printings.ini, or made
 * and saved there first when the set has none yet.  Returns a new
 * EngPrinting (eng_printing_free), or NULL with `error` set. */
EngPrinting *prt_store_printing (const EngCardSet *set, GError **error);

/* Adds `set`'s printing (made on first need, as above) to `printing`.
 * Returns FALSE with `error` set on failure. */
gboolean prt_store_add (EngPrinting *printing, const EngCardSet *set, GError **error);

/* Starts a new printing of `set`: a fresh key replaces the old one, so
 * every sticker printed before is refused from now on.  `created_out` (may
 * be NULL) receives the new key's date (g_free).  Returns FALSE with
 * `error` set on failure (the old key is then kept). */
gboolean prt_store_new_printing (const EngCardSet *set, char **created_out, GError **error);
