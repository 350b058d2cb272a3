"""Drag to reorder: begin, follow the finger, drop."""
from flowlayout import Client, Rect

with Client() as c:
    layout = {"type": "flow", "itemSize": {"width": 100, "height": 100},
              "minimumInteritemSpacing": 10, "minimumLineSpacing": 10}
    c.open("grid", layout, Rect(0, 0, 320, 400), [{"itemCount": 6}])
    assert c.begin_interactive_movement("grid", 0, 0).began
    # The finger carries item 0 to the centre of the third slot (x 210..310).
    update = c.update_interactive_movement("grid", (260, 50))
    print("target while dragging:", update.target)
    end = c.end_interactive_movement("grid")
    print("dropped:", end.updates)
