/* vis-detect-group.cpp: from finder patterns to candidate codes.  See
 * vis-detect-private.h. */
#include "vis-detect-private.h"

#include <algorithm>

namespace vis_detect {

/* The module->image map of a code from its three finder centres (the
 * centroids of the 3x3 inner squares, symmetric and so unbiased by
 * blur or threshold).  Affine: fitting a projective map to the finders'
 * ring corners extrapolated the finderless corner pixels off, while the
 * perspective change across one small code stays well under a pixel. */
bool
fit_homography (const Finder &tl, const Finder &tr, const Finder &bl, cv::Matx33d &h)
{
  cv::Point2f u = (tr.centre - tl.centre) * (1.0f / FINDER_SPAN);
  cv::Point2f v = (bl.centre - tl.centre) * (1.0f / FINDER_SPAN);
  cv::Point2f o = tl.centre - u * 3.5f - v * 3.5f;
  h = cv::Matx33d (u.x, v.x, o.x, u.y, v.y, o.y, 0, 0, 1);
  return std::fabs (u.x * v.y - u.y * v.x) > 1.0f;
}

/* Groups finders into (TL, TR, BL) triples: TL sees the other two at about
 * 14 modules, at a right angle, and TR-BL is about 14*sqrt(2) modules.  Best
 * triples win; a finder joins at most one code. */
void
group_candidates (VisDetector *det)
{
  std::vector<Finder> &fs = det->finders;
  const int n = (int) fs.size ();
  det->triples.clear ();
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < n; j++)
        {
          if (j == i)
            continue;
          float mij = 0.5f * (fs[i].module + fs[j].module);
          float dij = dist (fs[i].centre, fs[j].centre);
          if (dij < 0.65f * FINDER_SPAN * mij || dij > 1.45f * FINDER_SPAN * mij)
            continue;
          if (std::max (fs[i].module, fs[j].module) > 1.6f * std::min (fs[i].module, fs[j].module))
            continue;
          cv::Point2f a = fs[j].centre - fs[i].centre;
          for (int k = 0; k < n; k++)
            {
              if (k == i || k == j)
                continue;
              float dik = dist (fs[i].centre, fs[k].centre);
              if (std::fabs (dik - dij) > 0.25f * std::max (dik, dij))
                continue;
              cv::Point2f b = fs[k].centre - fs[i].centre;
              float cross = a.x * b.y - a.y * b.x;
              if (cross <= 0) /* (j, k) must be (TR, BL): u x v > 0 with y down */
                continue;
              float cosang = (a.x * b.x + a.y * b.y) / (dij * dik);
              if (std::fabs (cosang) > 0.35f)
                continue;
              if (std::max (fs[i].module, fs[k].module) > 1.6f * std::min (fs[i].module, fs[k].module))
                continue;
              float djk = dist (fs[j].centre, fs[k].centre);
              float diag = djk / (0.5f * (dij + dik) * (float) M_SQRT2);
              if (diag < 0.8f || diag > 1.2f)
                continue;
              float mod_all = (fs[i].module + fs[j].module + fs[k].module) / 3.0f;
              float span = 0.5f * (dij + dik) / (FINDER_SPAN * mod_all);
              float score = std::fabs (cosang) + std::fabs (dij - dik) / std::max (dij, dik)
                            + std::fabs (diag - 1.0f) + 0.5f * std::fabs (span - 1.0f);
              det->triples.push_back (Triple{ score, i, j, k });
            }
        }
    }
  std::sort (det->triples.begin (), det->triples.end (),
             [] (const Triple &x, const Triple &y) { return x.score < y.score; });
  det->candidates.clear ();
  for (const Triple &t : det->triples)
    {
      if (fs[t.tl].used || fs[t.tr].used || fs[t.bl].used)
        continue;
      Candidate c;
      c.f[0] = t.tl;
      c.f[1] = t.tr;
      c.f[2] = t.bl;
      c.reuse = -1;
      c.undecoded = false;
      c.inferred = false;
      if (!fit_homography (fs[t.tl], fs[t.tr], fs[t.bl], c.h))
        continue;
      fs[t.tl].used = fs[t.tr].used = fs[t.bl].used = true;
      det->candidates.push_back (c);
    }
}

namespace {

constexpr size_t MAX_INFERRED = 256;  /* two-finder guesses tried per frame (4 per code at most) */

/* Appends a finder placed at `at`, not seen (module size from `like`);
 * returns its index, or -1 when it lies outside the frame or there is no
 * room. */
int
place_finder (VisDetector *det, int like, cv::Point2f at)
{
  std::vector<Finder> &fs = det->finders;
  if (fs.size () >= fs.capacity () || at.x < 0 || at.y < 0 || at.x >= det->gray.cols
      || at.y >= det->gray.rows)
    return -1;
  Finder f = fs[like];
  f.centre = at;
  f.inferred = true;
  f.used = true;
  fs.push_back (f);
  return (int) fs.size () - 1;
}

/* Adds the candidate with `tl` as the top-left finder and `a`, `b` as the
 * other two, which of them is top-right decided by handedness. */
void
add_guess (VisDetector *det, int tl, int a, int b)
{
  const std::vector<Finder> &fs = det->finders;
  if (tl < 0 || a < 0 || b < 0 || det->candidates.size () >= det->candidates.capacity ())
    return;
  cv::Point2f u = fs[a].centre - fs[tl].centre, v = fs[b].centre - fs[tl].centre;
  bool a_right = u.x * v.y - u.y * v.x > 0;
  Candidate c;
  c.f[0] = tl;
  c.f[1] = a_right ? a : b;
  c.f[2] = a_right ? b : a;
  c.reuse = -1;
  c.undecoded = false;
  c.inferred = true;
  if (fit_homography (fs[c.f[0]], fs[c.f[1]], fs[c.f[2]], c.h))
    det->candidates.push_back (c);
}

/* The image vector that is `u` turned by a right angle on the table (same
 * length there), from the two finders' spread: with M the inverse of their
 * mean second moments, the answer is M-orthogonal to u with u's M-length.
 * Under a tilted camera this differs from u turned in the image by a few
 * percent, which 14 modules away is a module. */
cv::Point2f
table_perp (const Finder &a, const Finder &b, cv::Point2f u)
{
  const double cxx = a.cxx + b.cxx, cxy = a.cxy + b.cxy, cyy = a.cyy + b.cyy;
  const double det = cxx * cyy - cxy * cxy;
  cv::Point2f plain (-u.y, u.x);
  if (!(det > 1e-6 * cxx * cyy) || cxx <= 0 || cyy <= 0)
    return plain;
  /* M = C^-1 up to scale, which cancels below. */
  const double mxx = cyy, mxy = -cxy, myy = cxx;
  const double wx = mxx * u.x + mxy * u.y, wy = mxy * u.x + myy * u.y;
  const double rx = -wy, ry = wx;
  const double uu = u.x * wx + u.y * wy;
  const double rr = rx * (mxx * rx + mxy * ry) + ry * (mxy * rx + myy * ry);
  if (!(uu > 0) || !(rr > 0))
    return plain;
  const double k = std::sqrt (uu / rr);
  return cv::Point2f ((float) (k * rx), (float) (k * ry));
}

} // namespace

/* Codes with one finder lost (a highlight on a glossy sticker, a thumb, a
 * blur that closed its light ring) leave two finders no triple took.  Two
 * finders at the span of a side or of the diagonal fix the code's grid up to
 * where the third lies: beside either end of a side (on either side of it),
 * or on either side of a diagonal.  Each guess is tried as a candidate; the
 * function patterns are drawn, not read, so only the data decides, and
 * Reed-Solomon, the payload's check character and eng_tag_parse reject a
 * wrong guess as they reject any misread. */
void
pair_candidates (VisDetector *det)
{
  std::vector<Finder> &fs = det->finders;
  const int n = (int) fs.size ();
  const size_t first = det->candidates.size ();
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      {
        if (fs[i].used || fs[j].used || det->candidates.size () - first >= MAX_INFERRED)
          continue;
        if (std::max (fs[i].module, fs[j].module) > 1.4f * std::min (fs[i].module, fs[j].module))
          continue;
        const float span = FINDER_SPAN * 0.5f * (fs[i].module + fs[j].module);
        const float d = dist (fs[i].centre, fs[j].centre);
        cv::Point2f a = fs[j].centre - fs[i].centre;
        cv::Point2f perp = table_perp (fs[i], fs[j], a);
        if (std::fabs (d - span) < 0.2f * span)
          for (float side : { 1.0f, -1.0f })
            {
              add_guess (det, i, j, place_finder (det, i, fs[i].centre + side * perp));
              add_guess (det, j, i, place_finder (det, j, fs[j].centre + side * perp));
            }
        else if (std::fabs (d - span * (float) M_SQRT2) < 0.15f * span * (float) M_SQRT2)
          /* i and j are TR and BL; the top-left lies off the diagonal's
           * middle by half of it, on one side or the other. */
          for (float side : { 0.5f, -0.5f })
            add_guess (det, place_finder (det, i, 0.5f * (fs[i].centre + fs[j].centre) + side * perp), i, j);
      }
}

/* A triple that did not decode may hold a stray finder (a highlight's
 * edge, a blob of card art) beside two true ones whose third is lost: its
 * finders, and only they, are offered to pair_candidates again.  Returns
 * whether there is any. */
bool
release_unread (VisDetector *det)
{
  for (Finder &f : det->finders)
    f.used = true;
  bool any = false;
  for (const Candidate &c : det->candidates)
    if (c.undecoded && !c.inferred)
      for (int k = 0; k < 3; k++)
        {
          det->finders[c.f[k]].used = false;
          any = true;
        }
  return any;
}

} // namespace vis_detect
