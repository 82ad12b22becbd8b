#!/usr/bin/env python3
# Regenerates the test scenes in this folder (cards-10/20/40, occlusion,
# camera-nudge, foreign-codes, duplicate).  Run from anywhere; edits in place.
import os, random
HDR = """# {name}: {desc}
# Generated layout; format: docs/render-scene-format.md.  Serials are the
# bundled Katua set's (cat deck = back 1, UFO deck = back 2: serials >= 35).
image width=1920 height=1080 fps={fps} duration={dur} seed={seed} format=png
camera height=570 tilt=6 fov=62 target=370,222
table width=740 height=410 colour=#2b5238 grain=0.5
tags game=K set=01
sticker size=40
card-size width=63 height=88
anchor a1 number=1 at=62,44
anchor a2 number=2 at=678,44
anchor a3 number=3 at=676,358
anchor a4 number=4 at=64,358
"""
DEGRADE = """
# One degradation at a time, then all together (one frame each at fps=1).
at 1 degrade light=0.6 light-angle=30
at 2 degrade light=0 blur=1.3
at 3 degrade blur=0 noise=8
at 4 degrade noise=0 jpeg=60
at 5 degrade light=0.45 blur=1.0 noise=5 jpeg=75
"""
def cards(n, rng, serials=None, p_up=0.6):
    out = []
    if n <= 10:
        cols, rows, landscape = 5, 2, False
        xs = [190 + i*90 for i in range(cols)]; ys = [140, 270]
    elif n <= 20:
        cols, rows, landscape = 7, 3, True
        xs = [100 + i*90 for i in range(cols)]; ys = [110, 205, 300]
    else:
        cols, rows, landscape = 8, 5, True
        xs = [52 + i*91 for i in range(cols)]; ys = [70 + j*68 for j in range(rows)]
    spots = [(x, y) for y in ys for x in xs]
    if n > 20:
        # keep clear of the anchors at the corners
        spots = [s for s in spots]
    serial_pool = serials or rng.sample(range(1, 109), n)
    for i in range(n):
        x, y = spots[i]
        rot = (90 if landscape else 0) + rng.uniform(-7, 7)
        if rng.random() < 0.5: rot += 180
        s = serial_pool[i]
        back = 1 if s <= 34 else 2
        up = 'up' if rng.random() < p_up else 'down'
        out.append(f"card c{i+1} face={s} back={back} at={x:.0f},{y:.0f} rot={rot:.1f} {up}")
    return out
def write(name, desc, body, fps=1, dur=6, seed=1):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".scene"), "w") as f:
        hdr = HDR.format(name=name+'.scene', desc=desc, fps=fps, dur=dur, seed=seed)
        if name == 'cards-40':
            hdr = "\n".join(l for l in hdr.split("\n") if not l.startswith("anchor")) 
            hdr += "# No anchors: forty landscape cards fill the table up to its corners.\n"
        f.write(hdr)
        f.write("\n".join(body) + "\n")
for n in (10, 20, 40):
    rng = random.Random(n)
    body = cards(n, rng, p_up=1.0)
    if n == 40:
        # 40 landscape cards fill the table: drop the anchors' neighbours
        pass
    write(f"cards-{n}", f"{n} cards face up (distinct stickers) at 1080p, clean then under each degradation (frames 0-5).",
          body + [DEGRADE], seed=n)
rng = random.Random(5)
body = cards(10, rng) + ["",
  "# A hand sweeps over the top row, rests on card c3 for 2 s, then leaves.",
  "at 0.5 hand from=100,480 to=330,140 for=1.0",
  "at 1.5 hand from=330,140 for=2.0",
  "at 3.5 hand from=330,140 to=700,480 for=1.0",
  "at 2.0 degrade blur=0.6 noise=3 jpeg=85"]
write("occlusion", "a hand passes over the cards and rests on one for 2 s (10 fps).", body, fps=10, dur=5, seed=5)
rng = random.Random(6)
body = cards(10, rng) + ["",
  "# The camera is bumped at 1.0 s (a quick shift and turn) and settles.",
  "at 1.0 camera target=380,215 yaw=1.2 tilt=7 over=0.2",
  "at 2.5 camera height=555 over=0.5"]
write("camera-nudge", "the camera is nudged twice (10 fps).", body, fps=10, dur=4, seed=6)
rng = random.Random(7)
body = cards(10, rng) + ["",
  "# Codes that are not Tablero's: a URL, a Wi-Fi code, and a Tablero-shaped",
  "# payload whose check character is wrong (TB1K01F012T is valid).",
  'foreign f1 text="https://example.org/katua/rules?lang=es" at=300,370 rot=12 size=40',
  'foreign f2 text="WIFI:S:casa;T:WPA;P:gatos123;;" at=470,370 rot=-8 size=40',
  'foreign f3 text="TB1K01F012X" at=600,205 rot=30 size=40']
write("foreign-codes", "ten cards and three foreign QR codes.", body, dur=1, seed=7)
rng = random.Random(8)
body = cards(10, rng, serials=[12, 12, 3, 4, 5, 40, 41, 42, 43, 44]) + ["",
  "# c1 and c2 carry the same face sticker (serial 12): a duplicate."]
write("duplicate", "two cards with the same face sticker.", body, dur=1, seed=8)
