/* history-test-util.h: what the history's tests share. */
#pragma once

#include <glib.h>

/* A new temporary folder (g_free), and its removal with what is in it. */
char *history_test_make_dir (void);
void history_test_remove_dir (char *dir);
