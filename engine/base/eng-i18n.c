/* eng-i18n.c: elision of words before a vowel, as the catalogue says. */
#include "eng-i18n.h"

#include <stdbool.h>
#include <string.h>

/* The vowels a word may start with, plain or accented, either case. */
static size_t
vowel_at (const char *p)
{
  static const char *const accented[] = { "à", "è", "é", "í", "ï", "ò", "ó", "ú", "ü",
                                          "À", "È", "É", "Í", "Ï", "Ò", "Ó", "Ú", "Ü" };
  if (*p != '\0' && strchr ("aeiouAEIOU", *p) != NULL)
    return 1;
  for (size_t i = 0; i < sizeof accented / sizeof accented[0]; i++)
    if (strncmp (p, accented[i], strlen (accented[i])) == 0)
      return strlen (accented[i]);
  return 0;
}

/* Whether the word at p starts with a vowel sound that takes elision: a
 * vowel, or a silent h and a vowel, but not i or u gliding before a, e
 * or o (a semivowel). */
static bool
elides_before (const char *p)
{
  if (*p == 'h' || *p == 'H')
    p++;
  size_t n = vowel_at (p);
  if (n == 0)
    return false;
  /* "Iolanda", "hiena": i or u before a, e or o glides; "Iu" does not */
  bool semivowel = n == 1 && strchr ("iuIU", *p) != NULL && vowel_at (p + 1) > 0
                   && strchr ("iuIUíúïüÍÚÏÜ", p[1]) == NULL;
  return !semivowel;
}

/* One rule "de=d'": every whole word `from` followed by a space and a
 * vowel becomes `to`, glued to the next word. */
static void
elide_word (char *text, const char *from, size_t from_n, const char *to, size_t to_n)
{
  char word[16];
  if (to_n > from_n + 1 || from_n >= sizeof word)
    return;   /* an elision never makes the text longer */
  memcpy (word, from, from_n);
  word[from_n] = '\0';
  for (char *p = text; (p = strstr (p, word)) != NULL;)
    {
      bool starts = p == text || strchr (" ¡¿(«\"'", p[-1]) != NULL || (unsigned char) p[-1] == 0xA0;
      /* "«" and "¡" are two bytes: their last byte is enough to tell */
      starts = starts || (unsigned char) p[-1] == 0xAB || (unsigned char) p[-1] == 0xA1;
      if (!starts || p[from_n] != ' ' || !elides_before (p + from_n + 1))
        {
          p += from_n;
          continue;
        }
      memcpy (p, to, to_n);
      memmove (p + to_n, p + from_n + 1, strlen (p + from_n + 1) + 1);
      p += to_n;
    }
}

void
eng_i18n_elide (char *text)
{
  if (text == NULL || text[0] == '\0')
    return;
  /* Translators: the words your language elides before a vowel, as
   * FROM=TO pairs separated by spaces (Catalan: "de=d' De=D'"); leave it
   * untranslated when none are. */
  const char *rules = ENG_C_ ("grammar", "none: no word is elided before a vowel");
  for (const char *r = rules; *r != '\0';)
    {
      size_t n = strcspn (r, " ");
      const char *eq = memchr (r, '=', n);
      if (eq != NULL && eq > r && eq + 1 < r + n)
        elide_word (text, r, (size_t) (eq - r), eq + 1, (size_t) (r + n - eq - 1));
      r += n;
      r += strspn (r, " ");
    }
}

void
eng_i18n_capitalize (char *text)
{
  if (text == NULL)
    return;
  unsigned char *p = (unsigned char *) text;
  /* past opening marks: ¡ ¿ « (two bytes each in UTF-8), quotes, brackets */
  for (;;)
    {
      if (p[0] == 0xC2 && (p[1] == 0xA1 || p[1] == 0xBF || p[1] == 0xAB))
        p += 2;
      else if (*p == '"' || *p == '\'' || *p == '(')
        p++;
      else
        break;
    }
  if (*p >= 'a' && *p <= 'z')
    *p = (unsigned char) (*p - 'a' + 'A');
  else if (p[0] == 0xC3 && p[1] >= 0xA0 && p[1] <= 0xBE && p[1] != 0xB7)
    p[1] = (unsigned char) (p[1] - 0x20);   /* à -> À, é -> É, ñ -> Ñ, ç -> Ç */
}
