"""The Python client package (clients/python/flowlayout) against the real
daemon: every typed method round-trips, with expected values worked out by
hand; RPCError; the Picture kept from deltas equals layout/attributesInRect;
element keys with and without a lap; the process lifecycle.

The package is imported from this checkout (not from an installed copy).
The seed carousel used throughout: 10 cards of 200×300, spacing 30, scale
factor 0.5, viewport 375×300. Its insets are (375 − 200)/2 = 87.5, so card i
is centred at x = 187.5 + 230·i, its rest offset is 230·i, and the content
is 10·200 + 9·30 + 2·87.5 = 2445 wide. A card d points from the viewport's
centre is scaled by 1 − 0.5·d/375: 0.693333 at one pitch (230).
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import sys
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from daemon_support import DAEMON, REPO

_PACKAGE = REPO / "clients" / "python"
for _name in [n for n in sys.modules if n == "flowlayout" or n.startswith("flowlayout.")]:
    if not str(getattr(sys.modules[_name], "__file__", "")).startswith(str(_PACKAGE)):
        del sys.modules[_name]  # an installed copy: test this checkout's package
sys.path.insert(0, str(_PACKAGE))

from flowlayout import (  # noqa: E402
    Attributes,
    MovementBegan,
    BatchResult,
    BoundsResult,
    Client,
    DaemonError,
    ElementKey,
    IndexPath,
    Insets,
    MovedElement,
    MovementEnd,
    MovementUpdate,
    MutationResult,
    OpenResult,
    Picture,
    Point,
    Rect,
    RPCError,
    Size,
    SnapPlan,
    SnapResult,
    SnapshotResult,
)
from flowlayout.model import item_sizes_json, updates_json  # noqa: E402

assert Path(sys.modules["flowlayout"].__file__).resolve().is_relative_to(_PACKAGE.resolve())

SEED_LAYOUT = {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}}
VIEW = Rect(0, 0, 375, 300)
PITCH = 230.0
S1 = 1 - 0.5 * PITCH / 375  # 0.693333…, the scale one pitch from the centre
CARD = Size(200, 300)


def centre_x(i: int) -> float:
    return 187.5 + PITCH * i


def approx(v: float) -> Any:
    return pytest.approx(v, abs=1e-9)


def scaled_frame(cx: float, s: float) -> Rect:
    return Rect(cx - 100 * s, 150 - 150 * s, 200 * s, 300 * s)


def assert_rect(actual: Rect, expected: Rect) -> None:
    assert (actual.x, actual.y, actual.width, actual.height) == (
        approx(expected.x),
        approx(expected.y),
        approx(expected.width),
        approx(expected.height),
    )


@pytest.fixture
def client() -> Iterator[Client]:
    c = Client(DAEMON)
    try:
        yield c
    finally:
        code = c.shutdown()
    assert code == 0, c.stderr_tail()


@pytest.fixture
def seed(client: Client) -> OpenResult:
    return client.open("seed", SEED_LAYOUT, VIEW, [{"itemCount": 10}])


def grid(client: Client) -> OpenResult:
    """protocol.md's flow session: a 20-point header, 7 items of 100×50
    three to a row 10 apart in 320 points, then two items 150×40 and 60×40
    with a 5/10 inset."""
    return client.open(
        "grid",
        {"type": "flow", "itemSize": {"width": 100, "height": 50}, "headerReferenceSize": {"width": 0, "height": 20}},
        Rect(0, 0, 320, 100),
        [
            {"itemCount": 7},
            {
                "itemSizes": [{"width": 150, "height": 40}, {"width": 60, "height": 40}],
                "inset": {"top": 5, "left": 10, "bottom": 5, "right": 10},
            },
        ],
    )


def picture_matches(client: Client, session: str, picture: Picture) -> None:
    """The invariant of live sessions: the picture kept from the answers
    equals layout/attributesInRect of the viewport (no overscan here)."""
    assert picture.bounds is not None
    assert tuple(picture.elements()) == client.attributes_in_rect(session, picture.bounds)


# MARK: layout/open, layout/setBounds


def test_open_returns_the_seed_carousel(seed: OpenResult) -> None:
    assert isinstance(seed, OpenResult)
    assert seed.content_size == Size(2445, 300)
    assert seed.bounds == VIEW
    assert seed.centered_item == IndexPath(0, 0)
    card0, card1 = seed.attributes
    assert card0 == Attributes(
        kind="cell", section=0, item=0, center=Point(187.5, 150), size=CARD,
        frame=Rect(87.5, 0, 200, 300), transform=None, alpha=1.0, z_index=0,
    )
    assert card0.scale == 1 and card0.is_affine and card0.lap == 0
    assert card1.key == ElementKey("cell", 0, 1) == ("cell", 0, 1)
    assert card1.center == Point(centre_x(1), 150)
    assert card1.scale == approx(S1)
    assert card1.transform == pytest.approx((S1, 0, 0, 0, 0, S1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1), abs=1e-12)
    assert_rect(card1.frame, scaled_frame(centre_x(1), S1))
    # zIndex: −(2·⌊230⌋ + 1), the card being past the centre.
    assert card1.z_index == -461


def test_set_bounds_answers_a_delta(client: Client, seed: OpenResult) -> None:
    moved = client.set_bounds("seed", (460, 0, 375, 300))
    assert isinstance(moved, MutationResult) and BoundsResult is MutationResult
    assert moved.bounds == Rect(460, 0, 375, 300)
    assert moved.content_size == Size(2445, 300)
    assert moved.centered_item == IndexPath(0, 2)  # 187.5 + 460 = 647.5 is card 2's centre
    assert [a.item for a in moved.invalidated] == [1, 2, 3]
    assert moved.removed == (("cell", 0, 0),)
    card2 = moved.invalidated[1]
    assert card2.transform is None and card2.frame == Rect(547.5, 0, 200, 300) and card2.z_index == 0
    assert_rect(moved.invalidated[2].frame, scaled_frame(centre_x(3), S1))
    # Nothing changed: nothing is sent again.
    again = client.set_bounds("seed", Rect(460, 0, 375, 300))
    assert again.invalidated == () and again.removed == ()


# MARK: layout/scrollEnded


def test_scroll_ended_gentle_release_snaps_back(client: Client, seed: OpenResult) -> None:
    """Released at 300 without velocity: f(300) = 1.30, nearest card 1,
    rest offset 230. The trajectory is 300 − 70·(1 − 0.998^t), settled when
    0.5 pt remain: T = ln(0.5/70)/ln(0.998) = 2468.3 ms, so five 500 ms
    frames (duration 2500) and six samples."""
    plan = client.scroll_ended("seed", (300, 0), Point(0, 0), frame_interval=500)
    assert isinstance(plan, SnapPlan) and SnapResult is SnapPlan
    assert plan.target_content_offset == Point(230, 0)
    assert plan.target_item == IndexPath(0, 1)
    assert plan.projected_content_offset == Point(300, 0)
    assert plan.policy == "nearest"
    t_settle = math.log(0.5 / 70) / math.log(0.998)
    assert t_settle == pytest.approx(2468.3, abs=0.1)
    assert plan.duration_ms == 2500 == 500 * math.ceil(t_settle / 500)
    assert len(plan.trajectory) == 6 and plan.frame_interval_ms == 500
    assert plan.sample_times_ms() == [0, 500, 1000, 1500, 2000, 2500]
    for t, p in zip(plan.sample_times_ms()[:-1], plan.trajectory):
        assert p.x == pytest.approx(300 - 70 * (1 - 0.998**t), abs=1e-9) and p.y == 0
    assert plan.trajectory[-1] == Point(230, 0)
    xs = [p.x for p in plan.trajectory]
    assert xs == sorted(xs, reverse=True)


def test_scroll_ended_fling_projects_and_plans(client: Client, seed: OpenResult) -> None:
    """A fling at 1.5 pt/ms from 230 projects to 230 + 1.5·0.998/0.002 =
    978.5, nearest card 4 (rest 920; card 5's 1150 is farther). At the
    default 1000/60 ms frames: T = ln(0.5/690)/ln(0.998) = 3611 ms, 217
    frames, 218 samples."""
    plan = client.scroll_ended("seed", Point(230, 0), (1.5, 0))
    assert plan.projected_content_offset.x == pytest.approx(978.5, abs=1e-6)
    assert plan.target_content_offset == Point(920, 0)
    assert plan.target_item == IndexPath(0, 4)
    n = math.ceil((math.log(0.5 / 690) / math.log(0.998)) / (1000 / 60))
    assert n == 217
    assert len(plan.trajectory) == n + 1
    assert plan.duration_ms == pytest.approx(n * 1000 / 60)
    assert plan.trajectory[0] == Point(230, 0) and plan.trajectory[-1] == Point(920, 0)


def test_scroll_ended_with_a_proposed_offset(client: Client, seed: OpenResult) -> None:
    """The proposed offset replaces the projection: 1500 is nearest card 7
    (1610 is 110 away, card 6's 1380 is 120 away)."""
    plan = client.scroll_ended("seed", (500, 0), (2, 0), proposed_content_offset=(1500, 0), frame_interval=1000)
    assert plan.projected_content_offset == Point(1500, 0)
    assert plan.target_content_offset == Point(1610, 0) and plan.target_item == IndexPath(0, 7)
    assert plan.duration_ms == 4000 and len(plan.trajectory) == 5


def test_scroll_ended_flow_does_not_snap(client: Client) -> None:
    grid(client)
    plan = client.scroll_ended("grid", (0, 0), (0, 0.1))
    assert plan.policy == "free"
    # 0.1·499 = 49.9, within the offset range 0…160.
    assert plan.target_content_offset.y == pytest.approx(49.9, abs=1e-9)
    assert plan.projected_content_offset == plan.target_content_offset


# MARK: layout/scrollToItem


def test_scroll_to_item(client: Client, seed: OpenResult) -> None:
    # Card 4's centre 187.5 + 920 at the viewport's centre: 1107.5 − 187.5.
    assert client.scroll_to_item("seed", 0, 4) == Point(920, 0)
    assert client.scroll_to_item("seed", 0, 4, position=None) == Point(920, 0)
    # Its leading edge 1107.5 − 100 at the viewport's leading edge.
    assert client.scroll_to_item("seed", 0, 4, "leading") == Point(1007.5, 0)
    # Card 0's trailing edge 287.5 at 375 would need −87.5: clamped to 0.
    assert client.scroll_to_item("seed", 0, 0, position="trailing") == Point(0, 0)
    # The session does not move.
    assert client.set_bounds("seed", VIEW).invalidated == ()
    with pytest.raises(RPCError) as e:
        client.scroll_to_item("seed", 0, 10)
    assert e.value.code == RPCError.INVALID_PARAMS and e.value.field == "params.item"


# MARK: layout/performBatchUpdates


def test_batch_insert_at_the_centre(client: Client, seed: OpenResult) -> None:
    """At 920 card 4 is centred. A card inserted at 4 pushes it to 5, and
    anchoring keeps it centred: 187.5 + 230·5 − 187.5 = 1150. The new card
    appears at card 4's place (centre 1107.5, one pitch left: scale
    0.693333) with alpha 0; content grows by a pitch to 2675."""
    picture = Picture()
    picture.apply_open(seed)
    picture.apply(client.set_bounds("seed", VIEW.with_origin(920, 0)))
    batch = client.perform_batch_updates("seed", {"insertItems": [{"section": 0, "item": 4}]})
    assert isinstance(batch, BatchResult) and isinstance(batch, MutationResult)
    assert batch.content_size == Size(2675, 300)
    assert batch.bounds == Rect(1150, 0, 375, 300)
    assert batch.centered_item == IndexPath(0, 5)
    (new,) = batch.appearing
    assert new.key == ("cell", 0, 4) and new.alpha == 0
    assert new.center == Point(centre_x(4), 150)
    assert_rect(new.frame, scaled_frame(centre_x(4), S1))
    assert batch.disappearing == ()
    # Card 3 (877.5) is now 460 from the centre (1337.5): scaled to the
    # curve's minimum 0.6 (1 − 0.5·460/375 is less), it spans 817.5…937.5,
    # left of the viewport (1150…1525).
    assert batch.removed == (("cell", 0, 3),)
    assert [a.item for a in batch.invalidated] == [4, 5, 6]
    assert batch.invalidated[0].alpha == 1
    moved = {m.key: m for m in batch.moved}
    five = moved[("cell", 0, 5)]
    assert isinstance(five, MovedElement)
    assert five.from_path == IndexPath(0, 4) and five.index_path == IndexPath(0, 5)
    assert five.from_frame == Rect(1007.5, 0, 200, 300) and five.frame == Rect(1237.5, 0, 200, 300)
    picture.apply(batch)
    picture_matches(client, "seed", picture)
    assert picture.centered_item == IndexPath(0, 5)


def test_batch_delete_the_centred_card(client: Client, seed: OpenResult) -> None:
    """Deleting the centred card 4 at 920: it disappears at its old frame
    with alpha 0, the next card (5, now 4) takes its place, and the bounds
    stay at 920 (its new centre 1107.5 is where 4's was)."""
    picture = Picture()
    picture.apply_open(seed)
    picture.apply(client.set_bounds("seed", VIEW.with_origin(920, 0)))
    batch = client.perform_batch_updates("seed", {"deleteItems": [IndexPath(0, 4)]})
    assert batch.content_size == Size(2215, 300)
    assert batch.bounds == Rect(920, 0, 375, 300)
    assert batch.centered_item == IndexPath(0, 4)
    (gone,) = batch.disappearing
    assert gone.key == ("cell", 0, 4) and gone.alpha == 0 and gone.frame == Rect(1007.5, 0, 200, 300)
    assert batch.appearing == ()
    moved = {m.key: m for m in batch.moved}
    assert moved[("cell", 0, 4)].from_path == IndexPath(0, 5)
    assert moved[("cell", 0, 4)].frame == Rect(1007.5, 0, 200, 300)
    picture.apply(batch)
    picture_matches(client, "seed", picture)


def test_batch_updates_accept_pairs_and_moves(client: Client, seed: OpenResult) -> None:
    """Card 0, centred at offset 0, moves to the end: the view follows the
    card the user was looking at to its new rest offset 9·230 = 2070, where
    the picture's cards 0 and 1 are gone and 8 and 9 visible."""
    batch = client.perform_batch_updates("seed", {"moveItems": [((0, 0), (0, 9))]})
    assert batch.content_size == Size(2445, 300)
    assert batch.bounds == Rect(2070, 0, 375, 300) and batch.centered_item == IndexPath(0, 9)
    assert batch.removed == (("cell", 0, 0), ("cell", 0, 1))
    assert [a.key for a in batch.invalidated] == [("cell", 0, 8), ("cell", 0, 9)]
    nine = {m.key: m for m in batch.moved}[("cell", 0, 9)]
    assert nine.from_path == IndexPath(0, 0)
    assert nine.from_frame == Rect(87.5, 0, 200, 300)
    assert nine.frame == Rect(centre_x(9) - 100, 0, 200, 300)
    batch = client.perform_batch_updates("seed", {"deleteItems": [(0, 9)], "itemCounts": (9,)})
    assert batch.content_size == Size(2215, 300)  # 9·200 + 8·30 + 175
    assert batch.disappearing[0].key == ("cell", 0, 9)


def test_batch_update_rejected_as_uikit_would(client: Client, seed: OpenResult) -> None:
    with pytest.raises(RPCError) as e:
        client.perform_batch_updates("seed", {"insertItems": [{"section": 0, "item": 0}], "itemCounts": [12]})
    err = e.value
    assert err.code == RPCError.INVALID_BATCH_UPDATE == 1003
    assert err.field == "params.updates"
    assert err.message.startswith(
        "Invalid update: invalid number of items in section 0. The number of items contained in an "
        "existing section after the update (12) must be equal to the number of items contained in "
        "that section before the update (10)"
    )
    # Nothing changed.
    assert client.content_size("seed") == Size(2445, 300)


def test_updates_json_shapes() -> None:
    assert updates_json(
        {
            "deleteItems": [IndexPath(0, 1), (0, 2), {"section": 0, "item": 3}],
            "insertItems": [{"section": 0, "item": 0, "size": Size(10, 20)}, {"section": 0, "item": 1, "size": (5, 6)}],
            "moveItems": [(IndexPath(0, 4), (0, 5)), {"from": (0, 6), "to": IndexPath(0, 7)}],
            "deleteSections": (1,),
        }
    ) == {
        "deleteItems": [{"section": 0, "item": 1}, {"section": 0, "item": 2}, {"section": 0, "item": 3}],
        "insertItems": [
            {"section": 0, "item": 0, "size": {"width": 10, "height": 20}},
            {"section": 0, "item": 1, "size": {"width": 5, "height": 6}},
        ],
        "moveItems": [
            {"from": {"section": 0, "item": 4}, "to": {"section": 0, "item": 5}},
            {"from": {"section": 0, "item": 6}, "to": {"section": 0, "item": 7}},
        ],
        "deleteSections": [1],
    }
    # What it does not recognise goes to the daemon as it is, to be named.
    assert updates_json({"deleteItems": ["x"]}) == {"deleteItems": ["x"]}


# MARK: layout/reloadData, layout/configure, layout/setItemSizes


def test_reload_data_anchors_by_id(client: Client) -> None:
    """coverFlow's defaults (200×300, spacing 20, insets 87.5): at 440 card
    c (item 2, centre 627.5) is centred. Reloaded with x inserted first, c
    is item 3 at 847.5: the bounds follow it to 660. Content: 5·200 + 4·20
    + 175 = 1255."""
    opened = client.open("ids", {"type": "coverFlow"}, VIEW.with_origin(440, 0), [{"itemCount": 4, "ids": ["a", "b", "c", "d"]}])
    assert opened.centered_item == IndexPath(0, 2)
    picture = Picture()
    picture.apply(opened)  # apply() takes an open result too
    reloaded = client.reload_data("ids", [{"itemCount": 5, "ids": ["x", "a", "b", "c", "d"]}])
    assert type(reloaded) is MutationResult
    assert reloaded.content_size == Size(1255, 300)
    assert reloaded.bounds == Rect(660, 0, 375, 300)
    assert reloaded.centered_item == IndexPath(0, 3)
    assert reloaded.removed == (("cell", 0, 1),)
    assert [a.item for a in reloaded.invalidated] == [2, 3, 4]
    picture.apply(reloaded)
    picture_matches(client, "ids", picture)


def live(client: Client) -> Picture:
    """protocol.md's `live` flow session scrolled to y = 60: seven 100×50
    items three to a row, rows 10 apart, in 320×110."""
    picture = Picture()
    picture.apply(client.open("live", {"type": "flow", "itemSize": {"width": 100, "height": 50}}, Rect(0, 0, 320, 110), [{"itemCount": 7}]))
    picture.apply(client.set_bounds("live", Rect(0, 60, 320, 110)))
    return picture


def test_configure_relayouts_and_anchors(client: Client) -> None:
    """Line spacing 30: rows at 0, 80, 160, content 3·50 + 2·30 = 210. The
    first visible item (3, centre 85, 25 below the origin 60) is now
    centred at 105: the origin follows to 80."""
    picture = live(client)
    result = client.configure("live", layout={"minimumLineSpacing": 30})
    assert type(result) is MutationResult
    assert result.content_size == Size(320, 210)
    assert result.bounds == Rect(0, 80, 320, 110)
    assert result.centered_item == IndexPath(0, 4)
    by_item = {a.item: a for a in result.invalidated}
    assert by_item[3].center == Point(50, 105) and by_item[6].center == Point(50, 185)
    picture.apply(result)
    picture_matches(client, "live", picture)
    # Insets: content_inset and its other spelling content_insets.
    inset = client.configure("live", content_insets=Insets(0, 10, 0, 10))
    # The cross extent is 300: 100 + 10 + 100 + 10 + 100 = 320 no longer
    # fits, so two items a row, four rows: 4·50 + 3·30 = 290.
    assert inset.content_size == Size(300, 290)
    picture.apply(inset)
    picture_matches(client, "live", picture)
    again = client.configure("live", content_inset={"top": 0, "left": 0, "bottom": 0, "right": 0})
    assert again.content_size == Size(320, 210)
    with pytest.raises(TypeError):
        client.configure("live", content_inset=(0, 0, 0, 0), content_insets=(0, 0, 0, 0))
    with pytest.raises(RPCError) as e:
        client.configure("live", overscan=-1)
    assert e.value.code == RPCError.INVALID_PARAMS and e.value.field == "params.overscan"


def test_configure_overscan(client: Client) -> None:
    """Overscan 20 grows the visible rect to y 40…190: item 6 (row 120…170)
    was visible already; the first row (0…50) now is too."""
    picture = live(client)
    result = client.configure("live", overscan=20)
    assert result.bounds == Rect(0, 60, 320, 110)
    assert sorted(a.item for a in result.invalidated) == [0, 1, 2]
    picture.apply(result)
    assert tuple(picture.elements()) == client.attributes_in_rect("live", Rect(0, 40, 320, 150))


@pytest.mark.parametrize(
    "sizes",
    [
        [(0, 5, Size(300, 80))],
        [(0, 5, (300, 80))],
        [(0, 5, {"width": 300, "height": 80})],
        [(IndexPath(0, 5), Size(300, 80))],
        [{"section": 0, "item": 5, "size": {"width": 300, "height": 80}}],
        [{"section": 0, "item": 5, "size": (300, 80)}],
    ],
    ids=["size", "tuple", "dict", "index-path", "wire", "wire-tuple"],
)
def test_set_item_sizes(client: Client, sizes: List[Any]) -> None:
    """Item 5 measured 300×80 (spacing 30, as in protocol.md): rows 0 1 2 |
    3 4 | 5 | 6. Row two's two items spread to the edges (4 at 220…320),
    item 5 sits alone, centred (10…310), rows at 0, 80, 160, 270: content
    50 + 30 + 50 + 30 + 80 + 30 + 50 = 320 high."""
    assert item_sizes_json(sizes) == [{"section": 0, "item": 5, "size": {"width": 300, "height": 80}}]
    picture = live(client)
    picture.apply(client.configure("live", layout={"minimumLineSpacing": 30}))
    result = client.set_item_sizes("live", sizes)
    assert type(result) is MutationResult
    assert result.content_size == Size(320, 320)
    assert result.bounds == Rect(0, 80, 320, 110)
    by_item = {a.item: a for a in result.invalidated}
    assert by_item[4].frame == Rect(220, 80, 100, 50)
    assert by_item[5].frame == Rect(10, 160, 300, 80) and by_item[5].size == Size(300, 80)
    assert result.removed == (("cell", 0, 6),)
    assert result.centered_item == IndexPath(0, 5)
    picture.apply(result)
    picture_matches(client, "live", picture)
    with pytest.raises(RPCError) as e:
        client.set_item_sizes("live", [(0, 7, (1, 1))])
    assert e.value.field == "params.sizes[0].item"


# MARK: the queries


def test_queries_on_the_flow_grid(client: Client) -> None:
    opened = grid(client)
    assert opened.content_size == Size(320, 260)
    assert [a.key for a in opened.attributes][:2] == [("header", 0, 0), ("cell", 0, 0)]
    found = client.attributes_in_rect("grid", Rect(0, 140, 320, 60))
    assert [a.key for a in found] == [("cell", 0, 6), ("header", 1, 0)]
    item = client.attributes_for_item("grid", 1, 1)
    # Section 1's last line is leading-aligned: 10 + 150 + 10 = 170.
    assert item.frame == Rect(170, 215, 60, 40) and item.center == Point(200, 235)
    header = client.attributes_for_supplementary("grid", "header", 1)
    assert header is not None and header.frame == Rect(0, 190, 320, 20)
    assert client.attributes_for_supplementary("grid", "footer", 1) is None
    assert client.item_at_point("grid", (150, 100)) == IndexPath(0, 4)
    assert client.item_at_point("grid", Point(105, 10)) is None  # the header is not hit
    assert client.content_size("grid") == Size(320, 260)
    client.close("grid")
    with pytest.raises(RPCError) as e:
        client.content_size("grid")
    assert e.value.code == RPCError.UNKNOWN_SESSION


def test_tilted_card_corners_are_its_drawn_outline(client: Client) -> None:
    """protocol.md's tilt: card 1 turned by −45° with perspective 500. Its
    right edge (dx = 100) has w = 1 − 100·cos45°/500 = 0.858579, so it is
    drawn at x = 417.5 + 70.71/w = 499.86, spanning ±150/w = ±174.71."""
    opened = client.open(
        "tilt",
        {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"peak": 1, "factor": 0},
         "distanceUnit": "pitch", "rotation": {"maxAngle": 45, "perspective": 500}},
        VIEW, [{"itemCount": 3}],
    )
    card0, card1 = opened.attributes
    assert card0.is_affine  # m34 only: the plane is not foreshortened
    assert not card1.is_affine
    c = math.sqrt(0.5)
    w = 1 - 100 * c / 500
    top_right = card1.corners()[1]
    assert top_right.x == pytest.approx(417.5 + 100 * c / w) and top_right.y == pytest.approx(150 - 150 / w)
    assert top_right.x == pytest.approx(499.86, abs=0.005)
    xs = [p.x for p in card1.corners()]
    ys = [p.y for p in card1.corners()]
    assert_rect(Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)), card1.frame)
    assert client.item_at_point("tilt", (360, 20)) == IndexPath(0, 1)
    assert client.item_at_point("tilt", (360, -20)) is None


# MARK: Picture


def test_picture_follows_scrolls_and_batches(client: Client, seed: OpenResult) -> None:
    picture = Picture()
    picture.apply_open(seed)
    assert picture.centered_item == IndexPath(0, 0)
    picture_matches(client, "seed", picture)
    for x in (60, 120, 300, 230, 920, 1500, 2070, 2070, 0):
        picture.apply(client.set_bounds("seed", VIEW.with_origin(x, 0)))
        picture_matches(client, "seed", picture)
    picture.apply(client.set_bounds("seed", VIEW.with_origin(920, 0)))
    steps = [
        {"insertItems": [{"section": 0, "item": 4}]},
        {"deleteItems": [{"section": 0, "item": 5}]},
        {"moveItems": [{"from": {"section": 0, "item": 3}, "to": {"section": 0, "item": 5}}]},
        {"reloadItems": [{"section": 0, "item": 4, "size": {"width": 100, "height": 150}}]},
        {"deleteItems": [(0, 0), (0, 1), (0, 2)], "insertItems": [(0, 0)]},
    ]
    for updates in steps:
        picture.apply(client.perform_batch_updates("seed", updates))
        picture_matches(client, "seed", picture)
    # The raw JSON form is accepted as well.
    raw = client.request("layout/setBounds", {"session": "seed", "bounds": {"x": 0, "y": 0, "width": 375, "height": 300}})
    picture.apply(raw)
    picture_matches(client, "seed", picture)
    assert [a.z_index for a in picture.painting_order()] == sorted(a.z_index for a in picture)


# MARK: element keys and laps


def test_element_key_without_a_lap_is_the_plain_triple() -> None:
    k = ElementKey("cell", 0, 3)
    assert k == ("cell", 0, 3) and hash(k) == hash(("cell", 0, 3))
    assert ElementKey("cell", 0, 3, 0) == k == ElementKey("cell", 0, 3, None)
    assert (k.kind, k.section, k.item, k.lap) == ("cell", 0, 3, 0)
    kind, section, item = k
    assert (kind, section, item) == ("cell", 0, 3)
    assert {("cell", 0, 3): 1}[k] == 1
    assert ElementKey.from_json({"kind": "cell", "section": 0, "item": 3}) == k
    assert ElementKey.from_json({"kind": "cell", "section": 0, "item": 3, "lap": 0}) == k
    assert k.to_json() == {"kind": "cell", "section": 0, "item": 3}
    assert repr(k) == "ElementKey(kind='cell', section=0, item=3)"
    assert copy.deepcopy(k) == k and pickle.loads(pickle.dumps(k)) == k


def test_element_key_with_a_lap() -> None:
    k = ElementKey("cell", 0, 3, lap=2)
    assert k != ("cell", 0, 3) and k == ("cell", 0, 3, 2) and k.lap == 2
    assert k != ElementKey("cell", 0, 3, -2)
    assert ElementKey.from_json({"kind": "cell", "section": 0, "item": 3, "lap": 2}) == k
    assert k.to_json() == {"kind": "cell", "section": 0, "item": 3, "lap": 2}
    assert pickle.loads(pickle.dumps(k)) == k and type(copy.copy(k)) is ElementKey
    assert sorted([k, ElementKey("cell", 0, 9), ElementKey("cell", 0, 1, 1)], key=ElementKey.document_order) == [
        ("cell", 0, 9), ("cell", 0, 1, 1), ("cell", 0, 3, 2)
    ]


def test_picture_keeps_one_element_per_lap() -> None:
    """Looping carousels draw an item once per lap: the picture keys each
    copy apart (the daemon does not send laps yet; the JSON is by hand)."""
    def cell(item: int, x: float, lap: Any = None) -> dict:
        a = {"kind": "cell", "section": 0, "item": item, "center": {"x": x, "y": 150},
             "size": {"width": 200, "height": 300}, "frame": {"x": x - 100, "y": 0, "width": 200, "height": 300},
             "alpha": 1, "zIndex": 0}
        if lap is not None:
            a["lap"] = lap
        return a

    picture = Picture()
    picture.apply_open({"contentSize": {"width": 690, "height": 300}, "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
                        "attributes": [cell(2, -42.5, -1), cell(0, 187.5), cell(1, 417.5)], "centeredItem": {"section": 0, "item": 0}})
    assert picture.keys() == [("cell", 0, 2, -1), ("cell", 0, 0), ("cell", 0, 1)]
    assert picture[("cell", 0, 2, -1)].lap == -1 and ("cell", 0, 0) in picture
    assert ("cell", 0, 0, 0) in picture and ("cell", 0, 2) not in picture
    picture.apply({"contentSize": {"width": 690, "height": 300}, "bounds": {"x": 230, "y": 0, "width": 375, "height": 300},
                   "invalidated": [cell(2, 647.5), cell(0, 877.5, 1)],
                   "removed": [{"kind": "cell", "section": 0, "item": 2, "lap": -1}, {"kind": "cell", "section": 0, "item": 0, "lap": 0}],
                   "centeredItem": {"section": 0, "item": 1}})
    assert picture.keys() == [("cell", 0, 1), ("cell", 0, 2), ("cell", 0, 0, 1)]
    assert picture.centered_item == IndexPath(0, 1)


# MARK: errors


def test_rpc_error_carries_code_message_and_field(client: Client) -> None:
    grid(client)
    with pytest.raises(RPCError) as e:
        client.attributes_for_item("grid", 1, 2)
    err = e.value
    assert err.code == -32602 == RPCError.INVALID_PARAMS
    assert err.message == "params.item is out of range: section 1 has 2 items"
    assert err.field == "params.item" and err.data == {"field": "params.item"}
    assert str(err) == "params.item is out of range: section 1 has 2 items (code -32602)"
    with pytest.raises(RPCError) as e:
        client.open("grid", {"type": "flow"}, VIEW, [])
    assert (e.value.code, e.value.message, e.value.field) == (1002, 'session "grid" is already open', "params.session")
    with pytest.raises(RPCError) as e:
        client.set_bounds("grid", Rect(0, 0, -375, 300))
    assert e.value.field == "params.bounds.width"
    assert e.value.message == "params.bounds.width must be a finite number >= 0"
    with pytest.raises(RPCError) as e:
        client.request("layout/twist", {})
    assert e.value.code == RPCError.METHOD_NOT_FOUND and e.value.field is None


# MARK: lifecycle


def test_context_manager_shuts_the_daemon_down() -> None:
    with Client(DAEMON) as c:
        assert c.server_info["name"] == "flowlayoutd"
        assert "layout/performBatchUpdates" in c.capabilities["methods"]
        process = c.process
        assert process is not None and process.poll() is None
    assert c.closed
    assert process.returncode == 0  # shutdown then exit
    assert c.shutdown() == 0  # idempotent
    with pytest.raises(DaemonError):
        c.content_size("x")


def _unexpected_responses(n: int) -> bytes:
    """A batch of responses: the daemon logs each one it ignores."""
    return json.dumps([{"jsonrpc": "2.0", "id": i, "result": None} for i in range(n)]).encode()


def test_stderr_is_drained() -> None:
    """5000 diagnostics (about 230 KB, more than a pipe holds) would block
    a daemon whose stderr nobody reads."""
    with Client(DAEMON) as c:
        assert c.exchange(_unexpected_responses(5000)) == []
        assert c.open("s", SEED_LAYOUT, VIEW, [{"itemCount": 3}]).content_size == Size(835, 300)
        tail = c.stderr_tail()
        assert tail and tail[-1] == "flowlayoutd: ignoring an unexpected response"
        process = c.process
    assert process is not None and process.returncode == 0


def test_daemon_logging_to_a_file(tmp_path: Path) -> None:
    log = tmp_path / "flowlayoutd.log"
    with Client(DAEMON, args=["--log", str(log)]) as c:
        assert c.exchange(_unexpected_responses(3)) == []
        assert c.open("s", SEED_LAYOUT, VIEW, [{"itemCount": 10}]).content_size == Size(2445, 300)
        assert c.scroll_ended("s", (300, 0), (0, 0)).target_content_offset == Point(230, 0)
        process = c.process
    assert process is not None and process.returncode == 0
    assert c.stderr_tail() == []
    assert log.read_text().count("ignoring an unexpected response") == 3


def test_looping_answers_keep_their_lap(client: Client) -> None:
    """A wrapping pager of 3 pages 200 apart: centred items, snap targets and
    hit items carry the lap the daemon names (IndexPath.lap), which does not
    change what an index path equals."""
    layout = {"type": "pager", "itemSize": {"width": 200, "height": 200}, "wrap": True}
    opened = client.open("loop", layout, Rect(0, 0, 400, 300), [{"itemCount": 3}])
    assert opened.centered_item == IndexPath(0, 0) and opened.centered_item.lap == 0
    # 7 pages on: page 1 of lap 2.
    moved = client.set_bounds("loop", Rect(1400, 0, 400, 300))
    assert moved.centered_item == IndexPath(0, 1) and moved.centered_item.lap == 2
    plan = client.scroll_ended("loop", Point(1650, 0), Point(-1, 0))
    # A fling back from 8.25 pages passes one boundary: slot 8, page 2 of lap 2.
    assert plan.target_content_offset == Point(1600, 0)
    assert (plan.target_item, plan.target_item.lap) == (IndexPath(0, 2), 2)
    hit = client.item_at_point("loop", Point(1600, 150))
    assert (hit, hit.lap) == (IndexPath(0, 1), 2)
    assert hit.to_json() == {"section": 0, "item": 1, "lap": 2}
    # Without a loop the daemon names no lap: 0, as Attributes.lap is (issue #45).
    flat = client.open("flat", dict(layout, wrap=False), Rect(0, 0, 400, 300), [{"itemCount": 3}])
    assert flat.centered_item.lap == 0 and flat.centered_item.to_json() == {"section": 0, "item": 0}


def test_apply_snapshot_and_the_picture_by_id(client: Client) -> None:
    """A list of 300×40 rows, no spacing, in a 300×120 view: row k at 40k.
    Moving "d" to the top is one move; the view follows "a", the row at
    the top before (anchoring); the picture finds rows by id, and 1 and
    "1" are two ids."""
    layout = {"type": "flow", "itemSize": {"width": 300, "height": 40}, "minimumLineSpacing": 0}
    view = Rect(0, 0, 300, 120)
    picture = Picture()
    picture.apply(client.open("l", layout, view, [{"id": "s", "itemCount": 4, "ids": ["a", "b", 1, "1"]}],
                              follows_end=False))
    assert picture.by_id("a") is not None and picture.by_id("a").frame == Rect(0, 0, 300, 40)
    assert picture.by_id(1).item == 2 and picture.by_id("1") is None  # "1" is below the view
    r = client.apply_snapshot("l", [{"id": "s", "items": ["1", "a", "b", 1]}])
    assert isinstance(r, SnapshotResult)
    assert r.updates == {"moveItems": [{"from": {"section": 0, "item": 3}, "to": {"section": 0, "item": 0}}]}
    assert r.bounds == Rect(0, 40, 300, 120)
    assert [(m.id, m.from_path.item, m.item) for m in r.moved] == [("a", 0, 1), ("b", 1, 2), (1, 2, 3)]
    picture.apply(r)
    assert picture.by_id("a").frame == Rect(0, 40, 300, 40)
    assert picture.by_id(1).item == 3 and picture.by_id("1") is None
    assert picture.ids() == ["a", "b", 1]
    # Keyed queries and measurement.
    assert client.attributes_for_item("l", id="1").frame == Rect(0, 0, 300, 40)
    assert client.scroll_to_item("l", id=1, position="leading") == Point(0, 40)  # 120, clamped
    sized = client.set_item_sizes("l", [{"id": "b", "size": {"width": 300, "height": 60}}])
    picture.apply(sized)
    assert picture.by_id("b").frame == Rect(0, 80, 300, 60)
    assert client.item_at_point("l", Point(5, 150)) == IndexPath(0, 3)
    assert client.item_at_point("l", Point(5, 150)).id == 1
    with pytest.raises(RPCError) as e:
        client.apply_snapshot("l", [{"id": "s", "items": ["a", "a"]}])
    assert e.value.field == "params.sections"
    # A session without ids: the first snapshot reloads (updates is None).
    client.open("n", layout, view, [{"itemCount": 2}])
    assert client.apply_snapshot("n", [{"id": 0, "items": ["x"]}]).updates is None


def test_drag_to_reorder_through_the_picture(client: Client) -> None:
    """A list of 300×40 rows, no spacing, in a 300×120 view. Row "a" is
    dragged onto row "c": the others close up while it follows the
    finger, and the drop is one move."""
    layout = {"type": "flow", "itemSize": {"width": 300, "height": 40}, "minimumLineSpacing": 0}
    picture = Picture()
    picture.apply(client.open("d", layout, Rect(0, 0, 300, 120), [{"itemCount": 3, "ids": ["a", "b", "c"]}]))
    # The answer's shape, {began}, as the JS and Swift clients have it.
    assert client.begin_interactive_movement("d", id="a") == MovementBegan(began=True)
    refused = client.begin_interactive_movement("d", 0, 1)  # one movement at a time
    assert refused.began is False and not refused
    u = client.update_interactive_movement("d", Point(150, 95))
    assert isinstance(u, MovementUpdate)
    assert u.target == IndexPath(0, 2) and u.autoscroll == Point(0, 0)  # nothing below to scroll to
    picture.apply(u)
    assert picture.by_id("a").moving and picture.by_id("a").frame == Rect(0, 75, 300, 40)
    assert picture.by_id("b").frame == Rect(0, 0, 300, 40) and not picture.by_id("b").moving
    assert picture.by_id("c").frame == Rect(0, 40, 300, 40)
    end = client.end_interactive_movement("d")
    assert isinstance(end, MovementEnd)
    assert end.updates == {"moveItems": [{"from": {"section": 0, "item": 0}, "to": {"section": 0, "item": 2}}]}
    assert [(m.id, m.from_frame, m.frame) for m in end.moved] == [
        ("a", Rect(0, 75, 300, 40), Rect(0, 80, 300, 40))]
    picture.apply(end)
    assert picture.ids() == ["b", "c", "a"] and not picture.by_id("a").moving
    assert client.begin_interactive_movement("d", id="c").began is True
    client.update_interactive_movement("d", Point(150, 10))
    r = client.perform_batch_updates("d", {"deleteItems": [(0, 0)]})
    assert r.movement_cancelled is True
    picture.apply(r)
    assert picture.ids() == ["c", "a"]
    assert client.begin_interactive_movement("d", id="a").began is True
    picture.apply(client.update_interactive_movement("d", Point(150, 10)))
    picture.apply(client.cancel_interactive_movement("d"))
    assert [(a.id, a.frame.y) for a in picture.elements()] == [("c", 0), ("a", 40)]


def test_lap_is_0_outside_a_loop_for_index_paths_as_for_attributes(client: Client) -> None:
    """Issue #45: IndexPath.lap was None where Attributes.lap is 0. Outside
    a loop the daemon names no lap, and both say 0."""
    opened = client.open("flat", {"type": "flow"}, Rect(0, 0, 375, 300), [{"itemCount": 3}])
    assert opened.centered_item is not None and opened.centered_item.lap == 0
    assert [a.lap for a in opened.attributes] == [0, 0, 0]
    assert client.item_at_point("flat", Point(10, 10)).lap == 0
    assert IndexPath(0, 1).to_json() == {"section": 0, "item": 1}


def test_scale_x_and_scale_y_under_a_tilt(client: Client) -> None:
    """Issue #45: under a tilt m11 (``scale``) is the scale times cos of the
    angle, which is not the card's scale. protocol.md's Tilt: a horizontal
    card's transform is [s·c, 0, −s·n, s·n·q, 0, s, 0, 0, n, 0, c, −c·q, …],
    so with a constant scale s = 0.5 (peak 0.5, factor 0, minimum 0) every side card
    has m11 = 0.5·c (c = m33 < 1) and its own x and y scales are 0.5."""
    layout = {
        "type": "coverFlow", "itemSize": {"width": 100, "height": 100},
        "scale": {"peak": 0.5, "factor": 0, "minimum": 0}, "rotation": {"maxAngle": 60, "perspective": 500},
    }
    opened = client.open("tilt", layout, Rect(0, 0, 375, 300), [{"itemCount": 10}])
    side = [a for a in opened.attributes if a.item >= 1]
    assert side, opened.attributes
    for a in side:
        c = a.transform[10]
        assert 0 < c < 0.99
        assert a.scale == pytest.approx(0.5 * c, abs=1e-12) and a.scale < 0.495
        assert a.scale_x == pytest.approx(0.5, abs=1e-12)
        assert a.scale_y == pytest.approx(0.5, abs=1e-12)
    centred = next(a for a in opened.attributes if a.item == 0)
    assert (centred.scale, centred.scale_x, centred.scale_y) == pytest.approx((0.5, 0.5, 0.5), abs=1e-12)
