# render-table.py: the physically rendered test table (issue 22).
#
# Builds tables with Blender's Cycles, a renderer the project did not write:
# cards carrying sealed stickers drawn by the project's own sticker code
# (make-stickers, built with the tests), laminated (glossy) and matte, on a
# wooden or felt table, lit by a ceiling lamp and a window, seen by a
# webcam-like camera (a small sensor's field of view and depth of field,
# tilt), with hands and mugs over some cards.  Each frame then goes through
# a camera's pipeline: auto exposure on the whole frame, sensor noise (shot
# and read), the lens's softness, clipping, gamma and JPEG.  The truth comes
# from the scene's own geometry: every sticker's symbol corners projected
# into the image and how much of its code the camera sees (rays cast).
#
#   blender -b --factory-startup -P tests/vision/physical/render-table.py -- \
#       --tool build/tests/vision/make-stickers --out tests/vision/physical/frames \
#       [--only PREFIX] [--samples N] [--scale F]
#
# (TABLERO_DATADIR must point at data/ for the tool.)  Writes OUT/NAME.jpg
# and OUT/NAME.truth per frame.  Cycles on two shared cores is slow: the
# frames are rendered once and committed; CI only reads them
# (tests/vision/test-physical.c).  Debian's Blender 3.4 has no denoiser, so
# samples are kept moderate and direct/indirect light clamped; what path
# tracing noise remains is far below the sensor noise added afterwards.
#
# Shots (all deterministic from their seed):
#   close-NN  1920x1080, camera 0.42-0.62 m, 2.6-5 px a module, 6-12 cards
#   table-NN  1920x1080, camera 0.80-1.00 m, a 70-78 degree webcam over a
#             4-player table, 1.5-2.5 px a module, 30-40 cards
#   far-NN    1920x1080, camera 1.05-1.25 m: 1.5-1.9 px a module, a cheaper
#             webcam (lens sigma 0.8-1.1 px, 1.6 times the noise, JPEG 70-80)
#   uhd-NN    3840x2160, the same tables seen by a 4K webcam
#   katua-NN  2560x1440, one Katua turn (tests/live/scripts/katua-2p-basic)
#             filmed at 0.9 m: the scene tablero-cli scene makes of it
#
# table-00, -03, -06 and -09 also get three further frames of the same
# still table (new sensor noise and JPEG each, the exposure kept) in
# OUT/still/NAME-K.jpg, for fusing frames.
#
# Truth lines (NAME.truth):
#   frame NAME WIDTH HEIGHT
#   sticker TAG FINISH IN_VIEW VISIBLE MODULE_PX X0 Y0 X1 Y1 X2 Y2 X3 Y3
# TAG is the 11-character tag a reader must report, or '-' for a sticker no
# reader may take (a forged seal, the old unsealed format); FINISH glossy or
# matte; IN_VIEW 1 when the whole symbol is inside the frame; VISIBLE the
# fraction of the code (symbol and quiet zone, 11x11 rays) the camera sees;
# corners TL TR BR BL of the symbol as printed, image px (pixel centres at
# +0.5).

import math
import os
import random
import subprocess
import sys
import zlib

import bpy
import numpy as np
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector
from PIL import Image

CARD_W, CARD_H, CARD_T = 0.063, 0.088, 0.0004
STICKER_MM = 40.0


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    a = {"tool": None, "out": None, "only": "", "samples": 48, "scale": 1.0, "katua": None}
    i = 0
    while i < len(argv):
        k = argv[i].lstrip("-")
        a[k] = argv[i + 1]
        i += 2
    a["samples"] = int(a["samples"])
    a["scale"] = float(a["scale"])
    if not a["tool"] or not a["out"]:
        raise SystemExit("usage: ... -- --tool MAKE_STICKERS --out DIR [--only P] [--samples N]")
    return a


# ---------------------------------------------------------------- stickers

class Stickers:
    """Sticker images made by the project's code, by spec (K01F034...)."""

    def __init__(self, tool, workdir):
        self.tool, self.dir, self.info, self.images = tool, workdir, {}, {}
        os.makedirs(workdir, exist_ok=True)

    def want(self, specs):
        missing = sorted(set(s for s in specs if s not in self.info))
        for i in range(0, len(missing), 64):
            out = subprocess.run([self.tool, self.dir] + missing[i:i + 64], check=True,
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                spec, name, tag, w, h, quiet, module = line.split()
                self.info[spec] = {"file": os.path.join(self.dir, name), "tag": tag,
                                   "w": float(w) / 1000, "h": float(h) / 1000,
                                   "quiet": int(quiet), "module": float(module) / 1000}

    def image(self, spec):
        if spec not in self.images:
            img = bpy.data.images.load(self.info[spec]["file"])
            img.colorspace_settings.name = "sRGB"
            self.images[spec] = img
        return self.images[spec]


# ---------------------------------------------------------------- materials

def principled(name, colour, rough, spec=0.5, coat=0.0):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    p = m.node_tree.nodes["Principled BSDF"]
    p.inputs["Base Color"].default_value = (*colour, 1)
    p.inputs["Roughness"].default_value = rough
    p.inputs["Specular"].default_value = spec
    p.inputs["Clearcoat"].default_value = coat
    p.inputs["Clearcoat Roughness"].default_value = 0.03
    return m, p


def textured(m, p, image=None, noise_scale=None, colours=None, bump=0.0, wave=False):
    nt = m.node_tree
    if image is not None:
        tex = nt.nodes.new("ShaderNodeTexImage")
        tex.image = image
        tex.interpolation = "Cubic"
        nt.links.new(tex.outputs["Color"], p.inputs["Base Color"])
        return
    coord = nt.nodes.new("ShaderNodeTexCoord")
    if wave:
        src = nt.nodes.new("ShaderNodeTexWave")
        src.inputs["Scale"].default_value = noise_scale
        src.inputs["Distortion"].default_value = 6.0
        src.inputs["Detail"].default_value = 4.0
    else:
        src = nt.nodes.new("ShaderNodeTexNoise")
        src.inputs["Scale"].default_value = noise_scale
        src.inputs["Detail"].default_value = 8.0
    nt.links.new(coord.outputs["Object"], src.inputs["Vector"])
    ramp = nt.nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (*colours[0], 1)
    ramp.color_ramp.elements[1].color = (*colours[1], 1)
    nt.links.new(src.outputs["Fac"], ramp.inputs["Fac"])
    nt.links.new(ramp.outputs["Color"], p.inputs["Base Color"])
    if bump > 0:
        b = nt.nodes.new("ShaderNodeBump")
        b.inputs["Strength"].default_value = bump
        nt.links.new(src.outputs["Fac"], b.inputs["Height"])
        nt.links.new(b.outputs["Normal"], p.inputs["Normal"])


# ---------------------------------------------------------------- objects

def add_box(name, size, loc, rot_z, mat):
    bpy.ops.mesh.primitive_cube_add(size=1, location=loc)
    o = bpy.context.active_object
    o.name = name
    o.scale = size
    o.rotation_euler = (0, 0, rot_z)
    o.data.materials.append(mat)
    return o


def add_plane(name, w, h, loc, rot_z, mat):
    bpy.ops.mesh.primitive_plane_add(size=1, location=loc)
    o = bpy.context.active_object
    o.name = name
    o.scale = (w, h, 1)
    o.rotation_euler = (0, 0, rot_z)
    o.data.materials.append(mat)
    return o


class Table:
    def __init__(self, stickers, rng):
        self.stickers, self.rng = stickers, rng
        self.tags = []          # (object, spec, finish, code centre offset)
        self.cards = 0
        self.sticker_mats = {}

    def sticker_material(self, spec, glossy):
        key = (spec, glossy)
        if key not in self.sticker_mats:
            if glossy:   # laminated: a clear glossy film over the print
                m, p = principled("st-" + spec + "-g", (1, 1, 1), 0.04, 0.5, 1.0)
            else:
                m, p = principled("st-" + spec + "-m", (1, 1, 1), 0.6, 0.3, 0.0)
            textured(m, p, image=self.stickers.image(spec))
            self.sticker_mats[key] = m
        return self.sticker_mats[key]

    def sticker(self, spec, centre, rot, z, glossy, code_centre=False, square=False):
        """A sticker on top of whatever lies at z.  `centre` is the sticker's
        middle, or the code's when `code_centre`; `square` keeps only the code
        square on a square of paper (command cards, held up)."""
        info = self.stickers.info[spec]
        w, h = info["w"], info["h"]
        # code centre in the sticker's own frame (x right, y up, origin middle)
        cy = h / 2 - w / 2
        c, s = math.cos(rot), math.sin(rot)
        if code_centre:
            mx, my = centre[0] - (-s * cy), centre[1] - (c * cy)
        else:
            mx, my = centre
        o = add_plane("sticker", w, h, (mx, my, z + 0.00012), rot, self.sticker_material(spec, glossy))
        if square:
            # crop to the code square: move the UVs and the plane
            o.scale = (w, w, 1)
            o.location = (mx + (-s * cy), my + c * cy, z + 0.00012)
            uv = o.data.uv_layers.active.data
            for loop in uv:
                u, v = loop.uv
                loop.uv = (u, 1 - (1 - v) * (w / h))
        self.tags.append((o, spec, "glossy" if glossy else "matte", w, h, square))
        return o

    def card(self, centre, rot, z, face_colour, spec, glossy, corner=True, code_centre=False):
        """A card with its sticker in a corner (or its code at the centre)."""
        art = tuple(min(1, max(0, x)) for x in face_colour)
        m, p = principled("card", (0.9, 0.9, 0.88), 0.45, 0.4)
        textured(m, p, noise_scale=self.rng.uniform(4, 12), colours=[(0.92, 0.91, 0.88), art])
        add_box("card", (CARD_W, CARD_H, CARD_T), (centre[0], centre[1], z + CARD_T / 2), rot, m)
        info = self.stickers.info[spec]
        if corner:
            # top-left corner of the card, 2.5 mm in
            lx = -CARD_W / 2 + 0.0025 + info["w"] / 2
            ly = CARD_H / 2 - 0.0025 - info["h"] / 2
            c, s = math.cos(rot), math.sin(rot)
            sc = (centre[0] + c * lx - s * ly, centre[1] + s * lx + c * ly)
            self.sticker(spec, sc, rot, z + CARD_T, glossy)
        else:
            self.sticker(spec, centre, rot, z + CARD_T, glossy, code_centre=code_centre)
        self.cards += 1


def add_hand(rng, at, angle, height, scale=1.0):
    """A hand from primitives: palm, four fingers, a thumb and the forearm,
    skin with some subsurface.  `angle`: where the forearm leaves to."""
    m, p = principled("skin", (0.78, 0.55, 0.45), 0.5, 0.4)
    p.inputs["Subsurface"].default_value = 0.08
    parts = []
    ca, sa = math.cos(angle), math.sin(angle)
    fwd = Vector((-ca, -sa, 0))         # fingers point away from the arm
    side = Vector((-sa, ca, 0))
    base = Vector((at[0], at[1], height))
    bpy.ops.mesh.primitive_uv_sphere_add(radius=1, location=base)
    palm = bpy.context.active_object
    palm.scale = (0.05 * scale, 0.045 * scale, 0.014 * scale)
    palm.rotation_euler = (0, 0, angle)
    parts.append(palm)
    for k in range(4):
        off = (k - 1.5) * 0.02 * scale
        length = (0.07 + (0.01 if k in (1, 2) else 0)) * scale
        start = base + fwd * 0.045 * scale + side * off
        mid = start + fwd * length / 2 - Vector((0, 0, 0.01 * rng.random()))
        bpy.ops.mesh.primitive_cylinder_add(radius=0.0085 * scale, depth=length, location=mid)
        f = bpy.context.active_object
        f.rotation_euler = (0, math.pi / 2, angle + math.pi)
        parts.append(f)
    thumb = base + side * 0.05 * scale + fwd * 0.01 * scale
    bpy.ops.mesh.primitive_cylinder_add(radius=0.011 * scale, depth=0.06 * scale, location=thumb)
    t = bpy.context.active_object
    t.rotation_euler = (0, math.pi / 2, angle + math.pi + 0.7)
    parts.append(t)
    arm_len = 0.35
    arm_mid = base - fwd * (0.05 * scale + arm_len / 2) + Vector((0, 0, arm_len / 2 * 0.35))
    bpy.ops.mesh.primitive_cylinder_add(radius=0.03 * scale, depth=arm_len, location=arm_mid)
    a = bpy.context.active_object
    tilt = math.atan2(0.35, 1)
    a.rotation_euler = (0, math.pi / 2 - tilt, angle)
    parts.append(a)
    for o in parts:
        o.data.materials.append(m)
        o.name = "hand"


def add_mug(rng, at, colour):
    m, p = principled("mug", colour, 0.08, 0.6, 0.5)
    bpy.ops.mesh.primitive_cylinder_add(radius=0.041, depth=0.095, location=(at[0], at[1], 0.0475 + 0.001))
    mug = bpy.context.active_object
    mug.data.materials.append(m)
    mug.name = "mug"
    bpy.ops.object.shade_smooth()
    bpy.ops.mesh.primitive_torus_add(major_radius=0.025, minor_radius=0.006,
                                     location=(at[0] + 0.045, at[1], 0.05),
                                     rotation=(math.pi / 2, 0, rng.uniform(0, 2 * math.pi)))
    h = bpy.context.active_object
    h.data.materials.append(m)
    h.name = "mug"


def table_surface(rng, felt):
    if felt:
        m, p = principled("felt", (0.1, 0.3, 0.15), 0.95, 0.1)
        p.inputs["Sheen"].default_value = 0.6
        textured(m, p, noise_scale=300, colours=[(0.07, 0.22, 0.11), (0.12, 0.34, 0.18)], bump=0.2)
    else:
        m, p = principled("wood", (0.4, 0.25, 0.12), 0.35, 0.5, 0.3)
        tone = rng.uniform(0.7, 1.2)
        textured(m, p, noise_scale=rng.uniform(2, 5), colours=[(0.30 * tone, 0.17 * tone, 0.08 * tone),
                                                                (0.55 * tone, 0.36 * tone, 0.19 * tone)],
                 bump=0.05, wave=True)
    add_plane("table", 2.4, 1.8, (0, 0, 0), 0, m)


def lights(rng, lamp_xy, lamp_h, window, lamp_radius):
    bpy.ops.object.light_add(type="POINT", location=(lamp_xy[0], lamp_xy[1], lamp_h))
    lamp = bpy.context.active_object
    lamp.data.energy = rng.uniform(100, 180) * (lamp_h / 1.5) ** 2
    lamp.data.shadow_soft_size = lamp_radius
    lamp.data.color = (1.0, 0.92, 0.8)
    if window:
        side = rng.choice([-1, 1])
        bpy.ops.object.light_add(type="AREA", location=(side * 1.6, rng.uniform(-0.5, 0.5), 1.1))
        win = bpy.context.active_object
        win.data.shape = "RECTANGLE"
        win.data.size, win.data.size_y = 1.2, 1.0
        win.data.energy = rng.uniform(300, 600)
        win.data.color = (0.85, 0.92, 1.0)
        d = Vector((0, 0, 0)) - win.location
        win.rotation_euler = d.to_track_quat("-Z", "Y").to_euler()
    world = bpy.context.scene.world
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (0.6, 0.6, 0.6, 1)
    bg.inputs["Strength"].default_value = rng.uniform(0.1, 0.3)


def camera(width, height, hfov_deg, target, height_m, tilt_deg, yaw_deg, focus_err=0.0):
    """A webcam: a 1/2.9-inch sensor (5.6 mm across) behind a lens of the
    given field of view at f/2, focused on the target (give or take
    focus_err m).  It stands on the near side (-y) and tilts away."""
    sc = bpy.context.scene
    sc.render.resolution_x, sc.render.resolution_y = width, height
    sc.render.resolution_percentage = 100
    bpy.ops.object.camera_add()
    cam = bpy.context.active_object
    sc.camera = cam
    sensor = 5.6
    cam.data.sensor_fit = "HORIZONTAL"
    cam.data.sensor_width = sensor
    cam.data.lens = sensor / 2 / math.tan(math.radians(hfov_deg) / 2)
    tilt, yaw = math.radians(tilt_deg), math.radians(yaw_deg)
    # distance along the axis, so that the camera is height_m above the table
    dist = height_m / math.cos(tilt)
    back = Vector((0, -math.sin(tilt) * dist, height_m))
    back.rotate(Matrix.Rotation(yaw, 3, "Z"))
    cam.location = Vector((target[0], target[1], 0)) + back
    cam.rotation_euler = (tilt, 0, yaw)
    cam.data.dof.use_dof = True
    cam.data.dof.focus_distance = dist + focus_err
    cam.data.dof.aperture_fstop = 2.0
    return cam


# ---------------------------------------------------------------- truth

def project(cam, p):
    sc = bpy.context.scene
    v = world_to_camera_view(sc, cam, p)
    return v.x * sc.render.resolution_x, (1 - v.y) * sc.render.resolution_y, v.z


def sticker_truth(cam, obj, w, h, square, info):
    """Corners of the symbol and the fraction of the code the camera sees."""
    q, mod = info["quiet"], info["module"]
    code = 21 * mod
    top = h / 2 - q * mod if not square else w / 2 - q * mod
    left = -w / 2 + q * mod
    mw = obj.matrix_world
    # plane local coordinates are in units of its scale: divide
    sx, sy = obj.scale[0], obj.scale[1]

    def world(x, y):
        return mw @ Vector((x / sx, y / sy, 0))

    corners = [world(left, top), world(left + code, top), world(left + code, top - code),
               world(left, top - code)]
    px = [project(cam, c) for c in corners]
    sc = bpy.context.scene
    W, H = sc.render.resolution_x, sc.render.resolution_y
    in_view = all(0 <= x <= W and 0 <= y <= H and z > 0 for x, y, z in px)
    deps = bpy.context.evaluated_depsgraph_get()
    seen = total = 0
    n = 11
    margin = q * mod * 0.9
    for i in range(n):
        for j in range(n):
            x = left - margin + (code + 2 * margin) * (i + 0.5) / n
            y = top + margin - (code + 2 * margin) * (j + 0.5) / n
            p = world(x, y)
            total += 1
            u, v, z = project(cam, p)
            if not (0 <= u < W and 0 <= v < H and z > 0):
                continue
            d = p - cam.location
            hit, loc, nrm, idx, hobj, mat = sc.ray_cast(deps, cam.location, d.normalized(),
                                                        distance=d.length + 0.001)
            if hit and hobj.name == obj.name:
                seen += 1
    side = sum(math.dist(px[k][:2], px[(k + 1) % 4][:2]) for k in range(4)) / 4
    return px, in_view, seen / total, side / 21


# ---------------------------------------------------------------- camera pipeline

def develop(exr, out_jpg, rng, noise_scale=1.0, quality=None, soft=None, gain=None):
    """Auto exposure, sensor noise, lens softness, clipping, gamma, JPEG,
    from the render's linear light (an OpenEXR file).  `gain` fixes the
    exposure (the later frames of a still table)."""
    im = bpy.data.images.load(exr)
    w, h = im.size
    buf = np.empty(w * h * 4, dtype=np.float32)
    im.pixels.foreach_get(buf)
    bpy.data.images.remove(im)
    lin = buf.reshape(h, w, 4)[::-1, :, :3].copy()   # Blender's rows run bottom-up
    # auto exposure: the frame's mean luminance to 18% grey, as a webcam's
    luma = lin @ np.array([0.2126, 0.7152, 0.0722], dtype=np.float32)
    if gain is None:
        gain = 0.18 / max(float(luma.mean()), 1e-6)
    lin = lin * gain
    nr = np.random.default_rng(rng.randrange(1 << 30))
    # shot noise (a full well of ~1500 e- at this gain) and read noise
    full = 1500.0 / noise_scale
    lin = lin + nr.standard_normal(lin.shape, dtype=np.float32) * np.sqrt(np.clip(lin, 0, None) / full)
    lin = lin + nr.standard_normal(lin.shape, dtype=np.float32) * (0.004 * noise_scale)
    lin = np.clip(lin, 0, 1)
    out = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)
    # a cheap lens: a Gaussian of sigma `soft` px, separable
    s = soft if soft is not None else rng.uniform(0.6, 0.9)
    r = int(math.ceil(3 * s))
    k = np.exp(-0.5 * (np.arange(-r, r + 1) / s) ** 2)
    k /= k.sum()
    for axis in (0, 1):
        acc = np.zeros_like(out)
        for i, kv in enumerate(k):
            acc += kv * np.roll(out, i - r, axis=axis)
        out = acc
    q = quality if quality is not None else rng.randint(75, 88)
    Image.fromarray((np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8)).save(
        out_jpg, quality=q, subsampling=2)
    return gain, q, s


# ---------------------------------------------------------------- shots

def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.use_denoising = False   # Debian builds it without OpenImageDenoise
    sc.cycles.use_adaptive_sampling = True
    sc.cycles.adaptive_threshold = 0.02
    sc.cycles.max_bounces = 4
    sc.cycles.diffuse_bounces = 2
    sc.cycles.glossy_bounces = 2
    sc.cycles.transmission_bounces = 1
    sc.cycles.transparent_max_bounces = 1
    sc.cycles.sample_clamp_direct = 0          # highlights must saturate
    sc.cycles.sample_clamp_indirect = 3.0
    sc.cycles.caustics_reflective = False
    sc.cycles.caustics_refractive = False
    sc.render.threads_mode = "FIXED"
    sc.render.threads = 2
    sc.view_settings.view_transform = "Standard"
    sc.view_settings.look = "None"
    sc.view_settings.exposure = 0.0
    # linear light, unclipped: the camera pipeline (develop) exposes it
    sc.render.image_settings.file_format = "OPEN_EXR"
    sc.render.image_settings.color_depth = "32"
    sc.render.image_settings.color_mode = "RGB"
    sc.world = bpy.data.worlds.new("world")
    STICKERS.images.clear()   # the factory settings dropped them


ART = [(0.8, 0.15, 0.1), (0.1, 0.35, 0.8), (0.95, 0.75, 0.1), (0.15, 0.6, 0.2), (0.5, 0.2, 0.6),
       (0.1, 0.1, 0.1), (0.9, 0.5, 0.1)]


def random_table(name, rng, stickers, width, height, cam_h, hfov, tilt, n_cards, glossy_share,
                 hands, mugs, window):
    reset()
    felt = rng.random() < 0.35
    table_surface(rng, felt)
    target = (rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05))
    yaw = rng.uniform(-8, 8)
    cam = camera(width, height, hfov, target, cam_h, tilt, yaw, rng.uniform(-0.03, 0.03))
    # the table area the camera sees (straight down, roughly; tilt widens the far side)
    half_w = cam_h * math.tan(math.radians(hfov) / 2) * 0.92
    half_h = half_w * height / width * 0.92
    # stickers: faces mostly unique, deck backs alike, one forged, one old,
    # one face printed twice
    faces = rng.sample(range(1, 109), n_cards)
    specs = []
    for i, f in enumerate(faces):
        r = rng.random()
        specs.append("K01B%03d" % rng.choice([1, 2]) if r < 0.2 else "K01F%03d" % f)
    specs[0] = "forged:K01F%03d" % faces[0]
    specs[1] = "old:K01F%03d" % faces[1]
    specs[2] = specs[3] if specs[3].startswith("K01F") else specs[2]
    stickers.want(specs)
    placed = []
    for spec in specs:
        for _ in range(60):
            x = target[0] + rng.uniform(-half_w + 0.04, half_w - 0.04)
            y = target[1] + rng.uniform(-half_h + 0.05, half_h - 0.05) + math.tan(math.radians(tilt)) * 0.1
            if all(math.dist((x, y), p) > 0.075 for p in placed):
                break
        placed.append((x, y))
        rot = rng.uniform(0, 2 * math.pi)
        t = Table.current
        t.card((x, y), rot, 0.0, rng.choice(ART), spec, rng.random() < glossy_share)
    for _ in range(hands):
        at = rng.choice(placed)
        add_hand(rng, (at[0] + rng.uniform(-0.03, 0.03), at[1] + rng.uniform(-0.03, 0.03)),
                 rng.uniform(0, 2 * math.pi), rng.uniform(0.04, 0.12), rng.uniform(0.9, 1.1))
    for _ in range(mugs):
        at = rng.choice(placed)
        add_mug(rng, (at[0] + rng.uniform(-0.04, 0.04), at[1] + rng.uniform(-0.04, 0.04)),
                rng.choice([(0.8, 0.8, 0.78), (0.6, 0.1, 0.1), (0.1, 0.2, 0.5)]))
    # the lamp above the table; in most frames its mirror image falls on a
    # sticker in view (a glossy one then shows the lamp), as a lamp above
    # the middle of a table does on some of its cards
    lamp_h = rng.uniform(1.2, 1.7)
    cxy = (cam.location[0], cam.location[1])
    if rng.random() < 0.7:
        p = rng.choice(placed)
        k = (cam.location[2] + lamp_h) / cam.location[2]
        lamp_xy = (cxy[0] + (p[0] - cxy[0]) * k + rng.uniform(-0.02, 0.02),
                   cxy[1] + (p[1] - cxy[1]) * k + rng.uniform(-0.02, 0.02))
    else:
        lamp_xy = (target[0] + rng.uniform(-0.3, 0.3), target[1] + rng.uniform(-0.25, 0.25))
    lights(rng, lamp_xy, lamp_h, window, rng.uniform(0.03, 0.1))
    return cam


def katua_scene(path):
    """The subset of a render scene (docs/render-scene-format.md) that
    tablero-cli scene writes: objects and events."""
    objs, events, head = {}, [], {}
    for line in open(path):
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        w = line.split()
        kv = {x.split("=", 1)[0]: x.split("=", 1)[1] for x in w if "=" in x}
        flags = [x for x in w if "=" not in x]
        if w[0] in ("anchor", "seat", "card", "command"):
            objs[w[1]] = {"kind": w[0], "kv": kv, "flags": flags}
        elif w[0] == "at":
            events.append((float(w[1]), w[2], w[3] if len(w) > 3 and "=" not in w[3] else None, kv))
        else:
            head[w[0]] = kv
    return head, objs, events


def katua_state(objs, events, t):
    """Where everything is at time t, and the hands passing."""
    st = {}
    for oid, o in objs.items():
        x, y = map(float, o["kv"]["at"].split(","))
        st[oid] = {"present": "absent" not in o["flags"], "x": x, "y": y,
                   "rot": float(o["kv"].get("rot", 0)), "up": "down" not in o["flags"]}
    hands = []
    for (T, kind, oid, kv) in sorted(events, key=lambda e: e[0]):
        if T > t:
            break
        if kind == "hand":
            fx, fy = map(float, kv["from"].split(","))
            tx, ty = map(float, kv.get("to", kv["from"]).split(","))
            d = float(kv["for"])
            if t <= T + d:
                f = (t - T) / d
                hands.append((fx + f * (tx - fx), fy + f * (ty - fy), float(kv.get("arm", 90))))
            continue
        s = st[oid]
        if kind == "place":
            s["present"] = True
            if "at" in kv:
                s["x"], s["y"] = map(float, kv["at"].split(","))
            s["rot"] = float(kv.get("rot", s["rot"]))
        elif kind == "remove":
            s["present"] = False
        elif kind == "flip":
            s["up"] = not s["up"]
        elif kind == "move":
            tx, ty = map(float, kv["to"].split(","))
            d = float(kv.get("over", 0.3))
            f = min(1.0, (t - T) / d) if d > 0 else 1.0
            s["x"] += f * (tx - s["x"])
            s["y"] += f * (ty - s["y"])
            s["rot"] += f * (float(kv.get("rot", s["rot"])) - s["rot"])
    return st, hands


KATUA_TIMES = [0.5, 2.0, 3.0, 3.4, 4.1, 4.6, 5.2, 5.7, 6.95, 7.6, 8.8, 10.0]


def katua_frame(k, rng, stickers, scene_path, width, height):
    reset()
    head, objs, events = katua_scene(scene_path)
    st, hands = katua_state(objs, events, KATUA_TIMES[k])
    table_surface(random.Random(5), False)
    # table mm (x right, y towards the near side) -> metres, centred
    cx, cy = 610.0, 690.0

    def w(x, y):
        return ((x - cx) / 1000, -(y - cy) / 1000)

    specs = {}
    for oid, o in objs.items():
        kv = o["kv"]
        if o["kind"] == "anchor":
            specs[oid] = ("K01A%03d" % int(kv["number"]), "K01A%03d" % int(kv["number"]))
        elif o["kind"] == "seat":
            specs[oid] = ("K01S%03d" % int(kv["number"]),) * 2
        elif o["kind"] == "command":
            specs[oid] = ("K01X%03d" % int(kv["number"]),) * 2
        else:
            specs[oid] = ("K01F%03d" % int(kv["face"]), "K01B%03d" % int(kv["back"]))
    stickers.want([s for pair in specs.values() for s in pair])
    t = Table.current
    glossy_rng = random.Random(77)
    for oid, o in objs.items():
        s = st[oid]
        if not s["present"]:
            continue
        spec = specs[oid][0] if s["up"] else specs[oid][1]
        rot = -math.radians(s["rot"])
        glossy = glossy_rng.random() < 0.5
        if o["kind"] == "card":
            t.card(w(s["x"], s["y"]), rot, 0.0, ART[int(o["kv"]["face"]) % len(ART)], spec, glossy,
                   corner=False, code_centre=True)
        elif o["kind"] == "command":
            t.sticker(spec, w(s["x"], s["y"]), rot, 0.0, glossy, code_centre=True, square=True)
        else:
            t.sticker(spec, w(s["x"], s["y"]), rot, 0.0, glossy, code_centre=True)
    for (hx, hy, arm) in hands:
        add_hand(rng, w(hx, hy), -math.radians(arm), 0.07)
    # a 1440p webcam 0.9 m above the middle of the play area, its width
    # along the table's length (the scene's yaw 90)
    cam = camera(width, height, 74, (0, 0), 0.9, 4, 90, 0.0)
    lights(random.Random(9), (0.15, -0.1), 1.5, True, 0.06)
    return cam


def render_shot(name, args, build):
    out_dir = args["out"]
    rng = random.Random(zlib.crc32(name.encode()))
    Table.current = Table(STICKERS, rng)
    cam = build(rng)
    sc = bpy.context.scene
    sc.cycles.samples = args["samples"]
    sc.cycles.seed = rng.randrange(1 << 16)
    if args["scale"] != 1.0:
        sc.render.resolution_percentage = int(100 * args["scale"])
    png = os.path.join(out_dir, name + ".exr")
    sc.render.filepath = png
    bpy.ops.render.render(write_still=True)
    W = int(sc.render.resolution_x * sc.render.resolution_percentage / 100)
    H = int(sc.render.resolution_y * sc.render.resolution_percentage / 100)
    if name.startswith("far"):
        # a cheaper webcam in a dimmer room: softer, noisier, more JPEG
        gain, q, soft = develop(png, os.path.join(out_dir, name + ".jpg"), rng, noise_scale=1.6,
                                quality=rng.randint(70, 80), soft=rng.uniform(0.8, 1.1))
    else:
        gain, q, soft = develop(png, os.path.join(out_dir, name + ".jpg"), rng)
    # A still table filmed: the same light, new sensor noise and JPEG in
    # every frame (what fusing frames of a sticker at rest works with).
    stills = STILLS.get(name, 0)
    if stills:
        os.makedirs(os.path.join(out_dir, "still"), exist_ok=True)
    for k in range(1, stills + 1):
        develop(png, os.path.join(out_dir, "still", "%s-%d.jpg" % (name, k)), rng, quality=q, soft=soft,
                gain=gain)
    os.remove(png)
    lines = ["frame %s %d %d" % (name, W, H),
             "# exposure gain %.2f, jpeg %d, lens sigma %.2f px, %d samples" % (gain, q, soft, args["samples"])]
    for (obj, spec, finish, w, h, square) in Table.current.tags:
        info = STICKERS.info[spec]
        px, in_view, visible, module = sticker_truth(cam, obj, w, h, square, info)
        f = args["scale"]
        lines.append("sticker %s %s %d %.3f %.3f %s" % (
            info["tag"], finish, in_view, visible, module * f,
            " ".join("%.2f %.2f" % (x * f, y * f) for x, y, z in px)))
    with open(os.path.join(out_dir, name + ".truth"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    for k in range(1, stills + 1):
        with open(os.path.join(out_dir, "still", "%s-%d.truth" % (name, k)), "w") as fh:
            fh.write("\n".join(lines) + "\n")
    print("rendered", name, flush=True)


# Shots that also get further frames of the same still table.
STILLS = {"table-00": 3, "table-03": 3, "table-06": 3, "table-09": 3}


def table_shot(width, height, cam_h, fov, tilt, cards, hands, mugs, window=None):
    """A random table: ranges for the camera's height, field of view and
    tilt, the cards (a range or a number), hands and mugs; a window in 60 %
    of frames unless `window` says."""
    def build(rng):
        return random_table(None, rng, STICKERS, width, height, rng.uniform(*cam_h), rng.uniform(*fov),
                            rng.uniform(*tilt), rng.randint(*cards) if isinstance(cards, tuple) else cards,
                            0.6, rng.randint(*hands), rng.randint(*mugs),
                            rng.random() < 0.6 if window is None else window)
    return build


TABLES = [
    ("close", 8, table_shot(1920, 1080, (0.42, 0.62), (60, 74), (0, 25), (6, 12), (0, 1), (0, 1))),
    ("table", 16, table_shot(1920, 1080, (0.8, 1.0), (70, 78), (0, 15), (30, 40), (0, 2), (0, 2))),
    ("far", 4, table_shot(1920, 1080, (1.05, 1.25), (74, 78), (0, 10), (30, 40), (0, 2), (0, 1))),
    ("uhd", 3, table_shot(3840, 2160, (0.8, 1.0), (70, 78), (0, 15), 40, (0, 2), (0, 1), True)),
]


def shots(args):
    res = []
    for prefix, count, build in TABLES:
        for k in range(count):
            res.append(("%s-%02d" % (prefix, k), build))
    if args.get("katua"):
        for k in range(len(KATUA_TIMES)):
            res.append(("katua-%02d" % k, lambda rng, k=k: katua_frame(
                k, rng, STICKERS, args["katua"], 2560, 1440)))
    return res


if __name__ == "__main__":
    ARGS = parse_args()
    os.makedirs(ARGS["out"], exist_ok=True)
    STICKERS = Stickers(ARGS["tool"], os.path.join(ARGS["out"], ".stickers"))
    for name, build in shots(ARGS):
        if name.startswith(ARGS["only"]):
            render_shot(name, ARGS, build)
