"""An independent model of the `carousel` layout type (protocol.md,
"carousel"), written from iCarousel's formulas with plain 4×4 matrix
products, for the tests to compare the daemon's answers with. It shares no
code with the daemon: matrices are multiplied in full here, where the
engine updates rows in place."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

Matrix = List[List[float]]

CIRCULAR = {"rotary", "invertedRotary", "cylinder", "invertedCylinder", "wheel", "invertedWheel"}


def identity() -> Matrix:
    return [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]


def mul(a: Matrix, b: Matrix) -> Matrix:
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def translate(t: Matrix, x: float, y: float, z: float) -> Matrix:
    """CATransform3DTranslate(t, x, y, z) = MakeTranslation · t (row vectors)."""
    m = identity()
    m[3][0], m[3][1], m[3][2] = x, y, z
    return mul(m, t)


def rotate(t: Matrix, angle: float, x: float, y: float, z: float) -> Matrix:
    """CATransform3DRotate(t, angle, x, y, z) = MakeRotation · t."""
    n = math.sqrt(x * x + y * y + z * z)
    x, y, z = x / n, y / n, z / n
    c, s = math.cos(angle), math.sin(angle)
    k = 1 - c
    m = identity()
    m[0][:3] = [x * x * k + c, x * y * k + z * s, x * z * k - y * s]
    m[1][:3] = [x * y * k - z * s, y * y * k + c, y * z * k + x * s]
    m[2][:3] = [x * z * k + y * s, y * z * k - x * s, z * z * k + c]
    return mul(m, t)


@dataclass
class Config:
    style: str = "linear"
    item: Tuple[float, float] = (200, 200)
    sizes: Optional[Sequence[Tuple[float, float]]] = None  # per item, else `item`
    vertical: bool = False
    perspective: float = 500
    viewpoint: Tuple[float, float] = (0, 0)
    spacing: Optional[float] = None
    tilt: Optional[float] = None
    arc: float = 2 * math.pi
    radius: Optional[float] = None
    count: Optional[int] = None
    fade_min: Optional[float] = None
    fade_max: Optional[float] = None
    fade_range: float = 1
    fade_min_alpha: float = 0
    show_backfaces: Optional[bool] = None
    wrap: Optional[bool] = None
    visible_items: Optional[int] = None
    offset_multiplier: Optional[float] = None

    def layout(self) -> Dict[str, Any]:
        """The `layout` object that configures the daemon the same way."""
        out: Dict[str, Any] = {"type": "carousel", "style": self.style,
                               "itemSize": {"width": self.item[0], "height": self.item[1]}}
        if self.vertical:
            out["scrollDirection"] = "vertical"
        optional = {
            "perspective": self.perspective if self.perspective != 500 else None,
            "spacing": self.spacing, "tilt": self.tilt, "radius": self.radius, "count": self.count,
            "showBackfaces": self.show_backfaces, "wrap": self.wrap,
            "visibleItems": self.visible_items, "offsetMultiplier": self.offset_multiplier,
            "arc": self.arc if self.arc != 2 * math.pi else None,
        }
        out.update({k: v for k, v in optional.items() if v is not None})
        if self.viewpoint != (0, 0):
            out["viewpointOffset"] = {"width": self.viewpoint[0], "height": self.viewpoint[1]}
        fade = {"min": self.fade_min, "max": self.fade_max,
                "range": self.fade_range if self.fade_range != 1 else None,
                "minAlpha": self.fade_min_alpha or None}
        fade = {k: v for k, v in fade.items() if v is not None}
        if fade:
            out["fade"] = fade
        return out


@dataclass
class Expected:
    item: int
    lap: Optional[int]
    offset: float
    transform: Matrix
    frame: Tuple[float, float, float, float]
    alpha: float
    hidden: bool
    depth: float


class Model:
    def __init__(self, c: Config, n: int, bounds: Tuple[float, float, float, float]) -> None:
        self.c, self.n, self.bounds = c, n, bounds
        self.s = c.style
        axis = 1 if c.vertical else 0
        sizes = list(c.sizes) if c.sizes is not None else [c.item] * n
        self.sizes = sizes
        self.w = max(s[axis] for s in sizes) if sizes else c.item[axis]
        self.spacing = c.spacing if c.spacing is not None else (0.25 if self.s == "coverFlow" else 1.0)
        if c.tilt is not None:
            self.tilt = c.tilt
        else:
            self.tilt = 0.9 if self.s == "coverFlow" else 0.3
        self.wrap = c.wrap if c.wrap is not None else self.s in CIRCULAR
        om = c.offset_multiplier if c.offset_multiplier is not None else (2.0 if self.s == "coverFlow" else 1.0)
        self.pitch = self.w / om
        W = bounds[3] if c.vertical else bounds[2]
        ws = self.w * self.spacing
        count = n
        if self.s in CIRCULAR:
            count = min(30, math.floor(max(12, math.ceil(W / ws) * math.pi)), n)
        if c.count is not None:
            count = c.count
        self.count = count
        arc = c.arc
        if self.s in ("rotary", "invertedRotary"):
            r = max(ws / 2, ws / 2 / math.tan(arc / 2 / count))
        elif self.s in ("cylinder", "invertedCylinder"):
            r = max(0.01, ws / 2 / math.tan(arc / 2 / count))
        elif self.s in ("wheel", "invertedWheel"):
            r = ws * count / arc
        else:
            r = 0
        self.r = c.radius if c.radius is not None else r
        if self.s in ("linear", "coverFlow"):
            v = math.ceil(W / ws) + 2
        elif self.s in ("rotary", "cylinder"):
            v = count
        elif self.s in ("invertedRotary", "invertedCylinder"):
            v = math.ceil(count / 2)
        elif self.s in ("wheel", "invertedWheel"):
            v = count if self.r - self.w / 2 < min(bounds[2], bounds[3]) / 2 else math.ceil(count / 2) + 1
        else:
            v = 30
        v = min(v, 30)
        if c.visible_items is not None:
            v = c.visible_items
        self.visible = min(v, n)
        offset = bounds[1] if c.vertical else bounds[0]
        if self.wrap:
            period = n * self.pitch
            self.K = math.floor(offset / period)
            self.u = (offset - self.K * period) / self.pitch
        else:
            self.K = 0
            self.u = offset / self.pitch

    def transform(self, off: float) -> Matrix:
        c, w, sp, h = self.c, self.w, self.spacing, not self.c.vertical
        t = identity()
        t[2][3] = -1 / c.perspective
        t = translate(t, -c.viewpoint[0], -c.viewpoint[1], 0)

        def along(t: Matrix, v: float, z: float = 0) -> Matrix:
            return translate(t, v, 0, z) if h else translate(t, 0, v, z)

        s = self.s
        if s == "linear":
            return along(t, off * w * sp)
        if s in ("rotary", "invertedRotary"):
            r, a = self.r, off / self.count * c.arc
            if s == "invertedRotary":
                r, a = -r, -a
            return along(t, r * math.sin(a), r * math.cos(a) - r)
        if s in ("cylinder", "invertedCylinder"):
            r, a = self.r, off / self.count * c.arc
            if s == "invertedCylinder":
                r, a = -r, -a
            t = translate(t, 0, 0, -r)
            t = rotate(t, a, 0, 1, 0) if h else rotate(t, a, -1, 0, 0)
            return translate(t, 0, 0, r + 0.01)
        if s in ("wheel", "invertedWheel"):
            r, a = self.r, c.arc / self.count
            if s == "invertedWheel":
                r, a = -r, -a
            if h:
                t = rotate(translate(t, 0, r, 0), a * off, 0, 0, 1)
                return translate(t, 0, -r, off * 0.01)
            t = rotate(translate(t, -r, 0, 0), a * off, 0, 0, 1)
            return translate(t, r, 0, off * 0.01)
        if s == "coverFlow":
            cl = max(-1.0, min(1.0, off))
            t = along(t, (cl * 0.5 * self.tilt + off * sp) * w, -abs(cl) * w / 2)
            a = -cl * math.pi / 2 * self.tilt
            return rotate(t, a, 0, 1, 0) if h else rotate(t, a, -1, 0, 0)
        tilt, o = self.tilt, off
        if s == "invertedTimeMachine":
            tilt, o = -tilt, -off
        return along(t, o * w * tilt, o * w * sp)

    def alpha(self, off: float) -> float:
        c = self.c
        lo = c.fade_min if c.fade_min is not None else (0 if self.s == "invertedTimeMachine" else -math.inf)
        hi = c.fade_max if c.fade_max is not None else (0 if self.s == "timeMachine" else math.inf)
        f = off - hi if off > hi else (lo - off if off < lo else 0)
        return 1 - min(f, c.fade_range) / c.fade_range * (1 - c.fade_min_alpha)

    def offset_of(self, i: int) -> Tuple[float, Optional[int]]:
        off = i - self.u
        if not self.wrap:
            return off, None
        lap = self.K
        if off > self.n / 2:
            off, lap = off - self.n, lap - 1
        elif off < -self.n / 2:
            off, lap = off + self.n, lap + 1
        return off, lap

    def element(self, i: int, lap: Optional[int] = None) -> Expected:
        off, shown = self.offset_of(i)
        if lap is not None and self.wrap and lap != shown:
            off, shown = (i - self.u) + (lap - self.K) * self.n, lap
        t = self.transform(off)
        bx, by, bw, bh = self.bounds
        cx, cy = bx + bw / 2, by + bh / 2
        sw, sh = self.sizes[i]
        xs, ys, behind = [], [], False
        for dx, dy in ((-sw / 2, -sh / 2), (sw / 2, -sh / 2), (-sw / 2, sh / 2), (sw / 2, sh / 2)):
            wv = dx * t[0][3] + dy * t[1][3] + t[3][3]
            behind = behind or wv <= 0
            wv = max(wv, 1e-9)
            xs.append((dx * t[0][0] + dy * t[1][0] + t[3][0]) / wv)
            ys.append((dx * t[0][1] + dy * t[1][1] + t[3][1]) / wv)
        frame = (cx + min(xs), cy + min(ys), max(xs) - min(xs), max(ys) - min(ys))
        backfaces = self.c.show_backfaces if self.c.show_backfaces is not None else self.s != "invertedCylinder"
        hidden = behind or (not backfaces and t[2][2] <= 0)
        depth = t[0][2] + t[1][2] + t[2][2] + t[3][2]
        return Expected(i, shown, off, t, frame, self.alpha(off), hidden, depth)

    def quad(self, e: Expected) -> List[Tuple[float, float]]:
        """The projected corners, in order around the card."""
        bx, by, bw, bh = self.bounds
        cx, cy = bx + bw / 2, by + bh / 2
        sw, sh = self.sizes[e.item]
        t = e.transform
        out = []
        for dx, dy in ((-sw / 2, -sh / 2), (sw / 2, -sh / 2), (sw / 2, sh / 2), (-sw / 2, sh / 2)):
            wv = dx * t[0][3] + dy * t[1][3] + t[3][3]
            out.append((cx + (dx * t[0][0] + dy * t[1][0] + t[3][0]) / wv,
                        cy + (dx * t[0][1] + dy * t[1][1] + t[3][1]) / wv))
        return out

    def hit(self, p: Tuple[float, float]) -> Optional[Expected]:
        """The front-most visible card whose quad contains `p`."""
        best = None
        for e in self.visible_elements(self.bounds):
            q = self.quad(e)
            sides = []
            for k in range(4):
                (ax, ay), (bx, by) = q[k], q[(k + 1) % 4]
                sides.append((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax))
            if all(v >= 0 for v in sides) or all(v <= 0 for v in sides):
                key = (e.depth, -abs(e.offset), e.lap or 0, e.item)
                if best is None or key > best[0]:
                    best = (key, e)
        return best[1] if best else None

    def window(self) -> List[int]:
        n, N = self.n, self.visible
        u = self.u
        c = math.floor(u + 0.5) if u >= 0 else -math.floor(-u + 0.5)  # halves away from zero
        start = c - N // 2
        if not self.wrap:
            start = min(max(start, 0), n - N)
            return list(range(start, start + N))
        return [(start + j) % n for j in range(N)]

    def visible_elements(self, rect: Tuple[float, float, float, float]) -> List[Expected]:
        out = []
        for i in self.window():
            e = self.element(i)
            x, y, w, h = e.frame
            meets = x < rect[0] + rect[2] and rect[0] < x + w and y < rect[1] + rect[3] and rect[1] < y + h
            if not e.hidden and e.alpha > 0 and meets:
                out.append(e)
        return sorted(out, key=lambda e: ((e.lap or 0), e.item))


def z_index_range(m: "Model", e: "Expected", eps: float = 1e-9) -> Tuple[int, int]:
    """protocol.md's rule: zIndex is the number of the window's other
    candidates that iCarousel's compareViewDepth puts behind `e` (smaller
    z = m13 + m23 + m33 + m43, or equal z and farther from the scroll
    position). The model's depths may differ from the daemon's in the last
    bits, so candidates within `eps` of `e`'s depth may count either way:
    the answer lies in [surely behind, surely or maybe behind]. The engine's
    own property test checks exact ties against the daemon's transforms."""
    lo = hi = 0
    for i in m.window():
        o = m.element(i)
        if (o.item, o.lap) == (e.item, e.lap):
            continue
        if o.depth < e.depth - eps:
            lo, hi = lo + 1, hi + 1
        elif abs(o.depth - e.depth) <= eps:
            # A tie, or a last-bit difference either way: nearness decides
            # only an exact one.
            hi += 1
    return lo, hi
