#!/usr/bin/env python3
"""opencv_clone.py -- homg's OpenCV-compatible clone against OpenCV 4's seamlessClone.

Makes the test pictures in assets/image/ (made here: smooth waves plus texture, a
mask with a hole), then for each mode runs OpenCV's seamlessClone and
`homg clone --opencv` on the same inputs and prints the largest difference in
levels and the share of pixels within +-1; with --textbook also the textbook
formulation's difference from OpenCV (several levels on textured content).
Needs OpenCV 4 for Python, for this comparison only (the library does not use it):
pip install "opencv-python-headless==4.10.0.84".  OpenCV 4.14.0's wheel is no reference:
two calls with the same inputs return pictures up to 253 levels apart (checked below:
the script says so and stops).

  tools/dev/opencv_clone.py [--homg build/homg] [--backend cpu] [--out DIR] [--textbook]
  tools/dev/opencv_clone.py --bench     OpenCV's CPU times on bench_image's cases (same formula,
                                        its own noise): 1024^2..4096^2 destinations, 10/30/60% disks
"""
import argparse
import os
import subprocess
import sys
import tempfile

import cv2
import numpy as np

MODES = {"normal": cv2.NORMAL_CLONE, "mixed": cv2.MIXED_CLONE, "mono": cv2.MONOCHROME_TRANSFER}


def make_assets(d):
    """src 96 x 80 (waves + fine texture), dst 160 x 128 (another texture), mask: a ring with a bar."""
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:80, 0:96]
    src = np.stack([128 + 90 * np.sin(x / 7.0 + c) * np.cos(y / 9.0 - c) for c in range(3)], -1)
    src += rng.normal(0, 12, src.shape)
    y, x = np.mgrid[0:128, 0:160]
    dst = np.stack([100 + 60 * np.sin((x + 2 * y) / 23.0 + 2 * c) + 30 * ((x // 8 + y // 8) % 2) for c in range(3)], -1)
    dst += rng.normal(0, 6, dst.shape)
    yy, xx = np.mgrid[0:80, 0:96]
    r = np.hypot(xx - 48, yy - 40)
    mask = ((r < 34) & (r > 9)) | ((abs(yy - 40) < 4) & (abs(xx - 48) < 44))
    paths = {n: os.path.join(d, n + ".png") for n in ("src", "dst", "mask")}
    # files hold RGB; cv2 writes BGR arrays, so reverse the channels to keep RGB on disk
    cv2.imwrite(paths["src"], np.clip(src, 0, 255).astype(np.uint8)[..., ::-1])
    cv2.imwrite(paths["dst"], np.clip(dst, 0, 255).astype(np.uint8)[..., ::-1])
    cv2.imwrite(paths["mask"], (mask * 255).astype(np.uint8))
    return paths


def picture(n, seed):
    """bench/bench_image.c's picture() formula (numpy noise instead of homg_rng)."""
    y, x = np.mgrid[0:n, 0:n].astype(np.float64)
    rng = np.random.default_rng(seed)
    p = np.stack([128 + 80 * np.sin((x + seed * 17) / (23.0 + 7 * c)) * np.cos((y - seed * 5) / (31.0 - 5 * c))
                  for c in range(3)], -1) + 20 * (rng.random((n, n, 3)) - 0.5)
    return np.clip(p, 0, 255).astype(np.uint8)


def bench(reps):
    import time
    print("OpenCV %s seamlessClone (NORMAL_CLONE), CPU, %d threads, median of %d" % (cv2.__version__, cv2.getNumThreads(), reps))
    print("| destination | mask | OpenCV ms |\n|---|---|---|")
    for n in (1024, 2048, 4096):
        src, dst = picture(n, 1), picture(n, 2)
        for frac in (0.1, 0.3, 0.6):
            yy, xx = np.mgrid[0:n, 0:n]
            c = (n - 1) / 2.0
            mask = ((np.hypot(xx - c, yy - c) < np.sqrt(frac * n * n / np.pi)) * 255).astype(np.uint8)
            ts = []
            for _ in range(reps):
                t = time.perf_counter()
                cv2.seamlessClone(src, dst, mask, (n // 2, n // 2), cv2.NORMAL_CLONE)
                ts.append((time.perf_counter() - t) * 1e3)
            print("| %d^2 | %d%% | %.1f |" % (n, frac * 100, sorted(ts)[len(ts) // 2]))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--homg", default="build/homg")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--assets", default="assets/image")
    ap.add_argument("--out", default=None, help="keep the result pictures here")
    ap.add_argument("--at", default="80,62", help="OpenCV's p: the mask box's centre in dst")
    ap.add_argument("--textbook", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    if a.bench:
        return bench(a.reps)
    os.makedirs(a.assets, exist_ok=True)
    p = make_assets(a.assets)
    src, dst, mask = (cv2.imread(p[n], cv2.IMREAD_COLOR if n != "mask" else cv2.IMREAD_GRAYSCALE) for n in ("src", "dst", "mask"))
    px, py = (int(v) for v in a.at.split(","))
    out = a.out or tempfile.mkdtemp()
    os.makedirs(out, exist_ok=True)
    print("OpenCV %s seamlessClone vs homg clone --opencv (%s), p = (%d, %d)" % (cv2.__version__, a.backend, px, py))
    worst_all = 0
    for name, flag in MODES.items():
        ref = cv2.seamlessClone(src, dst, mask, (px, py), flag)  # BGR
        again = cv2.seamlessClone(src, dst, mask, (px, py), flag)
        if np.abs(ref.astype(int) - again.astype(int)).max() > 0:
            print("OpenCV %s gives different results for the same call (%d levels apart): no reference; use 4.10"
                  % (cv2.__version__, np.abs(ref.astype(int) - again.astype(int)).max()))
            return 2
        cv2.imwrite(os.path.join(out, "opencv_%s.png" % name), ref)
        for form in ["--opencv"] + (["textbook"] if a.textbook else []):
            o = os.path.join(out, "homg_%s_%s.png" % (name, form.strip("-")))
            if form == "--opencv":
                cmd = [a.homg, "clone", "--src", p["src"], "--dst", p["dst"], "--mask", p["mask"], "--at", a.at,
                       "--mode", name, "--opencv", "--out", o, "--backend", a.backend, "--tol", "1e-7"]
            else:  # the same placement: the box's corner = p - size / 2, so the source's corner is that minus the box's
                ys, xs = np.nonzero(mask[1:-1, 1:-1])
                bx, by, bw, bh = xs.min() + 1, ys.min() + 1, xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
                at = "%d,%d" % (px - bw // 2 - bx, py - bh // 2 - by)
                cmd = [a.homg, "clone", "--src", p["src"], "--dst", p["dst"], "--mask", p["mask"], "--at", at,
                       "--mode", name, "--out", o, "--backend", a.backend, "--tol", "1e-7"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                print("  %-6s %-9s homg failed: %s" % (name, form, r.stderr.strip()))
                worst_all = 99
                continue
            got = cv2.imread(o, cv2.IMREAD_COLOR)
            d = np.abs(got.astype(int) - ref.astype(int))
            within = (d <= 1).mean() * 100
            print("  %-6s %-9s max |homg - OpenCV| = %3d levels, %.3f%% of values within +-1, mean %.3f" %
                  (name, form.strip("-"), d.max(), within, d.mean()))
            if form == "--opencv":
                worst_all = max(worst_all, d.max())
    print("OK: within +-1 level everywhere" if worst_all <= 1 else "DIFFERENCES above 1 level")
    return 0 if worst_all <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
