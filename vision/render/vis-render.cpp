// vis-render.cpp: the synthetic table renderer (vis-render.h).
//
// Approach: every object (card, anchor, seat, foreign code) gets a texture at
// warm-up, drawn top-down at `tex_ppm_` pixels per millimetre; the table
// background is warped into the image once per camera pose.  A frame copies
// the background, warps each object's texture into its bounding box with the
// homography table->image composed with the object's pose, adds specular
// glare (a saturated spot with a Gaussian halo, in image space), paints hands,
// applies lens distortion (cv::remap with a map cached per intrinsics) and
// degrades (light gain map, Gaussian blur, a precomputed noise field read at a
// per-frame offset, a JPEG round trip).  All buffers are members, so after the
// first frames nothing is allocated per frame.
#include "vis-render.h"
#include "vis-scene-private.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <qrencode.h>

extern "C" {
#include "vis-qr.h"
}

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxHands = 32;
constexpr int kSamples = 7;   // per side, for the visible fraction of a code

double deg2rad (double d) { return d * kPi / 180.0; }

uint64_t
splitmix64 (uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct ObjState {
  double x, y, rot;
  bool up, present;
  unsigned z;
};

struct Hand {
  double x, y, size, arm;
};

struct Camera {
  double K[3][3];
  double H[3][3];        // table mm -> image px (corner convention)
  double dist[5];
  bool distorted;
};

// One drawn object face: its texture and where its code sits in it.
struct Tex {
  cv::Mat img;
  cv::Mat img_t;           // img transposed: read along its rows when the
                           // object lies turned by ~90 degrees (cache order)
  double w_mm, h_mm;       // texture extent
  double anchor_x, anchor_y;  // the object's position inside the texture (mm)
  double code_x, code_y;   // code centre inside the texture (mm)
  double code_mm;          // side of the 21x21 symbol (mm)
  int modules;             // modules per side of the symbol
  std::string payload;
};

// One tap of the frame's motion-blur line: a shift and its weight (/256).
struct MotionTap {
  int dx, dy, w;
};

struct ObjectInfo {
  int face = -1, back = -1;   // indices into textures
};

void
project (const double H[3][3], double x, double y, double *u, double *v, double *w_out = nullptr)
{
  double w = H[2][0] * x + H[2][1] * y + H[2][2];
  *u = (H[0][0] * x + H[0][1] * y + H[0][2]) / w;
  *v = (H[1][0] * x + H[1][1] * y + H[1][2]) / w;
  if (w_out)
    *w_out = w;
}

void
distort_point (const Camera &cam, double *u, double *v)
{
  if (!cam.distorted)
    return;
  double fx = cam.K[0][0], fy = cam.K[1][1], cx = cam.K[0][2], cy = cam.K[1][2];
  double x = (*u - cx) / fx, y = (*v - cy) / fy;
  double r2 = x * x + y * y;
  const double *d = cam.dist;
  double radial = 1 + d[0] * r2 + d[1] * r2 * r2 + d[4] * r2 * r2 * r2;
  double xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
  double yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
  *u = xd * fx + cx;
  *v = yd * fy + cy;
}

void
camera_from_pose (const VisScene *s, const VisCameraPose &p, Camera *cam)
{
  double w = s->width, h = s->height;
  double f = p.focal > 0 ? p.focal : (w / 2) / std::tan (deg2rad (p.fov) / 2);
  double K[3][3] = { { f, 0, w / 2 }, { 0, f, h / 2 }, { 0, 0, 1 } };
  double t = deg2rad (p.tilt), r = deg2rad (p.roll), yw = deg2rad (p.yaw);
  // Camera axes in the table frame (x right, y near, z into the table).
  double x0[3] = { 1, 0, 0 }, y0[3] = { 0, std::cos (t), std::sin (t) };
  double z0[3] = { 0, -std::sin (t), std::cos (t) };
  double x1[3], y1[3];
  for (int i = 0; i < 3; i++)
    {
      x1[i] = std::cos (r) * x0[i] + std::sin (r) * y0[i];
      y1[i] = -std::sin (r) * x0[i] + std::cos (r) * y0[i];
    }
  double ax[3][3];
  const double *axes[3] = { x1, y1, z0 };
  for (int a = 0; a < 3; a++)
    {
      ax[a][0] = std::cos (yw) * axes[a][0] - std::sin (yw) * axes[a][1];
      ax[a][1] = std::sin (yw) * axes[a][0] + std::cos (yw) * axes[a][1];
      ax[a][2] = axes[a][2];
    }
  double scale = p.height / ax[2][2];
  double C[3] = { p.target_x - ax[2][0] * scale, p.target_y - ax[2][1] * scale,
                  -ax[2][2] * scale };
  double M[3][3];
  for (int a = 0; a < 3; a++)
    {
      M[a][0] = ax[a][0];
      M[a][1] = ax[a][1];
      M[a][2] = -(ax[a][0] * C[0] + ax[a][1] * C[1] + ax[a][2] * C[2]);
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        cam->K[i][j] = K[i][j];
        cam->H[i][j] = K[i][0] * M[0][j] + K[i][1] * M[1][j] + K[i][2] * M[2][j];
      }
  cam->distorted = false;
  for (int k = 0; k < 5; k++)
    {
      cam->dist[k] = p.dist[k];
      if (p.dist[k] != 0)
        cam->distorted = true;
    }
}

// Tablero stickers come from vis-qr (the same modules the sticker sheets
// print); foreign codes from libqrencode directly, at whatever version fits.
bool
encode_qr (const std::string &payload, bool tablero, cv::Mat *modules)
{
  if (tablero)
    {
      VisQrModules qm;
      if (vis_qr_encode (payload.data (), payload.size (), &qm) != ENG_OK)
        return false;
      *modules = cv::Mat (qm.size, qm.size, CV_8U);
      for (int y = 0; y < qm.size; y++)
        for (int x = 0; x < qm.size; x++)
          modules->at<uint8_t> (y, x) = qm.dark[y * qm.size + x] ? 0 : 255;
      return true;
    }
  QRcode *qr = QRcode_encodeString (payload.c_str (), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
  if (qr == nullptr)
    return false;
  *modules = cv::Mat (qr->width, qr->width, CV_8U);
  for (int y = 0; y < qr->width; y++)
    for (int x = 0; x < qr->width; x++)
      modules->at<uint8_t> (y, x) = (qr->data[y * qr->width + x] & 1) ? 0 : 255;
  QRcode_free (qr);
  return true;
}

cv::Scalar
hashed_colour (uint64_t h, int lo, int hi)
{
  int span = hi - lo;
  return cv::Scalar (lo + (int) (h % span), lo + (int) ((h >> 8) % span), lo + (int) ((h >> 16) % span));
}

}  // namespace

struct VisRenderer {
  const VisScene *scene = nullptr;
  uint64_t seed = 1;
  double tex_ppm = 6;
  std::vector<Tex> textures;
  std::vector<ObjectInfo> info;
  std::vector<ObjState> state;
  std::vector<ObjState> state_before;   // at t - exposure
  std::vector<unsigned> order;
  Hand hands[kMaxHands];
  int n_hands = 0;
  VisCameraPose pose {};
  VisDegrade degrade {};

  cv::Mat table_tex;
  cv::Mat background;
  double bg_H[3][3] {};
  bool bg_valid = false;
  cv::Mat frame, tmp;
  cv::Mat map_x, map_y;
  double map_key[7] {};
  bool map_valid = false;
  cv::Mat gain;             // CV_16UC3, Q8 (one factor per byte: a plain loop)
  double gain_key[2] { -1, -1 };
  cv::Mat noise;            // CV_8S, sigma 16, (h + 16) x (w + 16) * 3
  cv::Mat noise_scaled;     // noise at the current sigma (rebuilt when it changes)
  double noise_key = -1;
  std::vector<uchar> jpeg_buf;
  std::vector<int> jpeg_params;
  bool last_jpeg = false;
  bool have_frame = false;
  std::vector<cv::Point> poly;
  cv::Mat under;            // what a sliding card hides (draw_moving_object)
  cv::Mat acc;              // CV_16UC3 sums for motion blur
  MotionTap taps[4 * VIS_SCENE_MOTION_MAX + 1];
  int n_taps = 0;
  double motion_key[2] { -1, -1 };
};

namespace {

// Draws a sticker (code with quiet zone, label strip below) into `img` with
// the code square's top-left at pixel (x0, y0) and side `side_px`.
void
draw_sticker (cv::Mat &img, const cv::Mat &modules, int quiet, int x0, int y0, int side_px,
              bool label, uint64_t h)
{
  int total = modules.cols + 2 * quiet;
  cv::Mat code (total, total, CV_8U, cv::Scalar (255));
  modules.copyTo (code (cv::Rect (quiet, quiet, modules.cols, modules.rows)));
  cv::Mat big, small;
  cv::resize (code, big, cv::Size (total * 16, total * 16), 0, 0, cv::INTER_NEAREST);
  cv::resize (big, small, cv::Size (side_px, side_px), 0, 0, cv::INTER_AREA);
  int label_px = label ? side_px * 3 / 10 : 0;
  cv::Rect paper (x0, y0, side_px, side_px + label_px);
  paper &= cv::Rect (0, 0, img.cols, img.rows);
  img (paper).setTo (cv::Scalar (238, 242, 244));
  cv::Rect code_rect (x0, y0, side_px, side_px);
  cv::Rect clip = code_rect & cv::Rect (0, 0, img.cols, img.rows);
  for (int y = clip.y; y < clip.y + clip.height; y++)
    for (int x = clip.x; x < clip.x + clip.width; x++)
      {
        int g = small.at<uint8_t> (y - y0, x - x0);
        cv::Vec3b &px = img.at<cv::Vec3b> (y, x);
        // Paper white is slightly warm; ink is not pure black.
        px = cv::Vec3b ((uchar) (25 + g * 213 / 255), (uchar) (25 + g * 217 / 255),
                        (uchar) (28 + g * 216 / 255));
      }
  if (label)
    {
      int lines = 3;
      for (int i = 0; i < lines; i++)
        {
          int ly = y0 + side_px + (i + 1) * label_px / (lines + 1);
          int len = side_px * (60 + (int) ((h >> (i * 7)) % 35)) / 100;
          cv::line (img, cv::Point (x0 + side_px / 10, ly), cv::Point (x0 + side_px / 10 + len, ly),
                    cv::Scalar (120, 120, 120), std::max (1, label_px / 10));
        }
    }
}

bool
build_texture (VisRenderer *r, const VisSceneObject &o, bool up, Tex *t)
{
  const VisScene *s = r->scene;
  char payload[VIS_TRUTH_PAYLOAD_MAX];
  if (!vis_scene_object_payload (s, &o, up, payload, sizeof payload))
    return false;
  t->payload = payload;
  cv::Mat modules;
  bool tablero = o.kind != VIS_OBJ_FOREIGN;
  char text[VIS_TRUTH_PAYLOAD_MAX];
  if (tablero)
    vis_scene_sticker_text (s, payload, text, sizeof text);
  if (!encode_qr (tablero ? std::string (text) : t->payload, tablero, &modules))
    return false;
  double ppm = r->tex_ppm;
  double size = vis_scene_object_sticker_mm (s, &o);
  // a lone code (foreign, or a command card held up) gets a full quiet zone
  bool lone = o.kind == VIS_OBJ_FOREIGN || o.kind == VIS_OBJ_COMMAND;
  int quiet = lone ? 4 : vis_scene_quiet_modules (s, size);
  int total = modules.cols + 2 * quiet;
  int side_px = std::max (total, (int) std::lround (size * ppm));
  double side_mm = side_px / ppm;
  bool label = !lone;
  int label_px = label ? side_px * 3 / 10 : 0;
  uint64_t h = splitmix64 (std::hash<std::string> () (t->payload) ^ r->seed);
  if (o.kind == VIS_OBJ_CARD)
    {
      int w = (int) std::lround (s->card_w * ppm), hh = (int) std::lround (s->card_h * ppm);
      t->img.create (hh, w, CV_8UC3);
      t->w_mm = w / ppm;
      t->h_mm = hh / ppm;
      t->anchor_x = t->w_mm / 2;
      t->anchor_y = t->h_mm / 2;
      if (up)
        {
          uint64_t ch = splitmix64 (o.number);
          t->img.setTo (cv::Scalar (214, 228, 236));
          cv::Scalar frame_col = hashed_colour (ch, 40, 200);
          int b = std::max (2, (int) (3 * ppm));
          cv::rectangle (t->img, cv::Rect (0, 0, w, hh), frame_col, b);
          cv::RNG rng (ch);
          for (int i = 0; i < 6; i++)
            cv::circle (t->img, cv::Point (rng.uniform (0, w), rng.uniform (0, hh)),
                        rng.uniform (w / 12, w / 5), hashed_colour (rng.next (), 60, 230), -1,
                        cv::LINE_AA);
          cv::putText (t->img, std::to_string (o.number), cv::Point (b + 2, b + (int) (6 * ppm)),
                       cv::FONT_HERSHEY_SIMPLEX, ppm / 8, cv::Scalar (40, 40, 40),
                       std::max (1, (int) (ppm / 4)), cv::LINE_AA);
        }
      else
        {
          uint64_t dh = splitmix64 (o.back * 7919u);
          cv::Scalar base = o.back == 1 ? cv::Scalar (110, 45, 25) : o.back == 2
                            ? cv::Scalar (225, 225, 220) : hashed_colour (dh, 40, 220);
          t->img.setTo (base);
          cv::Scalar line_col = base * 0.7 + cv::Scalar (60, 60, 60) * 0.3;
          int step = std::max (3, (int) (5 * ppm));
          for (int d = -hh; d < w; d += step)
            cv::line (t->img, cv::Point (d, 0), cv::Point (d + hh, hh), line_col,
                      std::max (1, (int) ppm), cv::LINE_AA);
        }
      // The sticker's code centre sits at the card centre plus the offset.
      double cx = t->anchor_x + o.off_x, cy = t->anchor_y + o.off_y;
      int x0 = (int) std::lround ((cx - side_mm / 2) * ppm);
      int y0 = (int) std::lround ((cy - side_mm / 2) * ppm);
      draw_sticker (t->img, modules, quiet, x0, y0, side_px, label, h);
      t->code_x = (x0 + side_px / 2.0) / ppm;
      t->code_y = (y0 + side_px / 2.0) / ppm;
    }
  else
    {
      t->img.create (side_px + label_px, side_px, CV_8UC3);
      t->img.setTo (cv::Scalar (238, 242, 244));
      draw_sticker (t->img, modules, quiet, 0, 0, side_px, label, h);
      t->w_mm = side_px / ppm;
      t->h_mm = (side_px + label_px) / ppm;
      t->code_x = t->anchor_x = side_px / 2.0 / ppm;
      t->code_y = t->anchor_y = side_px / 2.0 / ppm;
    }
  t->code_mm = side_mm * modules.cols / total;
  t->modules = modules.cols;
  return true;
}

// Pixels per mm the image shows at the table point (x, y).
double
image_scale_at (const Camera &cam, double x, double y)
{
  double u0, v0, u1, v1, u2, v2;
  project (cam.H, x, y, &u0, &v0);
  project (cam.H, x + 1, y, &u1, &v1);
  project (cam.H, x, y + 1, &u2, &v2);
  return std::max (std::hypot (u1 - u0, v1 - v0), std::hypot (u2 - u0, v2 - v0));
}

double
max_image_scale (const VisScene *s)
{
  VisCameraPose p = s->camera;
  double best = 0;
  auto consider = [&] (const VisCameraPose &pp) {
    Camera cam;
    camera_from_pose (s, pp, &cam);
    for (int i = 0; i <= 4; i++)
      for (int j = 0; j <= 4; j++)
        {
          double x = s->table_w * i / 4, y = s->table_h * j / 4, u, v, w;
          project (cam.H, x, y, &u, &v, &w);
          if (w > 0)
            best = std::max (best, image_scale_at (cam, x, y));
        }
  };
  consider (p);
  for (unsigned i = 0; i < s->n_events; i++)
    {
      const VisSceneEvent &e = s->events[i];
      if (e.kind != VIS_EV_CAMERA)
        continue;
      if (e.has & VIS_EV_HAS_HEIGHT) p.height = e.camera.height;
      if (e.has & VIS_EV_HAS_TILT) p.tilt = e.camera.tilt;
      if (e.has & VIS_EV_HAS_YAW) p.yaw = e.camera.yaw;
      if (e.has & VIS_EV_HAS_ROLL) p.roll = e.camera.roll;
      if (e.has & VIS_EV_HAS_FOV) { p.fov = e.camera.fov; p.focal = 0; }
      if (e.has & VIS_EV_HAS_TARGET) { p.target_x = e.camera.target_x; p.target_y = e.camera.target_y; }
      consider (p);
    }
  return best;
}

void
build_table_texture (VisRenderer *r)
{
  const VisScene *s = r->scene;
  const double ppm = 1.0;   // the table is smooth: 1 px/mm is plenty
  int w = std::max (2, (int) std::lround (s->table_w * ppm));
  int h = std::max (2, (int) std::lround (s->table_h * ppm));
  cv::Mat grain (h, w, CV_32F);
  cv::RNG rng (splitmix64 (r->seed ^ 0x7ab1e));
  rng.fill (grain, cv::RNG::NORMAL, 0, 1);
  cv::GaussianBlur (grain, grain, cv::Size (0, 0), 9, 1.5);   // streaks along x
  double mn, mx;
  cv::minMaxLoc (grain, &mn, &mx);
  double span = std::max (1e-6, mx - mn);
  r->table_tex.create (h, w, CV_8UC3);
  double amp = 40 * s->grain;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double g = ((grain.at<float> (y, x) - mn) / span - 0.5) * amp;
        cv::Vec3b &px = r->table_tex.at<cv::Vec3b> (y, x);
        px[0] = cv::saturate_cast<uchar> (s->table_rgb[2] + g);
        px[1] = cv::saturate_cast<uchar> (s->table_rgb[1] + g);
        px[2] = cv::saturate_cast<uchar> (s->table_rgb[0] + g);
      }
}

void
update_background (VisRenderer *r, const Camera &cam)
{
  if (r->bg_valid && std::memcmp (r->bg_H, cam.H, sizeof r->bg_H) == 0)
    return;
  const VisScene *s = r->scene;
  r->background.create (s->height, s->width, CV_8UC3);
  r->background.setTo (cv::Scalar (52, 58, 66));   // the floor beyond the table
  double sx = s->table_w / r->table_tex.cols, sy = s->table_h / r->table_tex.rows;
  // texture index -> table mm -> image corner coords -> OpenCV index
  cv::Matx33d A (sx, 0, 0.5 * sx, 0, sy, 0.5 * sy, 0, 0, 1);
  cv::Matx33d H (&cam.H[0][0]);
  cv::Matx33d shift (1, 0, -0.5, 0, 1, -0.5, 0, 0, 1);
  cv::Matx33d M = shift * H * A;
  cv::warpPerspective (r->table_tex, r->background, cv::Mat (M), r->background.size (),
                       cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
  std::memcpy (r->bg_H, cam.H, sizeof r->bg_H);
  r->bg_valid = true;
}

void
update_distortion_map (VisRenderer *r, const Camera &cam)
{
  double key[7] = { cam.K[0][0], cam.K[1][1], cam.dist[0], cam.dist[1], cam.dist[2],
                    cam.dist[3], cam.dist[4] };
  if (r->map_valid && std::memcmp (key, r->map_key, sizeof key) == 0)
    return;
  const VisScene *s = r->scene;
  int w = s->width, h = s->height;
  std::vector<cv::Point2f> pts ((size_t) w * h), und;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      pts[(size_t) y * w + x] = cv::Point2f ((float) (x + 0.5), (float) (y + 0.5));
  cv::Matx33d K (&cam.K[0][0]);
  cv::Mat dist (1, 5, CV_64F, (void *) cam.dist);
  cv::undistortPoints (pts, und, cv::Mat (K), dist);
  r->map_x.create (h, w, CV_32F);
  r->map_y.create (h, w, CV_32F);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const cv::Point2f &n = und[(size_t) y * w + x];
        r->map_x.at<float> (y, x) = (float) (n.x * cam.K[0][0] + cam.K[0][2] - 0.5);
        r->map_y.at<float> (y, x) = (float) (n.y * cam.K[1][1] + cam.K[1][2] - 0.5);
      }
  std::memcpy (r->map_key, key, sizeof key);
  r->map_valid = true;
}

void
update_gain (VisRenderer *r)
{
  if (r->gain_key[0] == r->degrade.light && r->gain_key[1] == r->degrade.light_angle)
    return;
  const VisScene *s = r->scene;
  int w = s->width, h = s->height;
  r->gain.create (h, w, CV_16UC3);
  double a = deg2rad (r->degrade.light_angle), L = r->degrade.light;
  double cx = w / 2.0, cy = h / 2.0, norm = cx * cx + cy * cy;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
        double d = (dx * std::cos (a) + dy * std::sin (a)) / cx;
        double g = 1 + L * (0.5 * d - 0.55 * (dx * dx + dy * dy) / norm);
        g = std::clamp (g, 0.15, 2.0);
        uint16_t q = (uint16_t) std::lround (g * 256);
        r->gain.at<cv::Vec<uint16_t, 3>> (y, x) = cv::Vec<uint16_t, 3> (q, q, q);
      }
  r->gain_key[0] = r->degrade.light;
  r->gain_key[1] = r->degrade.light_angle;
}

// Scene state at time t: objects, camera pose, hands, degradation.
void
evaluate (VisRenderer *r, double t)
{
  const VisScene *s = r->scene;
  unsigned zc = 0;
  for (unsigned i = 0; i < s->n_objects; i++)
    {
      const VisSceneObject &o = s->objects[i];
      r->state[i] = ObjState { o.x, o.y, o.rot, o.up, o.present, zc++ };
    }
  r->pose = s->camera;
  r->degrade = s->degrade;
  r->n_hands = 0;
  for (unsigned i = 0; i < s->n_events; i++)
    {
      const VisSceneEvent &e = s->events[i];
      if (e.t > t)
        break;
      ObjState *st = e.object >= 0 ? &r->state[e.object] : nullptr;
      double f = e.over > 0 ? std::clamp ((t - e.t) / e.over, 0.0, 1.0) : 1.0;
      switch (e.kind)
        {
        case VIS_EV_PLACE:
          st->present = true;
          if (e.has & VIS_EV_HAS_POS) { st->x = e.x; st->y = e.y; }
          if (e.has & VIS_EV_HAS_ROT) st->rot = e.rot;
          if (e.has & VIS_EV_HAS_UP) st->up = e.up;
          st->z = zc++;
          break;
        case VIS_EV_MOVE:
          st->x += (e.x - st->x) * f;
          st->y += (e.y - st->y) * f;
          if (e.has & VIS_EV_HAS_ROT) st->rot += (e.rot - st->rot) * f;
          st->z = zc++;
          break;
        case VIS_EV_FLIP: st->up = !st->up; break;
        case VIS_EV_UP: st->up = true; break;
        case VIS_EV_DOWN: st->up = false; break;
        case VIS_EV_REMOVE: st->present = false; break;
        case VIS_EV_CAMERA:
          {
            VisCameraPose &p = r->pose;
            const VisCameraPose &q = e.camera;
            if (e.has & VIS_EV_HAS_HEIGHT) p.height += (q.height - p.height) * f;
            if (e.has & VIS_EV_HAS_TILT) p.tilt += (q.tilt - p.tilt) * f;
            if (e.has & VIS_EV_HAS_YAW) p.yaw += (q.yaw - p.yaw) * f;
            if (e.has & VIS_EV_HAS_ROLL) p.roll += (q.roll - p.roll) * f;
            if (e.has & VIS_EV_HAS_FOV)
              {
                if (p.focal > 0)
                  p.fov = 2 * std::atan ((s->width / 2.0) / p.focal) * 180 / kPi;
                p.focal = 0;
                p.fov += (q.fov - p.fov) * f;
              }
            if (e.has & VIS_EV_HAS_TARGET)
              {
                p.target_x += (q.target_x - p.target_x) * f;
                p.target_y += (q.target_y - p.target_y) * f;
              }
            break;
          }
        case VIS_EV_HAND:
          if (t < e.t + e.over && r->n_hands < kMaxHands)
            {
              double g = (t - e.t) / e.over;
              r->hands[r->n_hands++] = Hand { e.x + (e.x2 - e.x) * g, e.y + (e.y2 - e.y) * g,
                                              e.size, e.arm };
            }
          break;
        case VIS_EV_DEGRADE:
          if (e.has & VIS_EV_HAS_LIGHT) r->degrade.light = e.degrade.light;
          if (e.has & VIS_EV_HAS_LIGHT_ANGLE) r->degrade.light_angle = e.degrade.light_angle;
          if (e.has & VIS_EV_HAS_BLUR) r->degrade.blur = e.degrade.blur;
          if (e.has & VIS_EV_HAS_NOISE) r->degrade.noise = e.degrade.noise;
          if (e.has & VIS_EV_HAS_JPEG) r->degrade.jpeg = e.degrade.jpeg;
          if (e.has & VIS_EV_HAS_GLARE)
            {
              r->degrade.glare = e.degrade.glare;
              r->degrade.glare_x = e.degrade.glare_x;
              r->degrade.glare_y = e.degrade.glare_y;
            }
          if (e.has & VIS_EV_HAS_GLARE_SIZE) r->degrade.glare_mm = e.degrade.glare_mm;
          if (e.has & VIS_EV_HAS_MOTION) r->degrade.motion_px = e.degrade.motion_px;
          if (e.has & VIS_EV_HAS_MOTION_ANGLE) r->degrade.motion_angle = e.degrade.motion_angle;
          if (e.has & VIS_EV_HAS_EXPOSURE) r->degrade.exposure = e.degrade.exposure;
          break;
        }
    }
}

// A hand in the table plane: palm ellipse, five finger capsules, a forearm
// capsule leaving towards `arm`.  Local frame: +v along the arm.
struct Capsule { double ax, ay, bx, by, rad; };

int
hand_capsules (const Hand &hd, Capsule out[7], double *palm_rx, double *palm_ry)
{
  double s = hd.size;
  double ang = deg2rad (hd.arm - 90);
  double c = std::cos (ang), sn = std::sin (ang);
  auto to_table = [&] (double u, double v, double *x, double *y) {
    *x = hd.x + c * u - sn * v;
    *y = hd.y + sn * u + c * v;
  };
  int n = 0;
  const double fx[4] = { -0.17, -0.06, 0.05, 0.16 };
  const double fl[4] = { 0.36, 0.42, 0.40, 0.32 };
  for (int i = 0; i < 4; i++)
    {
      Capsule &k = out[n++];
      to_table (fx[i] * s, -0.15 * s, &k.ax, &k.ay);
      to_table (fx[i] * s * 1.15, -(0.15 + fl[i]) * s, &k.bx, &k.by);
      k.rad = 0.045 * s;
    }
  Capsule &th = out[n++];
  to_table (-0.2 * s, 0.1 * s, &th.ax, &th.ay);
  to_table (-0.38 * s, -0.12 * s, &th.bx, &th.by);
  th.rad = 0.05 * s;
  Capsule &arm = out[n++];
  to_table (0, 0.2 * s, &arm.ax, &arm.ay);
  to_table (0, 5.0 * s, &arm.bx, &arm.by);
  arm.rad = 0.2 * s;
  *palm_rx = 0.27 * s;
  *palm_ry = 0.3 * s;
  return n;
}

bool
in_capsule (const Capsule &k, double x, double y)
{
  double dx = k.bx - k.ax, dy = k.by - k.ay;
  double l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? std::clamp (((x - k.ax) * dx + (y - k.ay) * dy) / l2, 0.0, 1.0) : 0;
  double px = k.ax + t * dx - x, py = k.ay + t * dy - y;
  return px * px + py * py <= k.rad * k.rad;
}

bool
in_hand (const Hand &hd, double x, double y)
{
  Capsule caps[7];
  double rx, ry;
  int n = hand_capsules (hd, caps, &rx, &ry);
  for (int i = 0; i < n; i++)
    if (in_capsule (caps[i], x, y))
      return true;
  double ang = deg2rad (hd.arm - 90);
  double dx = x - hd.x, dy = y - hd.y;
  double u = std::cos (ang) * dx + std::sin (ang) * dy;
  double v = -std::sin (ang) * dx + std::cos (ang) * dy;
  return (u * u) / (rx * rx) + (v * v) / (ry * ry) <= 1;
}

void
fill_table_polygon (VisRenderer *r, const Camera &cam, const double *xs, const double *ys, int n,
                    const cv::Scalar &colour)
{
  r->poly.clear ();
  for (int i = 0; i < n; i++)
    {
      double u, v, w;
      project (cam.H, xs[i], ys[i], &u, &v, &w);
      if (w <= 0)
        return;
      u = std::clamp (u - 0.5, -1e5, 1e5);
      v = std::clamp (v - 0.5, -1e5, 1e5);
      r->poly.emplace_back ((int) std::lround (u * 16), (int) std::lround (v * 16));
    }
  const cv::Point *pts = r->poly.data ();
  int npts = (int) r->poly.size ();
  cv::fillPoly (r->frame, &pts, &npts, 1, colour, cv::LINE_AA, 4);
}

void
draw_hand (VisRenderer *r, const Camera &cam, const Hand &hd, const cv::Scalar &skin)
{
  Capsule caps[7];
  double rx, ry;
  int n = hand_capsules (hd, caps, &rx, &ry);
  double xs[40], ys[40];
  double ang = deg2rad (hd.arm - 90);
  for (int i = n - 1; i >= 0; i--)
    {
      const Capsule &k = caps[i];
      double dir = std::atan2 (k.by - k.ay, k.bx - k.ax);
      int m = 0;
      for (int j = 0; j <= 8; j++)
        {
          double a = dir + kPi / 2 + kPi * j / 8;
          xs[m] = k.ax + k.rad * std::cos (a);
          ys[m++] = k.ay + k.rad * std::sin (a);
        }
      for (int j = 0; j <= 8; j++)
        {
          double a = dir - kPi / 2 + kPi * j / 8;
          xs[m] = k.bx + k.rad * std::cos (a);
          ys[m++] = k.by + k.rad * std::sin (a);
        }
      cv::Scalar col = i == n - 1 ? skin * 0.92 : skin * 0.97;
      fill_table_polygon (r, cam, xs, ys, m, col);
    }
  for (int j = 0; j < 32; j++)
    {
      double a = 2 * kPi * j / 32, u = rx * std::cos (a), v = ry * std::sin (a);
      xs[j] = hd.x + std::cos (ang) * u - std::sin (ang) * v;
      ys[j] = hd.y + std::sin (ang) * u + std::cos (ang) * v;
    }
  fill_table_polygon (r, cam, xs, ys, 32, skin);
}

// Bilinear sample of a BGR texture at (u, v) in OpenCV index coordinates,
// with (u, v) inside [0, cols-1] x [0, rows-1].
inline void
sample_bilinear (const cv::Mat &tex, double u, double v, uchar *out)
{
  int iu = (int) u, iv = (int) v;
  int wx = (int) ((u - iu) * 256), wy = (int) ((v - iv) * 256);
  int iu1 = std::min (iu + 1, tex.cols - 1), iv1 = std::min (iv + 1, tex.rows - 1);
  const uchar *r0 = tex.ptr<uchar> (iv), *r1 = tex.ptr<uchar> (iv1);
  const uchar *p00 = r0 + 3 * iu, *p01 = r0 + 3 * iu1, *p10 = r1 + 3 * iu, *p11 = r1 + 3 * iu1;
  for (int c = 0; c < 3; c++)
    {
      int top = p00[c] * (256 - wx) + p01[c] * wx;
      int bottom = p10[c] * (256 - wx) + p11[c] * wx;
      out[c] = (uchar) ((top * (256 - wy) + bottom * wy + 32768) >> 16);
    }
}

// Draws texture `t` at pose `st`: every image pixel of the object's bounding
// box is mapped back into the texture (inverse homography, incremental along
// the row) and sampled when it falls inside.  Written by hand because
// cv::warpPerspective allocates scratch blocks on every call.
// Texture index -> image index (OpenCV convention) for texture `t` at pose
// `st`, shifted by (dx, dy) image pixels.
cv::Matx33d
object_to_image (const VisRenderer *r, const Camera &cam, const Tex &t, const ObjState &st,
                 double dx, double dy)
{
  double c = std::cos (deg2rad (st.rot)), s = std::sin (deg2rad (st.rot));
  double k = 1.0 / r->tex_ppm;
  // texture index -> local mm (about the anchor) -> table mm
  double ox = 0.5 * k - t.anchor_x, oy = 0.5 * k - t.anchor_y;
  cv::Matx33d A (c * k, -s * k, c * ox - s * oy + st.x,
                 s * k, c * k, s * ox + c * oy + st.y,
                 0, 0, 1);
  cv::Matx33d H (&cam.H[0][0]);
  return cv::Matx33d (1, 0, dx - 0.5, 0, 1, dy - 0.5, 0, 0, 1) * H * A;
}

// The frame pixels texture `t` covers through M (clipped to the frame); an
// empty rectangle when none or when the texture reaches behind the camera.
cv::Rect
object_box (const cv::Matx33d &M, const Tex &t, const cv::Mat &frame)
{
  double xs[4] = { -0.5, t.img.cols - 0.5, t.img.cols - 0.5, -0.5 };
  double ys[4] = { -0.5, -0.5, t.img.rows - 0.5, t.img.rows - 0.5 };
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (int i = 0; i < 4; i++)
    {
      cv::Vec3d p = M * cv::Vec3d (xs[i], ys[i], 1);
      if (p[2] <= 0)
        return cv::Rect ();
      x0 = std::min (x0, p[0] / p[2]);
      x1 = std::max (x1, p[0] / p[2]);
      y0 = std::min (y0, p[1] / p[2]);
      y1 = std::max (y1, p[1] / p[2]);
    }
  int bx0 = std::max (0, (int) std::floor (x0)), by0 = std::max (0, (int) std::floor (y0));
  int bx1 = std::min (frame.cols - 1, (int) std::ceil (x1));
  int by1 = std::min (frame.rows - 1, (int) std::ceil (y1));
  if (bx0 > bx1 || by0 > by1)
    return cv::Rect ();
  return cv::Rect (bx0, by0, bx1 - bx0 + 1, by1 - by0 + 1);
}

void
warp_object (VisRenderer *r, const Camera &cam, const Tex &t, const ObjState &st, double dx = 0,
             double dy = 0)
{
  cv::Matx33d M = object_to_image (r, cam, t, st, dx, dy);
  cv::Rect box = object_box (M, t, r->frame);
  if (box.empty ())
    return;
  int bx0 = box.x, by0 = box.y, bx1 = box.x + box.width - 1, by1 = box.y + box.height - 1;
  cv::Matx33d Mi = M.inv ();
  // Walk the texture along its rows: for an object turned by about 90
  // degrees image rows run down texture columns, so use the transposed copy
  // (u and v swap).
  const cv::Mat *img = &t.img;
  if (std::fabs (Mi (1, 0)) > std::fabs (Mi (0, 0)))
    {
      img = &t.img_t;
      for (int j = 0; j < 3; j++)
        std::swap (Mi (0, j), Mi (1, j));
    }
  // Texture coordinates in 16.16 fixed point, exact every kSpan pixels and
  // linear in between (the projective error over 16 px is far below 1/256 px
  // at these scales): no division and no floating point per pixel.
  constexpr int kSpan = 16;
  const int64_t umax = (int64_t) (img->cols - 1) << 16, vmax = (int64_t) (img->rows - 1) << 16;
  const uchar *tex = img->data;
  const size_t tstep = img->step[0];
  for (int y = by0; y <= by1; y++)
    {
      uchar *row = r->frame.ptr<uchar> (y);
      auto exact = [&] (int x, int64_t *fu, int64_t *fv) {
        double W = Mi (2, 0) * x + Mi (2, 1) * y + Mi (2, 2);
        *fu = (int64_t) std::llround ((Mi (0, 0) * x + Mi (0, 1) * y + Mi (0, 2)) / W * 65536.0);
        *fv = (int64_t) std::llround ((Mi (1, 0) * x + Mi (1, 1) * y + Mi (1, 2)) / W * 65536.0);
      };
      int64_t u0, v0;
      exact (bx0, &u0, &v0);
      for (int xs0 = bx0; xs0 <= bx1; xs0 += kSpan)
        {
          int xe = std::min (xs0 + kSpan, bx1 + 1);
          int64_t u1, v1;
          exact (xe, &u1, &v1);
          int64_t du = (u1 - u0) / (xe - xs0), dv = (v1 - v0) / (xe - xs0);
          int64_t u = u0, v = v0;
          for (int x = xs0; x < xe; x++, u += du, v += dv)
            {
              if (u < 0 || v < 0 || u > umax || v > vmax)
                continue;
              int iu = (int) (u >> 16), iv = (int) (v >> 16);
              int wx = (int) ((u >> 8) & 255), wy = (int) ((v >> 8) & 255);
              int su = iu < img->cols - 1 ? 3 : 0;
              size_t sv = iv < img->rows - 1 ? tstep : 0;
              const uchar *p00 = tex + iv * tstep + 3 * iu;
              uchar *o = row + 3 * x;
              for (int c = 0; c < 3; c++)
                {
                  int top = p00[c] * (256 - wx) + p00[c + su] * wx;
                  int bottom = p00[c + sv] * (256 - wx) + p00[c + sv + su] * wx;
                  o[c] = (uchar) ((top * (256 - wy) + bottom * wy + 32768) >> 16);
                }
            }
          u0 = u1;
          v0 = v1;
        }
    }
}

// Lens distortion: every output pixel takes the undistorted image at the
// place the cached map says (bilinear; black outside).
void
apply_distortion (VisRenderer *r)
{
  const cv::Mat &src = r->frame;
  double umax = src.cols - 1, vmax = src.rows - 1;
  for (int y = 0; y < r->tmp.rows; y++)
    {
      uchar *out = r->tmp.ptr<uchar> (y);
      const float *mx = r->map_x.ptr<float> (y), *my = r->map_y.ptr<float> (y);
      for (int x = 0; x < r->tmp.cols; x++)
        {
          double u = mx[x], v = my[x];
          if (u >= 0 && v >= 0 && u <= umax && v <= vmax)
            sample_bilinear (src, u, v, out + 3 * x);
          else
            out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = 0;
        }
    }
  std::swap (r->frame, r->tmp);
}

// True when table point (x, y) is covered by object j (its whole texture).
bool
object_covers (const VisRenderer *r, unsigned j, double x, double y)
{
  const ObjState &st = r->state[j];
  const ObjectInfo &in = r->info[j];
  const Tex &t = r->textures[st.up || in.back < 0 ? in.face : in.back];
  double c = std::cos (deg2rad (st.rot)), s = std::sin (deg2rad (st.rot));
  double dx = x - st.x, dy = y - st.y;
  double u = c * dx + s * dy + t.anchor_x, v = -s * dx + c * dy + t.anchor_y;
  return u >= 0 && v >= 0 && u <= t.w_mm && v <= t.h_mm;
}

void
fill_truth (VisRenderer *r, const Camera &cam, VisTruth *truth, double t_s)
{
  const VisScene *s = r->scene;
  truth->t_s = t_s;
  truth->n_tags = 0;
  truth->truncated = false;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        truth->table_to_image[i][j] = cam.H[i][j] / cam.H[2][2];
        truth->camera_k[i][j] = cam.K[i][j];
      }
  truth->distorted = cam.distorted;
  for (int k = 0; k < 5; k++)
    truth->camera_dist[k] = cam.dist[k];
  double W = s->width, Hh = s->height;
  for (unsigned oi = 0; oi < r->order.size (); oi++)
    {
      unsigned i = r->order[oi];
      const ObjState &st = r->state[i];
      if (!st.present)
        continue;
      const ObjectInfo &in = r->info[i];
      const Tex &t = r->textures[st.up || in.back < 0 ? in.face : in.back];
      double c = std::cos (deg2rad (st.rot)), sn = std::sin (deg2rad (st.rot));
      auto local_to_table = [&] (double u, double v, double *x, double *y) {
        double lx = u - t.anchor_x, ly = v - t.anchor_y;
        *x = st.x + c * lx - sn * ly;
        *y = st.y + sn * lx + c * ly;
      };
      auto to_image = [&] (double x, double y, double *u, double *v) {
        double w;
        project (cam.H, x, y, u, v, &w);
        distort_point (cam, u, v);
        return w > 0;
      };
      double ctx, cty, cu, cv_;
      local_to_table (t.code_x, t.code_y, &ctx, &cty);
      if (!to_image (ctx, cty, &cu, &cv_) || cu < 0 || cv_ < 0 || cu >= W || cv_ >= Hh)
        continue;
      if (truth->n_tags == VIS_TRUTH_MAX_TAGS)
        {
          truth->truncated = true;
          break;
        }
      VisTruthTag &tag = truth->tags[truth->n_tags++];
      std::memset (&tag, 0, sizeof tag);
      const VisSceneObject &o = s->objects[i];
      std::snprintf (tag.id, sizeof tag.id, "%s", o.id);
      std::snprintf (tag.payload, sizeof tag.payload, "%s", t.payload.c_str ());
      tag.kind = o.kind == VIS_OBJ_CARD ? VIS_TRUTH_CARD : o.kind == VIS_OBJ_ANCHOR
                 ? VIS_TRUTH_ANCHOR : o.kind == VIS_OBJ_SEAT ? VIS_TRUTH_SEAT
                 : o.kind == VIS_OBJ_COMMAND ? VIS_TRUTH_COMMAND : VIS_TRUTH_FOREIGN;
      tag.face_up = o.kind != VIS_OBJ_CARD || st.up;
      tag.table_x_mm = ctx;
      tag.table_y_mm = cty;
      tag.rotation_deg = st.rot;
      double h = t.code_mm / 2;
      const double cu_[4] = { -h, h, h, -h }, cvv[4] = { -h, -h, h, h };
      tag.in_view = true;
      double perim = 0;
      for (int k = 0; k < 4; k++)
        {
          double x, y, u, v;
          local_to_table (t.code_x + cu_[k], t.code_y + cvv[k], &x, &y);
          to_image (x, y, &u, &v);
          tag.corners[k][0] = (float) u;
          tag.corners[k][1] = (float) v;
          if (u < 0 || v < 0 || u > W || v > Hh)
            tag.in_view = false;
        }
      for (int k = 0; k < 4; k++)
        perim += std::hypot (tag.corners[(k + 1) % 4][0] - tag.corners[k][0],
                             tag.corners[(k + 1) % 4][1] - tag.corners[k][1]);
      tag.module_px = perim / 4 / 21;
      int seen = 0;
      for (int a = 0; a < kSamples; a++)
        for (int b = 0; b < kSamples; b++)
          {
            double lu = t.code_x - h + 2 * h * (a + 0.5) / kSamples;
            double lv = t.code_y - h + 2 * h * (b + 0.5) / kSamples;
            double x, y, u, v;
            local_to_table (lu, lv, &x, &y);
            bool ok = to_image (x, y, &u, &v) && u >= 0 && v >= 0 && u < W && v < Hh;
            for (int hi = 0; ok && hi < r->n_hands; hi++)
              if (in_hand (r->hands[hi], x, y))
                ok = false;
            for (unsigned oj = oi + 1; ok && oj < r->order.size (); oj++)
              {
                unsigned j = r->order[oj];
                if (r->state[j].present && object_covers (r, j, x, y))
                  ok = false;
              }
            seen += ok;
          }
      tag.visible_fraction = (float) seen / (kSamples * kSamples);
      tag.occluded = seen < kSamples * kSamples || !tag.in_view;
    }
}

void
apply_gain (VisRenderer *r)
{
  int len = r->frame.cols * 3;
  for (int y = 0; y < r->frame.rows; y++)
    {
      uchar *p = r->frame.ptr<uchar> (y);
      const uint16_t *g = r->gain.ptr<uint16_t> (y);
      for (int i = 0; i < len; i++)
        {
          unsigned v = (p[i] * (unsigned) g[i]) >> 8;
          p[i] = (uchar) (v > 255 ? 255 : v);
        }
    }
}

void
apply_noise (VisRenderer *r, cv::RNG &rng)
{
  if (r->noise_key != r->degrade.noise)
    {
      r->noise.convertTo (r->noise_scaled, CV_8S, r->degrade.noise / 16.0);
      r->noise_key = r->degrade.noise;
    }
  int ox = rng.uniform (0, 16), oy = rng.uniform (0, 16);
  int len = r->frame.cols * 3;
  for (int y = 0; y < r->frame.rows; y++)
    {
      uchar *p = r->frame.ptr<uchar> (y);
      const int8_t *n = r->noise_scaled.ptr<int8_t> (y + oy) + 3 * ox;
      for (int i = 0; i < len; i++)
        {
          int v = p[i] + n[i];
          p[i] = (uchar) (v < 0 ? 0 : v > 255 ? 255 : v);
        }
    }
}

// A specular highlight: white added with weight min(1, 3 exp(-d^2 / 2s^2)),
// so a disc of radius `core_px` is saturated (s = core_px / sqrt(2 ln 3))
// and the halo fades out by about twice that radius, as on glossy film.
void
draw_glare (cv::Mat &frame, double cu, double cv_, double core_px)
{
  constexpr double kPeak = 3.0;
  double sigma = std::max (core_px, 0.5) / std::sqrt (2 * std::log (kPeak));
  double reach = 3.0 * sigma;
  int x0 = std::max (0, (int) std::floor (cu - reach));
  int x1 = std::min (frame.cols - 1, (int) std::ceil (cu + reach));
  int y0 = std::max (0, (int) std::floor (cv_ - reach));
  int y1 = std::min (frame.rows - 1, (int) std::ceil (cv_ + reach));
  double k = 1.0 / (2 * sigma * sigma);
  for (int y = y0; y <= y1; y++)
    {
      uchar *row = frame.ptr<uchar> (y);
      double dy = y + 0.5 - cv_;
      for (int x = x0; x <= x1; x++)
        {
          double dx = x + 0.5 - cu;
          double a = kPeak * std::exp (-(dx * dx + dy * dy) * k);
          if (a < 1.0 / 256)
            continue;
          int w = a >= 1 ? 256 : (int) (a * 256);
          uchar *p = row + 3 * x;
          for (int c = 0; c < 3; c++)
            p[c] = (uchar) (p[c] + (((255 - p[c]) * w) >> 8));
        }
    }
}

// The glare a card's scene line asks for, on the sticker it shows now
// (shifted by dx, dy image px): the spot's centre is given in modules of the
// symbol, its size in modules.
void
draw_object_glare (const Camera &cam, cv::Mat &frame, const VisSceneObject &o, const Tex &t,
                   const ObjState &st, double dx = 0, double dy = 0)
{
  double n = t.modules, m = t.code_mm / n;
  double mx, my;
  switch (o.glare)
    {
    case VIS_GLARE_FINDER_TL: mx = 3.5; my = 3.5; break;
    case VIS_GLARE_FINDER_TR: mx = n - 3.5; my = 3.5; break;
    case VIS_GLARE_FINDER_BL: mx = 3.5; my = n - 3.5; break;
    // The lower right block holds data modules only (version 1 has no
    // alignment pattern); its centre is 5.5 modules from the format bits.
    case VIS_GLARE_DATA: mx = n - 6.5; my = n - 6.5; break;
    case VIS_GLARE_AT: mx = o.glare_mx; my = o.glare_my; break;
    default: return;
    }
  double lx = t.code_x + (mx - n / 2) * m - t.anchor_x;
  double ly = t.code_y + (my - n / 2) * m - t.anchor_y;
  double c = std::cos (deg2rad (st.rot)), s = std::sin (deg2rad (st.rot));
  double x = st.x + c * lx - s * ly, y = st.y + s * lx + c * ly;
  double u, v, w;
  project (cam.H, x, y, &u, &v, &w);
  if (w > 0)
    draw_glare (frame, u + dx, v + dy, image_scale_at (cam, x, y) * m * o.glare_modules / 2);
}

// A card sliding during the exposure: the card (with its glare) drawn at
// one position per pixel of its path, image offsets (ax, ay) to (bx, by),
// over what lay beneath, and averaged.  The box covers both ends of the
// path; `under` keeps what the card hides.
void
draw_moving_object (VisRenderer *r, const Camera &cam, const VisSceneObject &o, const Tex &t,
                    const ObjState &st, double ax, double ay, double bx, double by)
{
  cv::Rect box = object_box (object_to_image (r, cam, t, st, ax, ay), t, r->frame)
                 | object_box (object_to_image (r, cam, t, st, bx, by), t, r->frame);
  if (box.empty ())
    return;
  r->under.create (r->frame.size (), CV_8UC3);
  r->acc.create (r->frame.size (), CV_16UC3);
  r->frame (box).copyTo (r->under (box));
  r->acc (box).setTo (cv::Scalar::all (0));
  // The sums are 16 bits: at most 257 samples of 255 (longer paths get
  // samples further apart than a pixel).
  int n = std::clamp ((int) std::ceil (std::hypot (bx - ax, by - ay)) + 1, 2, 257);
  for (int k = 0; k < n; k++)
    {
      double f = (double) k / (n - 1);
      double dx = ax + f * (bx - ax), dy = ay + f * (by - ay);
      if (k > 0)
        r->under (box).copyTo (r->frame (box));
      warp_object (r, cam, t, st, dx, dy);
      draw_object_glare (cam, r->frame, o, t, st, dx, dy);
      for (int y = box.y; y < box.y + box.height; y++)
        {
          const uchar *p = r->frame.ptr<uchar> (y) + 3 * box.x;
          uint16_t *a = r->acc.ptr<uint16_t> (y) + 3 * box.x;
          for (int i = 0; i < 3 * box.width; i++)
            a[i] = (uint16_t) (a[i] + p[i]);
        }
    }
  for (int y = box.y; y < box.y + box.height; y++)
    {
      uchar *p = r->frame.ptr<uchar> (y) + 3 * box.x;
      const uint16_t *a = r->acc.ptr<uint16_t> (y) + 3 * box.x;
      for (int i = 0; i < 3 * box.width; i++)
        p[i] = (uchar) ((a[i] + n / 2) / n);
    }
}

// Camera shake during the exposure: the frame averaged along a line of
// `motion_px` pixels.  The line is rasterised once into integer taps with
// weights summing to 256 (rebuilt when length or angle change); each tap
// adds a shifted copy, edges replicated.
void
apply_frame_motion (VisRenderer *r)
{
  const VisDegrade &d = r->degrade;
  if (r->motion_key[0] != d.motion_px || r->motion_key[1] != d.motion_angle)
    {
      double ca = std::cos (deg2rad (d.motion_angle)), sa = std::sin (deg2rad (d.motion_angle));
      int steps = 4 * (int) std::ceil (d.motion_px) + 1;
      r->n_taps = 0;
      for (int k = 0; k < steps; k++)
        {
          double f = (double) k / (steps - 1) - 0.5;
          int tx = (int) std::lround (f * d.motion_px * ca), ty = (int) std::lround (f * d.motion_px * sa);
          int j = 0;
          while (j < r->n_taps && (r->taps[j].dx != tx || r->taps[j].dy != ty))
            j++;
          if (j == r->n_taps)
            r->taps[r->n_taps++] = MotionTap { tx, ty, 0 };
          r->taps[j].w++;
        }
      // Integer weights summing to 256: the remainder goes to the first taps.
      int total = 0;
      for (int j = 0; j < r->n_taps; j++)
        {
          r->taps[j].w = r->taps[j].w * 256 / steps;
          total += r->taps[j].w;
        }
      for (int j = 0; total < 256; j = (j + 1) % r->n_taps, total++)
        r->taps[j].w++;
      r->motion_key[0] = d.motion_px;
      r->motion_key[1] = d.motion_angle;
    }
  r->acc.create (r->frame.size (), CV_16UC3);
  int w = r->frame.cols, h = r->frame.rows;
  for (int y = 0; y < h; y++)
    {
      uint16_t *a = r->acc.ptr<uint16_t> (y);
      std::memset (a, 0, (size_t) w * 3 * sizeof *a);
      for (int j = 0; j < r->n_taps; j++)
        {
          const MotionTap &tp = r->taps[j];
          const uchar *src = r->frame.ptr<uchar> (std::clamp (y + tp.dy, 0, h - 1));
          int lo = std::clamp (-tp.dx, 0, w), hi = std::clamp (w - tp.dx, 0, w);
          for (int x = 0; x < lo; x++)
            for (int c = 0; c < 3; c++)
              a[3 * x + c] = (uint16_t) (a[3 * x + c] + tp.w * src[c]);
          for (int i = 3 * lo; i < 3 * hi; i++)
            a[i] = (uint16_t) (a[i] + tp.w * src[i + 3 * tp.dx]);
          for (int x = hi; x < w; x++)
            for (int c = 0; c < 3; c++)
              a[3 * x + c] = (uint16_t) (a[3 * x + c] + tp.w * src[3 * (w - 1) + c]);
        }
    }
  for (int y = 0; y < h; y++)
    {
      uchar *p = r->frame.ptr<uchar> (y);
      const uint16_t *a = r->acc.ptr<uint16_t> (y);
      for (int i = 0; i < 3 * w; i++)
        p[i] = (uchar) ((a[i] + 128) >> 8);
    }
}

// Every object present, in drawing order, with its glare and smear; then
// the table's glare.
void
draw_objects (VisRenderer *r, const Camera &cam)
{
  const VisScene *s = r->scene;
  // Draw order: by z (placement order), ties by file order.
  std::sort (r->order.begin (), r->order.end (), [r] (unsigned a, unsigned b) {
    return r->state[a].z != r->state[b].z ? r->state[a].z < r->state[b].z : a < b;
  });
  for (unsigned i : r->order)
    {
      const ObjState &st = r->state[i];
      if (!st.present)
        continue;
      const ObjectInfo &in = r->info[i];
      const Tex &tex = r->textures[st.up || in.back < 0 ? in.face : in.back];
      const VisSceneObject &o = s->objects[i];
      // The smear: the card's own motion= centred on it, plus the path it
      // slid along during the exposure (ending where it is now).
      double ca = std::cos (deg2rad (o.motion_angle)), sa = std::sin (deg2rad (o.motion_angle));
      double ax = -o.motion_px / 2 * ca, ay = -o.motion_px / 2 * sa;
      double bx = -ax, by = -ay;
      if (r->degrade.exposure > 0)
        {
          const ObjState &before = r->state_before[i];
          double u0, v0, u1, v1;
          project (cam.H, before.x, before.y, &u0, &v0);
          project (cam.H, st.x, st.y, &u1, &v1);
          ax -= u1 - u0;
          ay -= v1 - v0;
        }
      if (std::hypot (bx - ax, by - ay) >= 0.5)
        draw_moving_object (r, cam, o, tex, st, ax, ay, bx, by);
      else
        {
          warp_object (r, cam, tex, st);
          // The highlight lies on this sticker: cards laid on top cover it.
          draw_object_glare (cam, r->frame, o, tex, st);
        }
    }
  if (r->degrade.glare)
    {
      double u, v, w;
      project (cam.H, r->degrade.glare_x, r->degrade.glare_y, &u, &v, &w);
      if (w > 0)
        draw_glare (r->frame, u, v,
                    image_scale_at (cam, r->degrade.glare_x, r->degrade.glare_y) * r->degrade.glare_mm / 2);
    }
}

EngStatus
render_impl (VisRenderer *r, double t_s, VisImage *out, VisTruth *truth)
{
  const VisScene *s = r->scene;
  if (out == nullptr || out->data == nullptr || out->width != s->width || out->height != s->height
      || (out->format != VIS_PIXEL_BGR8 && out->format != VIS_PIXEL_GRAY8)
      || out->stride < (size_t) out->width * (size_t) vis_pixel_format_bpp (out->format))
    return ENG_ERR_INVALID_ARGUMENT;
  if (!std::isfinite (t_s))
    return ENG_ERR_INVALID_ARGUMENT;
  t_s = std::clamp (t_s, 0.0, s->duration);
  evaluate (r, t_s);
  if (r->degrade.exposure > 0)
    {
      // Where the cards were when the shutter opened (the camera is taken
      // as still during the exposure).
      evaluate (r, std::max (0.0, t_s - r->degrade.exposure));
      r->state_before = r->state;   // same size: no allocation
      evaluate (r, t_s);
    }
  Camera cam;
  camera_from_pose (s, r->pose, &cam);
  update_background (r, cam);
  r->background.copyTo (r->frame);
  draw_objects (r, cam);
  uint64_t fseed = splitmix64 (r->seed ^ splitmix64 ((uint64_t) std::llround (t_s * 1e6)));
  cv::RNG rng (fseed);
  for (int h = 0; h < r->n_hands; h++)
    {
      uint64_t hs = splitmix64 (r->seed + (uint64_t) h);
      cv::Scalar skin (110 + (double) (hs % 40), 150 + (double) ((hs >> 8) % 30),
                       200 + (double) ((hs >> 16) % 40));
      draw_hand (r, cam, r->hands[h], skin);
    }
  if (truth != nullptr)
    fill_truth (r, cam, truth, t_s);
  if (cam.distorted)
    {
      update_distortion_map (r, cam);
      apply_distortion (r);
    }
  if (r->degrade.light > 0)
    {
      update_gain (r);
      apply_gain (r);
    }
  if (r->degrade.motion_px >= 0.5)
    apply_frame_motion (r);
  if (r->degrade.blur > 0.05)
    cv::GaussianBlur (r->frame, r->frame, cv::Size (0, 0), r->degrade.blur);
  if (r->degrade.noise > 0)
    apply_noise (r, rng);
  r->last_jpeg = false;
  if (r->degrade.jpeg > 0)
    {
      r->jpeg_params.assign ({ cv::IMWRITE_JPEG_QUALITY, r->degrade.jpeg });
      cv::imencode (".jpg", r->frame, r->jpeg_buf, r->jpeg_params);
      cv::imdecode (r->jpeg_buf, cv::IMREAD_COLOR, &r->frame);
      r->last_jpeg = true;
    }
  r->have_frame = true;
  if (out->format == VIS_PIXEL_BGR8)
    {
      cv::Mat dst (s->height, s->width, CV_8UC3, out->data, out->stride);
      r->frame.copyTo (dst);
    }
  else
    {
      cv::Mat dst (s->height, s->width, CV_8UC1, out->data, out->stride);
      cv::cvtColor (r->frame, dst, cv::COLOR_BGR2GRAY);
    }
  return ENG_OK;
}

EngStatus
renderer_init (VisRenderer *r)
{
  const VisScene *s = r->scene;
  double scale = max_image_scale (s);
  r->tex_ppm = std::clamp (std::ceil (scale * 1.6 * 2) / 2, 2.0, 12.0);
  std::unordered_map<std::string, int> by_payload;
  r->info.resize (s->n_objects);
  r->state.resize (s->n_objects);
  r->state_before.resize (s->n_objects);
  r->order.resize (s->n_objects);
  for (unsigned i = 0; i < s->n_objects; i++)
    {
      r->order[i] = i;
      const VisSceneObject &o = s->objects[i];
      for (int side = 0; side < (o.kind == VIS_OBJ_CARD ? 2 : 1); side++)
        {
          bool up = side == 0;
          char payload[VIS_TRUTH_PAYLOAD_MAX];
          if (!vis_scene_object_payload (s, &o, up, payload, sizeof payload))
            return ENG_ERR_INVALID_ARGUMENT;
          // Faces of one serial and backs of one deck look alike: share them
          // (keyed by kind too, so a card face never reuses a bare sticker).
          std::string key = std::to_string ((int) o.kind) + ":" + payload + ":"
                            + std::to_string (vis_scene_object_sticker_mm (s, &o))
                            + ":" + std::to_string (o.off_x) + "," + std::to_string (o.off_y);
          auto it = by_payload.find (key);
          int index;
          if (it != by_payload.end ())
            index = it->second;
          else
            {
              Tex t;
              if (!build_texture (r, o, up, &t))
                return ENG_ERR_INVALID_ARGUMENT;
              cv::transpose (t.img, t.img_t);
              index = (int) r->textures.size ();
              r->textures.push_back (std::move (t));
              by_payload.emplace (key, index);
            }
          (up ? r->info[i].face : r->info[i].back) = index;
        }
    }
  build_table_texture (r);
  r->frame.create (s->height, s->width, CV_8UC3);
  r->tmp.create (s->height, s->width, CV_8UC3);
  r->noise.create (s->height + 16, (s->width + 16) * 3, CV_8S);
  cv::Mat nf (r->noise.size (), CV_32F);
  cv::RNG rng (splitmix64 (r->seed ^ 0x401feull));
  rng.fill (nf, cv::RNG::NORMAL, 0, 16);
  nf.convertTo (r->noise, CV_8S);
  r->jpeg_buf.reserve ((size_t) s->width * s->height);
  r->jpeg_params.reserve (4);
  r->poly.reserve (64);
  return ENG_OK;
}

}  // namespace

extern "C" {

EngStatus
vis_renderer_new (const VisScene *scene, uint64_t seed, VisRenderer **out)
{
  if (out == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  if (scene == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  if (vis_scene_needs_card_set (scene))
    return ENG_ERR_STATE;
  VisRenderer *r = new (std::nothrow) VisRenderer ();
  if (r == nullptr)
    return ENG_ERR_NO_MEMORY;
  r->scene = scene;
  r->seed = seed != 0 ? seed : scene->seed;
  EngStatus st;
  try
    {
      st = renderer_init (r);
    }
  catch (const std::bad_alloc &)
    {
      st = ENG_ERR_NO_MEMORY;
    }
  catch (const cv::Exception &)
    {
      st = ENG_ERR_NO_MEMORY;
    }
  if (st != ENG_OK)
    {
      delete r;
      return st;
    }
  *out = r;
  return ENG_OK;
}

void
vis_renderer_free (VisRenderer *renderer)
{
  delete renderer;
}

EngStatus
vis_renderer_render (VisRenderer *renderer, double t_s, VisImage *out, VisTruth *truth)
{
  if (renderer == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  try
    {
      return render_impl (renderer, t_s, out, truth);
    }
  catch (const std::bad_alloc &)
    {
      return ENG_ERR_NO_MEMORY;
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_NO_MEMORY;
    }
}

EngStatus
vis_renderer_save_last (VisRenderer *r, const char *path)
{
  if (r == nullptr || path == nullptr || !r->have_frame)
    return ENG_ERR_INVALID_ARGUMENT;
  try
    {
      bool jpg = std::strcmp (r->scene->format, "jpg") == 0;
      if (jpg && r->last_jpeg)
        {
          // The frame already went through JPEG: write those very bytes
          // rather than compressing twice.
          FILE *f = std::fopen (path, "wb");
          if (f == nullptr)
            return ENG_ERR_IO;
          size_t n = std::fwrite (r->jpeg_buf.data (), 1, r->jpeg_buf.size (), f);
          bool ok = n == r->jpeg_buf.size ();
          ok = (std::fclose (f) == 0) && ok;
          return ok ? ENG_OK : ENG_ERR_IO;
        }
      std::vector<int> params;
      if (jpg)
        params = { cv::IMWRITE_JPEG_QUALITY, 95 };
      else
        params = { cv::IMWRITE_PNG_COMPRESSION, 1 };
      return cv::imwrite (path, r->frame, params) ? ENG_OK : ENG_ERR_IO;
    }
  catch (const std::bad_alloc &)
    {
      return ENG_ERR_NO_MEMORY;
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_IO;
    }
}

EngStatus
vis_truth_write_json (const VisTruth *truth, unsigned frame, FILE *out)
{
  if (truth == nullptr || out == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  static const char *const kinds[] = { "card", "anchor", "seat", "foreign", "command" };
  std::fprintf (out, "{\"frame\":%u,\"t\":%.4f,\"tags\":[", frame, truth->t_s);
  for (unsigned i = 0; i < truth->n_tags; i++)
    {
      const VisTruthTag &t = truth->tags[i];
      std::fprintf (out, "%s{\"id\":\"%s\",\"payload\":\"", i ? "," : "", t.id);
      for (const char *p = t.payload; *p; p++)
        {
          unsigned char c = (unsigned char) *p;
          if (c == '"' || c == '\\')
            std::fprintf (out, "\\%c", c);
          else if (c < 0x20)
            std::fprintf (out, "\\u%04x", c);
          else
            std::fputc (c, out);
        }
      std::fprintf (out, "\",\"kind\":\"%s\",\"face\":\"%s\",\"corners\":[", kinds[t.kind],
                    t.face_up ? "up" : "down");
      for (int k = 0; k < 4; k++)
        std::fprintf (out, "%s[%.2f,%.2f]", k ? "," : "", t.corners[k][0], t.corners[k][1]);
      std::fprintf (out, "],\"table_mm\":[%.2f,%.2f],\"rotation_deg\":%.2f,\"module_px\":%.2f,"
                    "\"in_view\":%s,\"occluded\":%s,\"visible\":%.2f}",
                    t.table_x_mm, t.table_y_mm, t.rotation_deg, t.module_px,
                    t.in_view ? "true" : "false", t.occluded ? "true" : "false",
                    t.visible_fraction);
    }
  std::fprintf (out, "],\"truncated\":%s,\"homography\":[", truth->truncated ? "true" : "false");
  for (int i = 0; i < 3; i++)
    std::fprintf (out, "%s[%.9g,%.9g,%.9g]", i ? "," : "", truth->table_to_image[i][0],
                  truth->table_to_image[i][1], truth->table_to_image[i][2]);
  std::fprintf (out, "]}\n");
  return std::ferror (out) ? ENG_ERR_IO : ENG_OK;
}

}  // extern "C"
