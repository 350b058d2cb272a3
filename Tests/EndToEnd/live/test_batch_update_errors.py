"""Every 1003 message of layout/performBatchUpdates, word for word: each
case's exact message must be the daemon's answer AND fit its row of the
table in protocol.md (S, T: sections; I: items; N: counts; P: index paths),
so the contract and the behaviour cannot drift apart. Each rejection must
leave the session exactly as it was."""

import re

import pytest

from daemon_support import REPO

# Three sections of 3, 2 and 4 items.
OPEN = {
    "session": "m",
    "layout": {"type": "flow", "itemSize": {"width": 50, "height": 50}},
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
    "sections": [{"itemCount": 3}, {"itemCount": 2}, {"itemCount": 4}],
}


def ip(s, i):
    return {"section": s, "item": i}


def P(s, i):
    return f"{{length = 2, path = {s} - {i}}}"


CASES = [
    ("itemCounts has the wrong number of sections", {"itemCounts": [3, 2]},
     "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (3), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."),
    ("an existing section's count disagrees with itemCounts", {"deleteItems": [ip(0, 0)], "itemCounts": [3, 2, 4]},
     "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (3) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."),
    ("an inserted section's count disagrees with itemCounts", {"insertSections": [{"index": 3, "itemCount": 2}], "itemCounts": [3, 2, 4, 5]},
     "Invalid update: invalid number of items in section 3. The number of items contained in an inserted section (5) must be equal to the number of items given for it (2)."),
    ("a delete beyond the sections", {"deleteItems": [ip(5, 0)]},
     "attempt to delete item 0 from section 5, but there are only 3 sections before the update"),
    ("a reload beyond the section's items", {"reloadItems": [ip(1, 2)]},
     "attempt to reload item 2 from section 1 which only contains 2 items before the update"),
    ("an insert beyond the section's new count", {"insertItems": [ip(1, 3)]},
     "attempt to insert item 3 into section 1, but there are only 3 items in section 1 after the update"),
    ("an insert beyond the sections", {"insertItems": [ip(3, 0)]},
     "attempt to insert item 0 into section 3, but there are only 3 sections after the update"),
    ("an insert into an inserted section", {"insertSections": [{"index": 0, "itemCount": 1}], "insertItems": [ip(0, 0)]},
     "attempt to insert item 0 into section 0, which is itself being inserted"),
    ("two inserts to one path", {"insertItems": [ip(0, 1), ip(0, 1)]},
     f"attempt to insert an item at index path {P(0, 1)}, which is already taken"),
    ("a section deleted out of range", {"deleteSections": [3]},
     "attempt to delete section 3, but there are only 3 sections before the update"),
    ("a section deleted twice", {"deleteSections": [1, 1]}, "attempt to delete section 1 twice"),
    ("a section inserted out of range", {"insertSections": [{"index": 5, "itemCount": 1}]},
     "attempt to insert section 5 but there are only 4 sections after the update"),
    ("a section inserted twice", {"insertSections": [{"index": 1, "itemCount": 1}, {"index": 1, "itemCount": 1}]},
     "attempt to insert section 1 twice, or where a section moves to"),
    ("a section moved from out of range", {"moveSections": [{"from": 4, "to": 0}]},
     "attempt to move section 4, but there are only 3 sections before the update"),
    ("a section moved to out of range", {"moveSections": [{"from": 0, "to": 3}]},
     "attempt to move section 0 to section 3, but there are only 3 sections after the update"),
    ("a section both deleted and moved", {"deleteSections": [0], "insertSections": [{"index": 0, "itemCount": 1}], "moveSections": [{"from": 0, "to": 1}]},
     "attempt to delete and move the same section (0)"),
    ("a section moved twice", {"moveSections": [{"from": 0, "to": 1}, {"from": 0, "to": 2}]},
     "attempt to move section 0 twice"),
    ("two sections moved to one place", {"moveSections": [{"from": 0, "to": 2}, {"from": 1, "to": 2}]},
     "attempt to move section 1 to section 2, which is already taken"),
    ("an item deleted twice", {"deleteItems": [ip(2, 1), ip(2, 1)]},
     f"attempt to delete the same index path twice {P(2, 1)}"),
    ("an item in a deleted section deleted", {"deleteSections": [1], "deleteItems": [ip(1, 0)]},
     "attempt to delete item 0 from section 1, which is also being deleted"),
    ("an item in a deleted section reloaded", {"deleteSections": [1], "reloadItems": [ip(1, 0)]},
     "attempt to reload item 0 in section 1, which is being deleted"),
    ("an item in a deleted section moved out", {"deleteSections": [1], "moveItems": [{"from": ip(1, 0), "to": ip(0, 0)}]},
     "attempt to move item 0 out of section 1, which is being deleted"),
    ("an item deleted and reloaded", {"deleteItems": [ip(0, 2)], "reloadItems": [ip(0, 2)]},
     f"attempt to delete and reload the same index path {P(0, 2)}"),
    ("an item deleted and moved", {"deleteItems": [ip(0, 0)], "moveItems": [{"from": ip(0, 0), "to": ip(0, 1)}]},
     f"attempt to perform a delete and a move from the same index path {P(0, 0)}"),
    ("an item reloaded and moved", {"reloadItems": [ip(0, 0)], "moveItems": [{"from": ip(0, 0), "to": ip(0, 1)}]},
     f"attempt to perform a reload and a move from the same index path {P(0, 0)}"),
    ("an item moved twice", {"moveItems": [{"from": ip(0, 0), "to": ip(0, 1)}, {"from": ip(0, 0), "to": ip(0, 2)}]},
     f"attempt to move index path {P(0, 0)} twice"),
    ("a move beyond the sections", {"moveItems": [{"from": ip(0, 0), "to": ip(3, 0)}]},
     f"attempt to move index path {P(0, 0)} to index path {P(3, 0)}, but there are only 3 sections after the update"),
    ("a move beyond the section's new count", {"moveItems": [{"from": ip(0, 0), "to": ip(1, 3)}]},
     f"attempt to move index path {P(0, 0)} to index path {P(1, 3)}, but there are only 3 items in section 1 after the update"),
    ("a move into an inserted section", {"insertSections": [{"index": 3, "itemCount": 0}], "moveItems": [{"from": ip(0, 0), "to": ip(3, 0)}]},
     f"attempt to move index path {P(0, 0)} into section 3, which is being inserted"),
    ("two moves to one path", {"moveItems": [{"from": ip(0, 0), "to": ip(2, 0)}, {"from": ip(0, 1), "to": ip(2, 0)}]},
     f"attempt to move index path {P(0, 1)} to index path {P(2, 0)}, which is already taken"),
]


def table_templates():
    text = (REPO / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index("### `layout/performBatchUpdates`"):text.index("### `layout/reloadData`")]
    templates = []
    for row in re.findall(r"^\| (.+?) \| `(.+?)`(.*)\|$", section, flags=re.M):
        message, rest = row[1], row[2]
        variants = [message]
        if "likewise" in rest:  # "(likewise `reload`, `move`)"
            variants += [message.replace("delete", v, 1) for v in re.findall(r"`(\w+)`", rest)]
        templates += variants
    # Messages too long for a table row stand in text blocks of their own.
    templates += re.findall(r"```text\n(.+?)\n```", section)
    return templates


def as_regex(template):
    out = re.escape(template)
    out = out.replace(r"\{length\ =\ 2,\ path\ =\ S\ \-\ I\}", r"\{length = 2, path = \d+ - \d+\}")
    out = re.sub(r"\bP\b", r"\\{length = 2, path = \\d+ - \\d+\\}", out)
    out = re.sub(r"\b[STIN]\b", r"\\d+", out)
    return re.compile("^" + out + "$")


def test_every_message_has_a_row_and_every_case_fits_one():
    regexes = [as_regex(t) for t in table_templates()]
    assert len(regexes) >= 30
    for name, _, message in CASES:
        assert any(r.match(message) for r in regexes), f"{name}: no row of protocol.md fits {message!r}"


@pytest.mark.parametrize("name, updates, message", CASES, ids=[c[0] for c in CASES])
def test_message_word_for_word(server, name, updates, message):
    server.call("layout/open", OPEN)
    whole = {"session": "m", "rect": {"x": 0, "y": 0, "width": 320, "height": 1000}}
    before = server.call("layout/attributesInRect", whole)
    e = server.error("layout/performBatchUpdates", {"session": "m", "updates": updates}, code=1003)
    assert e["message"] == message
    assert e["data"] == {"field": "params.updates"}
    assert server.call("layout/attributesInRect", whole) == before
