// layout/applySnapshot through the JS client, and Picture keyed by id:
// a list of messages keyed by id, shuffled by a snapshot, replayed on a
// twin from the answered batch.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { FlowLayoutClient, Picture } from '../flowlayout.js';
import { findDaemon } from '../testing/daemon.mjs';

// A vertical list of 300×40 rows, no spacing, in a 300×120 viewport.
const LAYOUT = { type: 'flow', itemSize: { width: 300, height: 40 }, minimumLineSpacing: 0 };
const BOUNDS = { x: 0, y: 0, width: 300, height: 120 };
const SECTIONS = [{ id: 'inbox', itemCount: 4, ids: ['a', 'b', 'c', 'd'] }];

describe('applySnapshot', () => {
  /** @type {FlowLayoutClient} */
  let client;
  before(async () => {
    client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
  });
  after(async () => {
    if (client && !client.closed) await client.shutdown();
  });

  test('a move is one move, the picture follows by id, and the batch replays', async () => {
    const picture = new Picture();
    picture.apply(await client.open({ session: 'list', layout: LAYOUT, bounds: BOUNDS, sections: SECTIONS }));
    await client.open({ session: 'twin', layout: LAYOUT, bounds: BOUNDS, sections: SECTIONS });
    assert.deepEqual(picture.byId('a')?.frame, { x: 0, y: 0, width: 300, height: 40 });
    assert.equal(picture.byId('d'), undefined); // below the viewport

    // d to the top: rows a, b, c each move down one row (40 points), and
    // the viewport follows a, the row the user was looking at (anchoring).
    const r = await client.applySnapshot({ session: 'list', sections: [{ id: 'inbox', items: ['d', 'a', 'b', 'c'] }] });
    assert.deepEqual(r.updates, { moveItems: [{ from: { section: 0, item: 3 }, to: { section: 0, item: 0 } }] });
    assert.deepEqual(r.bounds, { ...BOUNDS, y: 40 });
    picture.apply(r);
    assert.deepEqual(picture.byId('a')?.frame, { x: 0, y: 40, width: 300, height: 40 });
    assert.equal(picture.byId('a')?.item, 1);
    assert.deepEqual(picture.byId('c')?.frame, { x: 0, y: 120, width: 300, height: 40 });
    assert.equal(picture.byId('d'), undefined); // above the viewport now
    assert.deepEqual(
      r.moved.map((m) => [m.id, m.from.item, m.item]),
      [['a', 0, 1], ['b', 1, 2], ['c', 2, 3]],
    );

    const replay = await client.performBatchUpdates({ session: 'twin', updates: r.updates ?? {} });
    const { updates, ...rest } = r;
    assert.deepEqual(replay, rest);
  });

  test('ids are compared as JSON values: 1 and "1" are two items', async () => {
    const picture = new Picture();
    picture.apply(await client.open({ session: 'ids', layout: LAYOUT, bounds: BOUNDS, sections: [{ id: 0, itemCount: 2, ids: [1, '1'] }] }));
    assert.equal(picture.byId(1)?.item, 0);
    assert.equal(picture.byId('1')?.item, 1);
    const r = await client.applySnapshot({ session: 'ids', sections: [{ id: 0, items: ['1', 1] }] });
    picture.apply(r);
    assert.equal(picture.byId('1')?.item, 0);
    assert.equal(picture.byId(1)?.item, 1);
  });
});
