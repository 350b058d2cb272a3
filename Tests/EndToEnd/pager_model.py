"""An independent model of the `pager` layout type (protocol.md, "pager"):
FSPagerView's geometry, transformers and snapping, restated from the rules
with plain 4x4 row-vector matrices, written without the daemon's code.

Matrices are lists of four rows; a point is a row vector multiplied on the
left, and Core Animation's Translate(M, ...) and Rotate(M, ...) put their
step first (T @ M, R @ M)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

Matrix = List[List[float]]

TRANSFORMERS = ["crossFading", "zoomOut", "depth", "overlap", "linear", "coverFlow", "ferrisWheel",
                "invertedFerrisWheel", "cubic"]


def identity() -> Matrix:
    return [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]


def mul(a: Matrix, b: Matrix) -> Matrix:
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def translation(x: float, y: float, z: float) -> Matrix:
    t = identity()
    t[3][0], t[3][1], t[3][2] = x, y, z
    return t


def rot_y(t: float) -> Matrix:
    c, s = math.cos(t), math.sin(t)
    return [[c, 0, -s, 0], [0, 1, 0, 0], [s, 0, c, 0], [0, 0, 0, 1]]


def rot_x(t: float) -> Matrix:
    c, s = math.cos(t), math.sin(t)
    return [[1, 0, 0, 0], [0, c, s, 0], [0, -s, c, 0], [0, 0, 0, 1]]


def perspective() -> Matrix:
    p = identity()
    p[2][3] = -0.002
    return p


def affine(a: float, b: float, c: float, d: float, tx: float, ty: float) -> Matrix:
    return [[a, b, 0, 0], [c, d, 0, 0], [0, 0, 1, 0], [tx, ty, 0, 1]]


@dataclass
class Config:
    item: Optional[Tuple[float, float]] = None
    spacing: float = 0.0
    transformer: Optional[str] = None
    min_scale: Optional[float] = None
    min_alpha: Optional[float] = None
    wrap: bool = False
    vertical: bool = False
    distance: object = 1          # an integer or "automatic"
    removes_single: bool = False

    def layout(self) -> Dict:
        out: Dict = {"type": "pager"}
        if self.item is not None:
            out["itemSize"] = {"width": self.item[0], "height": self.item[1]}
        if self.spacing:
            out["interitemSpacing"] = self.spacing
        if self.transformer:
            out["transformer"] = self.transformer
        if self.min_scale is not None:
            out["minimumScale"] = self.min_scale
        if self.min_alpha is not None:
            out["minimumAlpha"] = self.min_alpha
        if self.wrap:
            out["wrap"] = True
        if self.vertical:
            out["scrollDirection"] = "vertical"
        if self.distance != 1:
            out["decelerationDistance"] = self.distance
        if self.removes_single:
            out["removesInfiniteLoopForSingleItem"] = True
        return out


@dataclass
class Page:
    item: int
    lap: Optional[int]
    slot: int
    p: float
    center: Tuple[float, float]
    transform: Matrix
    frame: Tuple[float, float, float, float]
    alpha: float
    z: int
    hidden: bool
    quad: List[Tuple[float, float]] = field(default_factory=list)


class Model:
    def __init__(self, c: Config, n: int, bounds: Tuple[float, float, float, float]) -> None:
        self.c, self.n, self.bounds = c, n, bounds
        W, H = bounds[2], bounds[3]
        h = not c.vertical
        self.h = h
        automatic = c.item is None or tuple(c.item) == (0, 0)
        self.w, self.ht = (W, H) if automatic else c.item
        self.E, self.Ec = (W, H) if h else (H, W)
        self.e = self.w if h else self.ht
        self.ec = self.ht if h else self.w
        t = c.transformer
        self.m = c.min_scale if c.min_scale is not None else {"zoomOut": 0.85, "depth": 0.5}.get(t, 0.65)
        self.a = c.min_alpha if c.min_alpha is not None else 0.6
        cw = 0.0 if automatic else c.item[0]
        if t is None or t in ("crossFading", "zoomOut", "depth"):
            g = c.spacing
        elif t == "cubic":
            g = 0.0
        elif not h:
            g = 0.0
        else:
            g = {"overlap": -0.6 * self.m * cw, "linear": -0.2 * self.m * cw,
                 "coverFlow": -math.sin(3 * math.pi / 16) * cw,
                 "ferrisWheel": -0.15 * cw, "invertedFerrisWheel": -0.15 * cw}[t]
        self.s = self.e + g
        self.wraps = c.wrap and n >= 1 and (n > 1 or not c.removes_single)
        self.o = bounds[0] if h else bounds[1]

    # -- geometry ----------------------------------------------------------

    def content_size(self) -> Tuple[float, float]:
        n, s = self.n, self.s
        main = n * s if self.wraps else (self.E + (n - 1) * s if n > 0 else max(0.0, self.E - s))
        return (main, self.Ec) if self.h else (self.Ec, main)

    def page(self, j: int) -> Page:
        n, s, h = self.n, self.s, self.h
        item, lap = (j % n, j // n) if self.wraps else (j, None)
        cm = self.E / 2 + j * s
        cx, cy = (cm, self.Ec / 2) if h else (self.Ec / 2, cm)
        p = j - self.o / s
        alpha, z, M, shift = self.look(p)
        if h:
            cx += shift
        else:
            cy += shift
        corners = [(-self.w / 2, -self.ht / 2), (self.w / 2, -self.ht / 2), (self.w / 2, self.ht / 2),
                   (-self.w / 2, self.ht / 2)]
        quad, hidden = [], False
        for dx, dy in corners:
            X = dx * M[0][0] + dy * M[1][0] + M[3][0]
            Y = dx * M[0][1] + dy * M[1][1] + M[3][1]
            Q = dx * M[0][3] + dy * M[1][3] + M[3][3]
            hidden = hidden or Q <= 0
            Q = max(Q, 1e-9)
            quad.append((cx + X / Q, cy + Y / Q))
        xs, ys = [q[0] for q in quad], [q[1] for q in quad]
        frame = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        return Page(item, lap, j, p, (cx, cy), M, frame, alpha, z, hidden, quad)

    def look(self, p: float):
        """Alpha, zIndex, the 4x4 transform and the centre's shift."""
        t, s, m, a, h = self.c.transformer, self.s, self.m, self.a, self.h
        b = self.n - math.trunc(p)

        def along(v: float, scale: float = 1.0) -> Matrix:
            M = identity()
            M[0][0] = M[1][1] = scale
            if h:
                M[3][0] = v
            else:
                M[3][1] = v
            return M

        I = identity()
        if t is None:
            return 1.0, 0, I, 0.0
        if t == "crossFading":
            if abs(p) < 1:
                return 1 - abs(p), 1, along(-s * p), 0.0
            return 0.0, -(2 ** 53 - 1), along(-s * p), 0.0
        if t == "zoomOut":
            if not -1 <= p <= 1:
                return 0.0, b, I, 0.0
            sig = max(m, 1 - abs(p))
            al, be = s * (1 - sig) / 2, self.ec * (1 - sig) / 2
            shift = al - 2 * be if p < 0 else 2 * be - al
            return a + (sig - m) / (1 - m) * (1 - a), b, along(shift, sig), 0.0
        if t == "depth":
            if p < -1 or p >= 1:
                return 0.0, 0, I, 0.0
            if p <= 0:
                return 1.0, 1, I, 0.0
            return 1 - p, 0, along(-s * p, m + (1 - m) * (1 - p)), 0.0
        if t in ("overlap", "linear"):
            if not h:
                return 1.0, b, I, 0.0
            sc = max(1 - (1 - m) * abs(p), m)
            return max(0.0, a + (1 - abs(p)) * (1 - a)), math.trunc(10 * (1 - abs(p))), along(0, sc), 0.0
        if t == "coverFlow":
            if not h:
                return 1.0, b, I, 0.0
            c = min(max(-p, -1.0), 1.0)
            theta = math.sin(c * math.pi / 2) * 3 * math.pi / 8
            M = mul(translation(0, 0, -s * abs(c) / 2), mul(rot_y(theta), perspective()))
            return 1.0, 100 if abs(p) < 1 else 99, M, 0.0
        if t in ("ferrisWheel", "invertedFerrisWheel"):
            if not h:
                return 1.0, b, I, 0.0
            alpha = 1.0 if abs(p) < 0.5 else a
            if abs(p) > 5:
                return alpha, 0, I, 0.0
            sign = -1 if t == "invertedFerrisWheel" else 1
            R = sign * 14 * s / (2 * math.pi)
            phi = sign * p * 2 * math.pi / 14
            M = affine(math.cos(phi), math.sin(phi), -math.sin(phi), math.cos(phi),
                       R * math.sin(phi) - p * s, R * (1 - math.cos(phi)))
            return alpha, math.trunc(4 - 10 * abs(p)), M, 0.0
        if t == "cubic":
            if p <= -1 or p >= 1:
                return 0.0, b, I, 0.0
            d = 1 if p < 0 else -1
            if h:
                M = mul(translation(-d * self.w / 2, 0, 0), mul(rot_y(p * math.pi / 2), perspective()))
            else:
                M = mul(translation(0, -d * self.ht / 2, 0), mul(rot_x(-p * math.pi / 2), perspective()))
            return 1.0, math.trunc(10 * (1 - p)), M, d * self.e / 2
        raise ValueError(t)

    def slots_in(self, lo: float, hi: float) -> range:
        """Every slot worth examining for a rect: all of them without wrap;
        with wrap, every copy within the rect's span widened generously."""
        if not self.wraps:
            return range(0, self.n)
        pad = 8 * self.s + 2 * (self.w + self.ht)
        first = math.floor((min(lo, self.o) - pad - self.E / 2) / self.s)
        last = math.ceil((max(hi, self.o + self.E) + pad - self.E / 2) / self.s)
        return range(first, last + 1)

    def visible(self, rect: Tuple[float, float, float, float]) -> List[Page]:
        """Rule R3: alpha > 0, not behind the eye, frame meets the rect with
        positive area; by lap, then item."""
        lo, hi = (rect[0], rect[0] + rect[2]) if self.h else (rect[1], rect[1] + rect[3])
        out = []
        for j in self.slots_in(lo, hi):
            pg = self.page(j)
            x, y, w, hh = pg.frame
            meets = x < rect[0] + rect[2] and rect[0] < x + w and y < rect[1] + rect[3] and rect[1] < y + hh
            if pg.alpha > 0 and not pg.hidden and meets:
                out.append(pg)
        return sorted(out, key=lambda pg: (pg.lap or 0, pg.item))

    def centered(self) -> Optional[Tuple[int, Optional[int]]]:
        """Rule R5: ⌈o/s − 1/2⌉, clamped without wrap."""
        if self.n == 0:
            return None
        j = math.ceil(self.o / self.s - 0.5)
        if not self.wraps:
            j = min(max(j, 0), self.n - 1)
            return j, None
        return j % self.n, j // self.n

    def hit(self, pt: Tuple[float, float]) -> Optional[Page]:
        """Rule R6: the highest zIndex whose quad holds the point, ties to the
        later (lap, item)."""
        best = None
        for pg in self.visible((pt[0] - 0.5, pt[1] - 0.5, 1, 1)):
            q = pg.quad
            sides = [(q[(k + 1) % 4][0] - q[k][0]) * (pt[1] - q[k][1]) - (q[(k + 1) % 4][1] - q[k][1]) * (pt[0] - q[k][0])
                     for k in range(4)]
            if all(v >= -1e-6 for v in sides) or all(v <= 1e-6 for v in sides):
                key = (pg.z, pg.lap or 0, pg.item)
                if best is None or key > best[0]:
                    best = (key, pg)
        return best[1] if best else None

    def snap(self, offset: float, velocity: float) -> Tuple[float, Optional[Tuple[int, Optional[int]]]]:
        """Rule set 5: the target offset along the axis and its page."""
        n, s = self.n, self.s
        if n == 0:
            return 0.0, None
        r = 0.99
        proj = offset + velocity * r / (1 - r)
        proj = min(max(proj, -1e15), 1e15) if self.wraps else min(max(proj, 0.0), (n - 1) * s)
        x, q = offset / s, proj / s

        def rnd(t: float) -> int:
            return math.floor(t + 0.5)

        if self.c.distance == "automatic":
            j = rnd(q + 0.35 * (1 if velocity >= 0 else -1)) if abs(velocity) >= 0.3 else rnd(q)
        else:
            N = self.c.distance
            if velocity >= 0.3:
                j = math.ceil(x + (N - 1))
            elif velocity <= -0.3:
                j = math.floor(x - (N - 1))
            else:
                j = rnd(q)
        if not self.wraps:
            j = min(max(j, 0), n - 1)
            return j * s, (j, None)
        return j * s, (j % n, j // n)
