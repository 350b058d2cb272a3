// Drag to reorder through the JS client: the moving row follows the
// finger, the others make room, the drop is one batch move, and a change
// during a drag cancels it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { FlowLayoutClient, Picture } from '../flowlayout.js';
import { findDaemon } from '../testing/daemon.mjs';

// A vertical list of 300×40 rows, no spacing, in a 300×120 viewport.
const LAYOUT = { type: 'flow', itemSize: { width: 300, height: 40 }, minimumLineSpacing: 0 };
const BOUNDS = { x: 0, y: 0, width: 300, height: 120 };

describe('interactive movement', () => {
  /** @type {FlowLayoutClient} */
  let client;
  before(async () => {
    client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
  });
  after(async () => {
    if (client && !client.closed) await client.shutdown();
  });

  test('a row dragged onto the third is dropped there as one move', async () => {
    const picture = new Picture();
    picture.apply(await client.open({
      session: 'drag', layout: LAYOUT, bounds: BOUNDS, sections: [{ itemCount: 3, ids: ['a', 'b', 'c'] }],
    }));
    assert.deepEqual(await client.beginInteractiveMovement({ session: 'drag', id: 'a' }), { began: true });
    const u = await client.updateInteractiveMovement({ session: 'drag', position: { x: 150, y: 95 } });
    assert.deepEqual(u.target, { section: 0, item: 2 });
    assert.deepEqual(u.autoscroll, { x: 0, y: 0 }); // the content fits: nowhere to scroll
    picture.apply(u);
    assert.equal(picture.byId('a')?.moving, true);
    assert.deepEqual(picture.byId('a')?.frame, { x: 0, y: 75, width: 300, height: 40 });
    assert.deepEqual(picture.byId('b')?.frame, { x: 0, y: 0, width: 300, height: 40 });
    const end = await client.endInteractiveMovement({ session: 'drag' });
    assert.deepEqual(end.updates, { moveItems: [{ from: { section: 0, item: 0 }, to: { section: 0, item: 2 } }] });
    assert.deepEqual(end.moved.map((m) => [m.id, m.fromFrame.y, m.frame.y]), [['a', 75, 80]]);
    picture.apply(end);
    assert.equal(picture.byId('a')?.moving, undefined);
    assert.equal(picture.byId('a')?.item, 2);
  });

  test('a batch during a drag cancels it first', async () => {
    await client.open({ session: 'cancel', layout: LAYOUT, bounds: BOUNDS, sections: [{ itemCount: 3 }] });
    await client.beginInteractiveMovement({ session: 'cancel', section: 0, item: 2 });
    await client.updateInteractiveMovement({ session: 'cancel', position: { x: 150, y: 10 } });
    const r = await client.performBatchUpdates({ session: 'cancel', updates: { deleteItems: [{ section: 0, item: 0 }] } });
    assert.equal(r.movementCancelled, true);
    await assert.rejects(
      client.updateInteractiveMovement({ session: 'cancel', position: { x: 0, y: 0 } }),
      (e) => e.code === -32602 && /no interactive movement in progress/.test(e.message),
    );
  });
});
