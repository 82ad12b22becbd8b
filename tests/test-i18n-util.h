/* test-i18n-util.h: the i18n tests choose the messages' language as a user
 * would.  Header only (each test program includes it once); needs
 * Criterion, <locale.h>, <stdlib.h> and eng-i18n.h before it. */
#pragma once

/* Messages in `language` ("es", "ca"; NULL: the C locale, English) from the
 * build's catalogues (TABLERO_LOCALEDIR): a UTF-8 locale and LANGUAGE,
 * since gettext ignores LANGUAGE when LC_MESSAGES is "C". */
static inline void
speak (const char *language)
{
  const char *dir = getenv ("TABLERO_LOCALEDIR");
  cr_assert (dir != NULL && *dir != '\0', "TABLERO_LOCALEDIR must be set (meson test sets it)");
  if (language == NULL)
    {
      unsetenv ("LANGUAGE");
      cr_assert_not_null (setlocale (LC_ALL, "C"));
    }
  else
    {
      setenv ("LANGUAGE", language, 1);
      cr_assert_not_null (setlocale (LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
    }
  cr_assert (eng_i18n_init (NULL), "binding the text domain failed");
}
