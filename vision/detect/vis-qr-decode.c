/* vis-qr-decode.c: version-1 level-Q decoding with erasures
 * (vis-qr-decode.h).  The layout follows ISO/IEC 18004: module (row, col),
 * row 0 at the top; codewords read in the two-column zigzag from the
 * bottom-right corner; format information BCH(15,5) masked with 0x5412. */
#include "vis-qr-decode.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define N VIS_QRD_SIZE
#define NSYM (VIS_QRD_CODEWORDS - VIS_QRD_DATA)
/* Level Q of version 1 keeps one codeword for misdecode protection. */
#define BUDGET (NSYM - 1)
#define LEVEL_Q 3u   /* the format's two level bits: L 01, M 00, Q 11, H 10 */

static uint8_t gf_exp[512];
static uint8_t gf_log[256];
/* Module (row, col) of each of the 208 data bits, in reading order. */
static uint8_t bit_row[VIS_QRD_CODEWORDS * 8], bit_col[VIS_QRD_CODEWORDS * 8];
static uint16_t format_word[8];   /* masked format word of level Q, mask m */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static inline uint8_t
gf_mul (uint8_t a, uint8_t b)
{
  return a == 0 || b == 0 ? 0 : gf_exp[gf_log[a] + gf_log[b]];
}

static inline uint8_t
gf_inv (uint8_t a)
{
  return gf_exp[255 - gf_log[a]];
}

/* alpha^e for any integer e */
static inline uint8_t
gf_pow (int e)
{
  e %= 255;
  return gf_exp[e < 0 ? e + 255 : e];
}

/* Whether (row, col) belongs to a function pattern of version 1, or to the
 * format information: finders with separators and format bits (the three
 * 9x9 / 9x8 / 8x9 corners), the timing lines and the dark module. */
static bool
is_function (int row, int col)
{
  if ((row <= 8 && col <= 8) || (row <= 8 && col >= N - 8) || (row >= N - 8 && col <= 8))
    return true;
  return row == 6 || col == 6;
}

static void
build_tables (void)
{
  unsigned x = 1;
  for (int i = 0; i < 255; i++)
    {
      gf_exp[i] = (uint8_t) x;
      gf_log[x] = (uint8_t) i;
      x <<= 1;
      if (x & 0x100)
        x ^= 0x11d;
    }
  for (int i = 255; i < 512; i++)
    gf_exp[i] = gf_exp[i - 255];

  /* The zigzag: column pairs from the right, upwards first, the timing
   * column skipped; in each row the right module before the left. */
  int k = 0;
  bool up = true;
  for (int right = N - 1; right > 0; right -= 2)
    {
      if (right == 6)
        right = 5;
      for (int i = 0; i < N; i++)
        {
          int row = up ? N - 1 - i : i;
          for (int c = 0; c < 2; c++)
            {
              int col = right - c;
              if (!is_function (row, col) && k < VIS_QRD_CODEWORDS * 8)
                {
                  bit_row[k] = (uint8_t) row;
                  bit_col[k] = (uint8_t) col;
                  k++;
                }
            }
        }
      up = !up;
    }

  for (unsigned m = 0; m < 8; m++)
    {
      unsigned d = LEVEL_Q << 3 | m, v = d << 10;
      for (int i = 14; i >= 10; i--)
        if (v & (1u << i))
          v ^= 0x537u << (i - 10);
      format_word[m] = (uint16_t) (((d << 10) | v) ^ 0x5412u);
    }
}

static void
tables (void)
{
  pthread_once (&tables_once, build_tables);
}

const char *
vis_qr_decode_status_to_string (VisQrDecodeStatus status)
{
  switch (status)
    {
    case VIS_QRD_OK: return "decoded";
    case VIS_QRD_NO_FORMAT: return "no level-Q format information";
    case VIS_QRD_UNCORRECTABLE: return "beyond error correction";
    case VIS_QRD_BAD_DATA: return "malformed data segments";
    case VIS_QRD_REFUSED: return "decoded, but not taken";
    }
  return "unknown status";
}

/* ------------------------------------------------------------ Reed-Solomon */

void
vis_rs_encode (const uint8_t *data, int k, int nsym, uint8_t *out)
{
  tables ();
  uint8_t gen[256] = { 1 };   /* gen[i]: coefficient of x^(nsym - i), gen[0] = 1 */
  for (int j = 0; j < nsym; j++)
    {
      /* gen *= (x + alpha^j) */
      uint8_t root = gf_pow (j);
      for (int i = j + 1; i > 0; i--)
        gen[i] ^= gf_mul (gen[i - 1], root);
    }
  memset (out, 0, (size_t) nsym);
  for (int i = 0; i < k; i++)
    {
      uint8_t f = data[i] ^ out[0];
      memmove (out, out + 1, (size_t) nsym - 1);
      out[nsym - 1] = 0;
      for (int j = 0; j < nsym; j++)
        out[j] ^= gf_mul (gen[j + 1], f);
    }
}

/* Syndromes S_j = c(alpha^j); returns whether any is non-zero. */
static bool
syndromes (const uint8_t *cw, int n, int nsym, uint8_t *s)
{
  bool any = false;
  for (int j = 0; j < nsym; j++)
    {
      uint8_t a = gf_pow (j), v = 0;
      for (int i = 0; i < n; i++)
        v = gf_mul (v, a) ^ cw[i];
      s[j] = v;
      any |= v != 0;
    }
  return any;
}

static uint8_t
poly_eval (const uint8_t *p, int deg, uint8_t x)
{
  uint8_t v = 0;
  for (int i = deg; i >= 0; i--)
    v = gf_mul (v, x) ^ p[i];
  return v;
}

int
vis_rs_decode (uint8_t *cw, int n, int nsym, const int *erasures, int n_erasures, int budget)
{
  tables ();
  if (n > 255 || nsym >= n || nsym > 64 || n_erasures > budget || budget > nsym || n_erasures < 0)
    return -1;
  uint8_t s[64];
  if (!syndromes (cw, n, nsym, s))
    return 0;
  /* Polynomials low order first.  Erasure locator Gamma = prod (1 + X_k x),
   * X_k = alpha^(n - 1 - position). */
  uint8_t lambda[66] = { 1 }, b[66] = { 1 }, t[66];
  int deg = 0;
  for (int k = 0; k < n_erasures; k++)
    {
      if (erasures[k] < 0 || erasures[k] >= n)
        return -1;
      uint8_t xk = gf_pow (n - 1 - erasures[k]);
      deg++;
      for (int i = deg; i > 0; i--)
        lambda[i] ^= gf_mul (lambda[i - 1], xk);
    }
  memcpy (b, lambda, sizeof b);
  /* Berlekamp-Massey started from the erasure locator (Blahut). */
  int L = n_erasures;
  for (int r = n_erasures; r < nsym; r++)
    {
      uint8_t delta = 0;
      for (int j = 0; j <= L && j <= r; j++)
        delta ^= gf_mul (lambda[j], s[r - j]);
      memmove (b + 1, b, 65);
      b[0] = 0;
      if (delta == 0)
        continue;
      for (int i = 0; i < 66; i++)
        t[i] = lambda[i] ^ gf_mul (delta, b[i]);
      if (2 * L <= r + n_erasures)
        {
          uint8_t inv = gf_inv (delta);
          for (int i = 0; i < 66; i++)
            b[i] = gf_mul (lambda[i], inv);
          L = r + 1 + n_erasures - L;
        }
      memcpy (lambda, t, sizeof t);
    }
  int errors = L - n_erasures;
  if (L > nsym || errors < 0 || 2 * errors + n_erasures > budget)
    return -1;
  for (int i = L + 1; i < 66; i++)
    if (lambda[i] != 0)
      return -1;
  if (lambda[L] == 0)
    return -1;
  /* Chien search over the n positions: every root must be one of them. */
  int where[66];
  int found = 0;
  for (int i = 0; i < n && found <= L; i++)
    if (poly_eval (lambda, L, gf_pow (-(n - 1 - i))) == 0)
      where[found++] = i;
  if (found != L)
    return -1;
  /* Forney: Omega = S Lambda mod x^nsym; e = X Omega(X^-1) / Lambda'(X^-1). */
  uint8_t omega[64] = { 0 };
  for (int i = 0; i < nsym; i++)
    for (int j = 0; j <= L && j <= i; j++)
      omega[i] ^= gf_mul (s[i - j], lambda[j]);
  uint8_t fix[64];
  for (int k = 0; k < found; k++)
    {
      uint8_t xinv = gf_pow (-(n - 1 - where[k]));
      uint8_t num = poly_eval (omega, nsym - 1, xinv), den = 0;
      for (int i = 1; i <= L; i += 2)   /* the formal derivative: odd terms */
        den ^= gf_mul (lambda[i], gf_pow (gf_log[xinv] * (i - 1)));
      if (den == 0)
        return -1;
      fix[k] = gf_mul (gf_mul (gf_pow (n - 1 - where[k]), num), gf_inv (den));
    }
  for (int k = 0; k < found; k++)
    cw[where[k]] ^= fix[k];
  if (syndromes (cw, n, nsym, s))
    {
      for (int k = 0; k < found; k++)
        cw[where[k]] ^= fix[k];
      return -1;
    }
  int changed = 0;
  for (int k = 0; k < found; k++)
    changed += fix[k] != 0;
  return changed;
}

/* ------------------------------------------------------------ classification */

/* The darkest and lightest usable samples within `r` modules of (row, col)
 * (each the second of its end, so that one noisy sample does not decide);
 * false when there are fewer than three. */
static bool
local_range (const float *samples, float saturated, int row, int col, int r, float *lo, float *hi)
{
  float h1 = -INFINITY, h2 = -INFINITY, l1 = INFINITY, l2 = INFINITY;
  int n = 0;
  for (int y = row - r; y <= row + r; y++)
    for (int x = col - r; x <= col + r; x++)
      {
        if (y < 0 || x < 0 || y >= N || x >= N)
          continue;
        float v = samples[y * N + x];
        if (isnan (v) || v >= saturated)
          continue;
        n++;
        if (v > h1)
          h2 = h1, h1 = v;
        else if (v > h2)
          h2 = v;
        if (v < l1)
          l2 = l1, l1 = v;
        else if (v < l2)
          l2 = v;
      }
  *lo = l2;
  *hi = h2;
  return n >= 3;
}

static bool
saturated_near (const float *samples, float saturated, int row, int col)
{
  for (int y = row - 1; y <= row + 1; y++)
    for (int x = col - 1; x <= col + 1; x++)
      if (y >= 0 && x >= 0 && y < N && x < N && samples[y * N + x] >= saturated)
        return true;
  return false;
}

/* The code's dark and light levels: two means over the usable samples.
 * False when there is no contrast at all. */
static bool
global_levels (const float *samples, float saturated, float *dark, float *light)
{
  float lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < VIS_QRD_MODULES; i++)
    if (!isnan (samples[i]) && samples[i] < saturated)
      {
        lo = fminf (lo, samples[i]);
        hi = fmaxf (hi, samples[i]);
      }
  if (!(hi > lo))
    return false;
  float cut = 0.5f * (lo + hi);
  for (int pass = 0; pass < 4; pass++)
    {
      double s0 = 0, s1 = 0;
      int n0 = 0, n1 = 0;
      for (int i = 0; i < VIS_QRD_MODULES; i++)
        {
          float v = samples[i];
          if (isnan (v) || v >= saturated)
            continue;
          if (v < cut)
            s0 += v, n0++;
          else
            s1 += v, n1++;
        }
      if (n0 == 0 || n1 == 0)
        return false;
      *dark = (float) (s0 / n0);
      *light = (float) (s1 / n1);
      cut = 0.5f * (*dark + *light);
    }
  return *light > *dark;
}

void
vis_qr_classify (const float *samples, const uint8_t *flagged, float saturated, VisQrReading *out)
{
  /* Saturation means a highlight only where the code's light modules are
   * not saturated themselves: in an over-exposed picture (more than a third
   * of the modules at the top) every light module would be lost. */
  int n_saturated = 0;
  for (int i = 0; i < VIS_QRD_MODULES; i++)
    n_saturated += !isnan (samples[i]) && samples[i] >= saturated;
  if (n_saturated * 3 > VIS_QRD_MODULES)
    saturated = INFINITY;
  float dg = 0.0f, lg = 0.0f;
  const bool levels = global_levels (samples, saturated, &dg, &lg);
  const float contrast = lg - dg;
  for (int row = 0; row < N; row++)
    for (int col = 0; col < N; col++)
      {
        const int i = row * N + col;
        const float v = samples[i];
        out->dark[i] = 0;
        out->confidence[i] = 0.0f;
        out->erased[i] = 1;
        if (!levels || isnan (v) || v >= saturated || (flagged != NULL && flagged[i]))
          continue;
        /* The midpoint of the darkest and lightest modules around it (the
         * light varies across a code: a highlight's halo, a shadow's
         * edge), from the nearest ring that holds both. */
        float lo = 0.0f, hi = 0.0f, cut = 0.0f;
        bool found = false;
        for (int r = 1; r <= 3 && !found; r++)
          if (local_range (samples, saturated, row, col, r, &lo, &hi) && hi - lo >= 0.4f * contrast)
            found = true;
        if (!found)
          continue;   /* veiled or blotted out: nothing to tell by */
        cut = 0.5f * (lo + hi);
        out->erased[i] = 0;
        out->dark[i] = v < cut;
        float conf = 2.0f * fabsf (v - cut) / contrast;
        /* right beside a saturated module the halo is steepest */
        if (saturated_near (samples, saturated, row, col))
          conf *= 0.3f;
        out->confidence[i] = conf > 1.0f ? 1.0f : conf;
      }
}

/* ------------------------------------------------------------ deconvolution */

/* The value every function module must have (1 light, 0 dark), -1 for data
 * and format modules. */
static int
known_module (int row, int col)
{
  int fr = -1, fc = -1;
  if (row < 8 && col < 8)
    fr = row, fc = col;
  else if (row < 8 && col >= N - 8)
    fr = row, fc = N - 1 - col;
  else if (row >= N - 8 && col < 8)
    fr = N - 1 - row, fc = col;
  if (fr >= 0)
    {
      if (fr == 7 || fc == 7)
        return 1;   /* separator */
      int ring = abs (fr - 3) > abs (fc - 3) ? abs (fr - 3) : abs (fc - 3);
      return ring == 2 ? 1 : 0;
    }
  if (row == 8 && col == 8)
    return -1;
  if (row == N - 8 && col == 8)
    return 0;       /* the dark module */
  if (row == 6 && col >= 8 && col < N - 8)
    return col % 2 == 0 ? 0 : 1;
  if (col == 6 && row >= 8 && row < N - 8)
    return row % 2 == 0 ? 0 : 1;
  return -1;
}

#define SPREAD 2   /* neighbours each way a module's blur reaches */

/* Weights of the modules -SPREAD..SPREAD away along one axis: a module's
 * box seen through a Gaussian of sigma s, at a module centre. */
static void
axis_weights (float s, float w[2 * SPREAD + 1])
{
  for (int d = -SPREAD; d <= SPREAD; d++)
    w[d + SPREAD] = 0.5f * (erff ((d + 0.5f) / (s * (float) M_SQRT2)) - erff ((d - 0.5f) / (s * (float) M_SQRT2)));
}

/* Module value at (row, col), the quiet zone light beyond the symbol. */
static inline float
value_at (const float *x, int row, int col)
{
  return row < 0 || col < 0 || row >= N || col >= N ? 1.0f : x[row * N + col];
}

/* The blurred image of the modules `x` at module (row, col). */
static float
blurred_at (const float *x, const float *w, int row, int col)
{
  float v = 0.0f;
  for (int dy = -SPREAD; dy <= SPREAD; dy++)
    for (int dx = -SPREAD; dx <= SPREAD; dx++)
      v += w[dy + SPREAD] * w[dx + SPREAD] * value_at (x, row + dy, col + dx);
  return v;
}

/* The function modules at their known values, the others at 0.5;
 * known[i] tells which is which. */
static void
start_modules (float *x, bool *known)
{
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      {
        int k = known_module (r, c);
        known[r * N + c] = k >= 0;
        x[r * N + c] = k >= 0 ? (float) k : 0.5f;
      }
}

/* The blur and the two levels, fitted on the modules of the finders'
 * inner 6x6 (their 5x5 neighbourhoods are all known, in `x`): least
 * squares of sample = dark + (light - dark) * blurred, over a few sigmas.
 * Returns the best sigma, -1 when none fits. */
static float
fit_blur (const float *samples, float saturated, const float *x, float *dark, float *light)
{
  float best_s = -1.0f, best_err = INFINITY;
  static const float sigmas[] = { 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.85f };
  for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
    {
      float w[2 * SPREAD + 1];
      axis_weights (sigmas[k], w);
      double sp = 0, sy = 0, spp = 0, spy = 0, syy = 0;
      int n = 0;
      for (int f = 0; f < 3; f++)
        for (int i = 0; i < 6; i++)
          for (int j = 0; j < 6; j++)
            {
              int r = f == 2 ? N - 1 - i : i, c = f == 1 ? N - 1 - j : j;
              float y = samples[r * N + c];
              if (isnan (y) || y >= saturated)
                continue;
              float p = blurred_at (x, w, r, c);
              sp += p, sy += y, spp += (double) p * p, spy += (double) p * y, syy += (double) y * y;
              n++;
            }
      double var = n * spp - sp * sp;
      if (n < 40 || var <= 1e-9)
        continue;
      double slope = (n * spy - sp * sy) / var, icpt = (sy - slope * sp) / n;
      double err = syy - 2 * icpt * sy - 2 * slope * spy + n * icpt * icpt + 2 * icpt * slope * sp
                   + slope * slope * spp;
      if (slope > 20 && err < best_err)
        {
          best_err = (float) err;
          best_s = sigmas[k];
          *dark = (float) icpt;
          *light = (float) (icpt + slope);
        }
    }
  return best_s;
}

/* The modules and samples a deconvolution works on: samples as levels
 * 0..1 (`y`, where `use`), residuals kept up to date as modules change. */
typedef struct {
  float x[VIS_QRD_MODULES];
  bool known[VIS_QRD_MODULES];
  float y[VIS_QRD_MODULES];
  bool use[VIS_QRD_MODULES];
  float res[VIS_QRD_MODULES];
  float w[2 * SPREAD + 1];
  float norm;
} Deconv;

/* One Gauss-Seidel step on the unknown module (r, c), its value kept in
 * 0..1. */
static void
relax_module (Deconv *d, int r, int c)
{
  const float *w = d->w;
  const int j = r * N + c;
  float g = 0.0f, h = 0.0f;
  for (int dy = -SPREAD; dy <= SPREAD; dy++)
    for (int dx = -SPREAD; dx <= SPREAD; dx++)
      {
        int rr = r + dy, cc = c + dx;
        if (rr < 0 || cc < 0 || rr >= N || cc >= N || !d->use[rr * N + cc])
          continue;
        float wij = w[dy + SPREAD] * w[dx + SPREAD];
        g += wij * d->res[rr * N + cc];
        h += wij * wij;
      }
  if (h < 0.05f * d->norm)
    return;   /* (almost) nothing of it was seen */
  float v = d->x[j] + g / h;
  v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  float delta = v - d->x[j];
  d->x[j] = v;
  for (int dy = -SPREAD; dy <= SPREAD; dy++)
    for (int dx = -SPREAD; dx <= SPREAD; dx++)
      {
        int rr = r + dy, cc = c + dx;
        if (rr >= 0 && cc >= 0 && rr < N && cc < N && d->use[rr * N + cc])
          d->res[rr * N + cc] -= w[dy + SPREAD] * w[dx + SPREAD] * delta;
      }
}

/* Projected Gauss-Seidel on the unknown modules of d->x. */
static void
solve_modules (Deconv *d, const float *samples, float saturated, float dark, float light)
{
  const float *w = d->w;
  for (int i = 0; i < VIS_QRD_MODULES; i++)
    {
      d->use[i] = !isnan (samples[i]) && samples[i] < saturated;
      d->y[i] = d->use[i] ? (samples[i] - dark) / (light - dark) : 0.0f;
    }
  d->norm = 0.0f;
  for (int dy = -SPREAD; dy <= SPREAD; dy++)
    for (int dx = -SPREAD; dx <= SPREAD; dx++)
      d->norm += w[dy + SPREAD] * w[dy + SPREAD] * w[dx + SPREAD] * w[dx + SPREAD];
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      d->res[r * N + c] = d->use[r * N + c] ? d->y[r * N + c] - blurred_at (d->x, w, r, c) : 0.0f;
  for (int sweep = 0; sweep < 12; sweep++)
    for (int r = 0; r < N; r++)
      for (int c = 0; c < N; c++)
        if (!d->known[r * N + c])
          relax_module (d, r, c);
}

float
vis_qr_deconvolve (const float *samples, float saturated, float *out)
{
  memcpy (out, samples, sizeof (float) * VIS_QRD_MODULES);
  Deconv d;
  start_modules (d.x, d.known);
  float dark = 0.0f, light = 255.0f;
  float best_s = fit_blur (samples, saturated, d.x, &dark, &light);
  if (best_s < 0)
    return -1.0f;
  axis_weights (best_s, d.w);
  solve_modules (&d, samples, saturated, dark, light);
  for (int i = 0; i < VIS_QRD_MODULES; i++)
    if (d.use[i])
      out[i] = 20.0f + 210.0f * d.x[i];
  return best_s;
}

/* ------------------------------------------------------------ the symbol */

static bool
mask_bit (int m, int i, int j)
{
  switch (m)
    {
    case 0: return (i + j) % 2 == 0;
    case 1: return i % 2 == 0;
    case 2: return j % 3 == 0;
    case 3: return (i + j) % 3 == 0;
    case 4: return (i / 2 + j / 3) % 2 == 0;
    case 5: return (i * j) % 2 + (i * j) % 3 == 0;
    case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0;
    default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0;
    }
}

/* The 15 format bits of each copy, bit 14 first: (row, col). */
static const uint8_t format_pos[2][15][2] = {
  { { 8, 0 }, { 8, 1 }, { 8, 2 }, { 8, 3 }, { 8, 4 }, { 8, 5 }, { 8, 7 }, { 8, 8 },
    { 7, 8 }, { 5, 8 }, { 4, 8 }, { 3, 8 }, { 2, 8 }, { 1, 8 }, { 0, 8 } },
  { { 20, 8 }, { 19, 8 }, { 18, 8 }, { 17, 8 }, { 16, 8 }, { 15, 8 }, { 14, 8 }, { 8, 13 },
    { 8, 14 }, { 8, 15 }, { 8, 16 }, { 8, 17 }, { 8, 18 }, { 8, 19 }, { 8, 20 } },
};

/* The level-Q masks in the order to try them: by how far the format bits
 * read lie from each one's word (mismatches weighed by confidence, so a
 * doubtful bit costs less).  Returns how many are worth trying. */
static int
rank_masks (const VisQrReading *rd, int order[8])
{
  float cost[8];
  float trusted = 0.0f;
  for (int m = 0; m < 8; m++)
    {
      cost[m] = 0.0f;
      order[m] = m;
    }
  for (int copy = 0; copy < 2; copy++)
    for (int b = 0; b < 15; b++)
      {
        int i = format_pos[copy][b][0] * N + format_pos[copy][b][1];
        if (rd->erased[i])
          continue;
        float w = 0.25f + rd->confidence[i];
        trusted += w;
        for (int m = 0; m < 8; m++)
          if ((unsigned) rd->dark[i] != ((format_word[m] >> (14 - b)) & 1u))
            cost[m] += w;
      }
  for (int a = 1; a < 8; a++)
    for (int b = a; b > 0 && cost[order[b]] < cost[order[b - 1]]; b--)
      {
        int t = order[b];
        order[b] = order[b - 1];
        order[b - 1] = t;
      }
  /* Any two level-Q words differ in at least 7 of 15 bits per copy: with
   * most bits trusted only the near ones are worth a decode; with the
   * format mostly erased (a highlight over both copies) every mask is. */
  if (trusted < 8.0f)
    return 8;
  int n = 0;
  while (n < 8 && cost[order[n]] <= cost[order[0]] + 3.0f && cost[order[n]] <= 0.3f * trusted)
    n++;
  return n;
}

typedef struct {
  const uint8_t *bytes;
  int nbits, pos;
} Bits;

static int
take (Bits *b, int n)
{
  if (b->pos + n > b->nbits)
    return -1;
  int v = 0;
  for (int i = 0; i < n; i++, b->pos++)
    v = v << 1 | ((b->bytes[b->pos >> 3] >> (7 - (b->pos & 7))) & 1);
  return v;
}

static const char alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

/* Numeric, alphanumeric and byte segments of version 1, then the
 * terminator and the standard padding (zero bits to the byte, then 0xEC
 * 0x11 alternating): anything else is not what an encoder writes, so a
 * miscorrected word is refused here too.  Returns the text length, or -1. */
static int
parse_segments (const uint8_t *data, char *out)
{
  Bits b = { data, VIS_QRD_DATA * 8, 0 };
  int len = 0;
  for (;;)
    {
      if (b.nbits - b.pos < 4)
        break;
      int mode = take (&b, 4);
      if (mode == 0)
        break;
      int count = take (&b, mode == 1 ? 10 : mode == 2 ? 9 : mode == 4 ? 8 : 0);
      if ((mode != 1 && mode != 2 && mode != 4) || count <= 0 || len + count > VIS_QRD_TEXT_MAX)
        return -1;
      for (int k = 0; k < count;)
        {
          if (mode == 4)
            {
              int v = take (&b, 8);
              if (v < 0)
                return -1;
              out[len++] = (char) v;
              k++;
            }
          else if (mode == 2)
            {
              int two = count - k >= 2;
              int v = take (&b, two ? 11 : 6);
              if (v < 0 || v >= (two ? 45 * 45 : 45))
                return -1;
              if (two)
                out[len++] = alnum[v / 45];
              out[len++] = alnum[v % 45];
              k += two ? 2 : 1;
            }
          else
            {
              int digits = count - k >= 3 ? 3 : count - k;
              int v = take (&b, digits == 3 ? 10 : digits == 2 ? 7 : 4);
              if (v < 0 || v >= (digits == 3 ? 1000 : digits == 2 ? 100 : 10))
                return -1;
              for (int d = digits - 1; d >= 0; d--)
                out[len + d] = (char) ('0' + v % 10), v /= 10;
              len += digits;
              k += digits;
            }
        }
    }
  /* what is left: zero bits to the byte boundary, then the pad bytes */
  while (b.pos < b.nbits && (b.pos & 7) != 0)
    if (take (&b, 1) != 0)
      return -1;
  for (int k = 0; b.pos < b.nbits; k++)
    if (take (&b, 8) != (k % 2 == 0 ? 0xEC : 0x11))
      return -1;
  return len;
}

/* One mask: the codewords and how much each can be believed, then
 * Reed-Solomon with the least believable ones erased, fewer to more. */
static VisQrDecodeStatus
decode_mask (const VisQrReading *rd, int mask, const uint8_t *known, int n_known, VisQrAccept accept,
             void *user, VisQrDecodeInfo *info, bool *any_codeword, bool *any_text)
{
  uint8_t cw[VIS_QRD_CODEWORDS] = { 0 };
  float rel[VIS_QRD_CODEWORDS];
  for (int k = 0; k < VIS_QRD_CODEWORDS; k++)
    {
      float worst = 2.0f;
      int erased = 0;
      for (int bit = 0; bit < 8; bit++)
        {
          int r = bit_row[k * 8 + bit], c = bit_col[k * 8 + bit], i = r * N + c;
          unsigned v = rd->dark[i] ^ (mask_bit (mask, r, c) ? 1u : 0u);
          cw[k] = (uint8_t) (cw[k] << 1 | v);
          if (rd->erased[i])
            erased++;
          else if (rd->confidence[i] < worst)
            worst = rd->confidence[i];
        }
      /* erased modules first (more of them, less to believe), then by the
       * least confident module */
      rel[k] = erased > 0 ? -(float) erased : worst;
      /* codewords known beforehand are taken as known, never erased */
      if (k < n_known)
        {
          cw[k] = known[k];
          rel[k] = INFINITY;
        }
    }
  int order[VIS_QRD_CODEWORDS];
  for (int k = 0; k < VIS_QRD_CODEWORDS; k++)
    order[k] = k;
  for (int a = 1; a < VIS_QRD_CODEWORDS; a++)
    for (int b = a; b > 0 && rel[order[b]] < rel[order[b - 1]]; b--)
      {
        int t = order[b];
        order[b] = order[b - 1];
        order[b - 1] = t;
      }
  int hard = 0;
  while (hard < VIS_QRD_CODEWORDS && rel[order[hard]] < 0.0f)
    hard++;
  /* Erasure sets: the flagged codewords (as many as the budget takes),
   * then more of the least confident; and, in case a flag was wrong, the
   * confident-order sets below it. */
  int first = hard < BUDGET ? hard : BUDGET;
  int sizes[2 * BUDGET + 2], n_sizes = 0;
  for (int s = first; s <= BUDGET; s++)
    sizes[n_sizes++] = s;
  for (int s = 0; s < first; s++)
    sizes[n_sizes++] = s;
  for (int t = 0; t < n_sizes; t++)
    {
      uint8_t fixed[VIS_QRD_CODEWORDS];
      memcpy (fixed, cw, sizeof cw);
      if (info != NULL)
        info->tries++;
      int fixes = vis_rs_decode (fixed, VIS_QRD_CODEWORDS, NSYM, order, sizes[t], BUDGET);
      if (fixes < 0)
        continue;
      *any_codeword = true;
      char text[VIS_QRD_TEXT_MAX];
      int len = parse_segments (fixed, text);
      if (len <= 0)
        continue;
      *any_text = true;
      if (accept (user, text, (size_t) len))
        {
          if (info != NULL)
            {
              info->erasures = (unsigned) sizes[t];
              info->errors = 0;
              for (int k = 0; k < VIS_QRD_CODEWORDS; k++)
                {
                  bool erased = false;
                  for (int e = 0; e < sizes[t]; e++)
                    erased |= order[e] == k;
                  info->errors += !erased && fixed[k] != cw[k];
                }
              info->mask = mask;
            }
          return VIS_QRD_OK;
        }
    }
  return VIS_QRD_UNCORRECTABLE;
}

/* The data bits every alphanumeric text of `len` characters starting with
 * `prefix` begins with (mode, count, the prefix's pairs), as whole
 * codewords into `known`; returns how many. */
static int
known_codewords (const char *prefix, size_t len, uint8_t *known)
{
  uint8_t bits[VIS_QRD_DATA * 8];
  int n = 0;
  const int head[] = { 0, 0, 1, 0 };   /* alphanumeric mode */
  for (int i = 0; i < 4; i++)
    bits[n++] = (uint8_t) head[i];
  for (int i = 8; i >= 0; i--)
    bits[n++] = (uint8_t) ((len >> i) & 1);
  size_t p = strlen (prefix);
  for (size_t i = 0; i + 2 <= p && i + 2 <= len; i += 2)
    {
      const char *a = strchr (alnum, prefix[i]), *b = strchr (alnum, prefix[i + 1]);
      if (a == NULL || b == NULL)
        break;
      int v = (int) (a - alnum) * 45 + (int) (b - alnum);
      for (int k = 10; k >= 0 && n < VIS_QRD_DATA * 8; k--)
        bits[n++] = (uint8_t) ((v >> k) & 1);
    }
  int whole = n / 8;
  for (int k = 0; k < whole; k++)
    {
      known[k] = 0;
      for (int b = 0; b < 8; b++)
        known[k] = (uint8_t) (known[k] << 1 | bits[k * 8 + b]);
    }
  return whole;
}

VisQrDecodeStatus
vis_qr_decode_expecting (const VisQrReading *reading, const char *prefix, size_t len, VisQrAccept accept,
                         void *user, VisQrDecodeInfo *info)
{
  tables ();
  if (info != NULL)
    {
      info->tries = info->errors = info->erasures = 0;
      info->mask = -1;
    }
  uint8_t known[VIS_QRD_DATA];
  int n_known = prefix != NULL && len > 0 && len <= VIS_QRD_TEXT_MAX ? known_codewords (prefix, len, known) : 0;
  int order[8];
  int n = rank_masks (reading, order);
  if (n == 0)
    return VIS_QRD_NO_FORMAT;
  bool any_codeword = false, any_text = false;
  for (int k = 0; k < n; k++)
    if (decode_mask (reading, order[k], known, n_known, accept, user, info, &any_codeword, &any_text)
        == VIS_QRD_OK)
      return VIS_QRD_OK;
  return any_text ? VIS_QRD_REFUSED : any_codeword ? VIS_QRD_BAD_DATA : VIS_QRD_UNCORRECTABLE;
}

VisQrDecodeStatus
vis_qr_decode (const VisQrReading *reading, VisQrAccept accept, void *user, VisQrDecodeInfo *info)
{
  return vis_qr_decode_expecting (reading, NULL, 0, accept, user, info);
}
