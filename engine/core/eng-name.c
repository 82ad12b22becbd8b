#include "eng-name.h"

#include <glib.h>
#include <string.h>

#include "eng-game.h"
#include "eng-i18n.h"

EngNameCheck
eng_name_check (const char *name, size_t len)
{
  if (name == NULL || len == 0)
    return ENG_NAME_EMPTY;
  if (len >= ENG_NAME_MAX)
    return ENG_NAME_TOO_LONG;
  if (!g_utf8_validate_len (name, len, NULL))
    return ENG_NAME_NOT_UTF8;
  bool first = true;
  for (const char *p = name; p < name + len; p = g_utf8_next_char (p))
    {
      gunichar u = g_utf8_get_char (p);
      if (u < 0x20 || (u >= 0x7f && u < 0xa0))
        return ENG_NAME_CONTROL;
      /* "Mari Carmen": one plain space between two words, so the name
       * reads back as it was written and says aloud as two words */
      if (u == ' ' && !first && p + 1 < name + len && p[1] != ' ')
        continue;
      if (g_unichar_isspace (u))
        return ENG_NAME_SPACE;
      bool letter = g_unichar_isalpha (u);
      if (first && !letter)
        return ENG_NAME_FIRST_NOT_LETTER;
      GUnicodeType type = g_unichar_type (u);
      bool mark = type == G_UNICODE_SPACING_MARK || type == G_UNICODE_NON_SPACING_MARK
                  || type == G_UNICODE_ENCLOSING_MARK;
      if (!letter && !mark && !g_unichar_isdigit (u) && u != '_' && u != '-' && u != '.'
          && u != '\'')
        return ENG_NAME_BAD_CHARACTER;
      first = false;
    }
  return ENG_NAME_OK;
}

const char *
eng_name_check_to_string (EngNameCheck check)
{
  switch (check)
    {
    case ENG_NAME_OK: return "";
    case ENG_NAME_EMPTY: return ENG_ ("a name cannot be empty");
    case ENG_NAME_TOO_LONG:
      return ENG_ ("too long (at most 31 bytes: about 15 accented letters)");
    case ENG_NAME_NOT_UTF8: return ENG_ ("not UTF-8 text");
    case ENG_NAME_CONTROL: return ENG_ ("it holds a control character");
    case ENG_NAME_SPACE: return ENG_ ("a space may only stand between two words");
    case ENG_NAME_FIRST_NOT_LETTER: return ENG_ ("a name starts with a letter");
    case ENG_NAME_BAD_CHARACTER:
      return ENG_ ("only letters, digits and _ - . ' may follow the first letter");
    default: return ENG_ ("not a name");
    }
}

bool
eng_names_same (const char *a, const char *b)
{
  g_autofree char *fa = g_utf8_casefold (a, -1);
  g_autofree char *fb = g_utf8_casefold (b, -1);
  g_autofree char *na = g_utf8_normalize (fa, -1, G_NORMALIZE_DEFAULT);
  g_autofree char *nb = g_utf8_normalize (fb, -1, G_NORMALIZE_DEFAULT);
  return na != NULL && nb != NULL && strcmp (na, nb) == 0;
}

int
eng_names_find_fault (const char *const *names, size_t n, EngNameCheck *check)
{
  for (size_t i = 0; i < n; i++)
    {
      *check = eng_name_check (names[i], names[i] != NULL ? strlen (names[i]) : 0);
      if (*check != ENG_NAME_OK)
        return (int) i;
      for (size_t j = 0; j < i; j++)
        if (eng_names_same (names[j], names[i]))
          return (int) i;
    }
  *check = ENG_NAME_OK;
  return -1;
}
