/* vis-truth-text.c: the truth of frames rendered outside the synthetic
 * renderer (vis-render.h, vis_truth_read_text). */
#include "vis-render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static EngStatus
refuse (EngParseError *err, unsigned line, const char *why)
{
  eng_parse_error_set (err, "truth", line, "%s", why);
  return ENG_ERR_SYNTAX;
}

/* One sticker line after its keyword: TAG FINISH IN_VIEW VISIBLE MODULE
 * and eight corner coordinates. */
static bool
read_sticker (const char *rest, VisTruthTag *t)
{
  char tag[64], finish[32];
  int in_view, used = 0;
  float visible, module, c[8];
  if (sscanf (rest, " %63s %31s %d %f %f %f %f %f %f %f %f %f %f%n", tag, finish, &in_view, &visible,
              &module, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &used)
      != 13)
    return false;
  if (rest[used] != '\0' || (in_view != 0 && in_view != 1) || !(visible >= 0 && visible <= 1)
      || !(module > 0 && module < 1000) || (strcmp (finish, "glossy") != 0 && strcmp (finish, "matte") != 0))
    return false;
  for (int k = 0; k < 8; k++)
    if (!isfinite (c[k]))
      return false;
  bool ours = strcmp (tag, "-") != 0;
  if (ours && strlen (tag) != 11)
    return false;
  memset (t, 0, sizeof *t);
  snprintf (t->id, sizeof t->id, "%s", finish);
  snprintf (t->payload, sizeof t->payload, "%s", tag);
  t->kind = ours ? VIS_TRUTH_CARD : VIS_TRUTH_FOREIGN;
  t->face_up = true;
  for (int k = 0; k < 4; k++)
    {
      t->corners[k][0] = c[2 * k];
      t->corners[k][1] = c[2 * k + 1];
    }
  t->module_px = module;
  t->in_view = in_view == 1;
  t->visible_fraction = visible;
  t->occluded = visible < 0.999f || !t->in_view;
  return true;
}

EngStatus
vis_truth_read_text (const char *text, size_t len, VisTruth *out, int *width, int *height, EngParseError *err)
{
  if (text == NULL || out == NULL || width == NULL || height == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  memset (out, 0, sizeof *out);
  *width = *height = 0;
  unsigned line_no = 0;
  bool framed = false;
  for (size_t pos = 0; pos < len;)
    {
      const char *eol = memchr (text + pos, '\n', len - pos);
      size_t n = eol ? (size_t) (eol - (text + pos)) : len - pos;
      char line[512];
      line_no++;
      if (n >= sizeof line)
        return refuse (err, line_no, "line too long");
      memcpy (line, text + pos, n);
      line[n] = '\0';
      pos += n + 1;
      if (memchr (line, '\0', n) != NULL)
        return refuse (err, line_no, "a NUL byte");
      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (strncmp (line, "frame ", 6) == 0)
        {
          char name[128];
          int used = 0;
          if (framed || sscanf (line + 6, "%127s %d %d%n", name, width, height, &used) != 3
              || line[6 + used] != '\0' || *width < 1 || *height < 1 || *width > 16384 || *height > 16384)
            return refuse (err, line_no, "not 'frame NAME WIDTH HEIGHT' (once, first)");
          framed = true;
        }
      else if (strncmp (line, "sticker ", 8) == 0)
        {
          if (!framed)
            return refuse (err, line_no, "a sticker before the frame line");
          if (out->n_tags == VIS_TRUTH_MAX_TAGS)
            {
              eng_parse_error_set (err, "truth", line_no, "more than %d stickers", VIS_TRUTH_MAX_TAGS);
              return ENG_ERR_LIMIT;
            }
          if (!read_sticker (line + 7, &out->tags[out->n_tags]))
            return refuse (err, line_no,
                           "not 'sticker TAG glossy|matte IN_VIEW VISIBLE MODULE_PX' and four corners");
          out->n_tags++;
        }
      else
        return refuse (err, line_no, "neither a frame nor a sticker line");
    }
  if (!framed)
    return refuse (err, line_no, "no frame line");
  return ENG_OK;
}
