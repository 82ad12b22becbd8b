/* libFuzzer target: the history's importer (hst_import_text, app/history)
 * on arbitrary bytes: game records and journals (replayed through the
 * engine) and play lists (JSON).  Into a fresh in-memory history each
 * time: a refusal must say why and leave nothing; what was imported must
 * export and import again to the same play list. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "hst-io.h"
#include "hst-store.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  /* the importer finds the games' data as the programs do */
  if (g_getenv ("TABLERO_DATADIR") == NULL)
    g_setenv ("TABLERO_DATADIR", "data", FALSE);
  return 0;
}

static guint
count (HstStore *store)
{
  guint total = 0;
  GPtrArray *games = hst_store_list (store, NULL, &total, NULL);
  if (games == NULL)
    abort ();
  g_ptr_array_unref (games);
  return total;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  HstStore *store = hst_store_open (":memory:", NULL, NULL);
  if (store == NULL)
    abort ();
  GError *error = NULL;
  GPtrArray *imported = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_imported_free);
  gboolean ok = hst_import_text (store, text, size, "fuzz", 1, imported, &error);
  free (text);
  if (!ok && (error == NULL || error->message[0] == '\0'))
    abort ();
  if (count (store) != imported->len && ok)
    abort ();
  g_clear_error (&error);
  if (imported->len > 0)
    {
      char *first = hst_export_json (store, NULL, &error);
      HstStore *again = hst_store_open (":memory:", NULL, NULL);
      if (first == NULL || again == NULL
          || !hst_import_text (again, first, strlen (first), "export", 0, NULL, &error))
        abort ();
      char *second = hst_export_json (again, NULL, &error);
      if (second == NULL || strcmp (first, second) != 0)
        abort ();
      g_free (first);
      g_free (second);
      hst_store_free (again);
    }
  g_ptr_array_unref (imported);
  hst_store_free (store);
  return 0;
}
