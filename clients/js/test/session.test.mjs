// A full session against the real daemon, every expected value worked out
// by hand from protocol.md (flow geometry rules 2–8, live sessions,
// anchoring, scrollEnded's projection and trajectory).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DaemonError, FlowLayoutClient, packSizes, Picture, RPCError } from '../flowlayout.js';
import { assertInSync, findDaemon } from '../testing/daemon.mjs';

/*
 * The session: a vertical flow of 90×40 items with the default spacings
 * (10 between lines, 10 between items) in a 300×120 viewport.
 *
 * Rule 2: 90 + 10 + 90 + 10 + 90 = 290 <= 300, a fourth would need 390:
 * three items a line. Rule 5: the 30 points left over are shared by the two
 * gaps, 15 each: x = 0, 105, 210. Rule 3: lines 40 thick, 10 apart: line r
 * at y = 50r. Rule 6: uniform sizes, so the last line's items stand where a
 * full line puts them. Rule 8: 10 items make 4 lines, 4·40 + 3·10 = 190.
 */
const SESSION = 'js-flow';
const VIEW = { width: 300, height: 120 };
const XS = [0, 105, 210];

/** @param {number} k */
function frame(k) {
  return { x: XS[k % 3], y: 50 * Math.floor(k / 3), width: 90, height: 40 };
}

/** The attributes of item k, as the daemon writes them. @param {number} k */
function cell(k) {
  const f = frame(k);
  return {
    kind: 'cell',
    section: 0,
    item: k,
    center: { x: f.x + 45, y: f.y + 20 },
    size: { width: 90, height: 40 },
    frame: f,
    alpha: 1,
    zIndex: 0,
  };
}

/** @param {number} k */
const key = (k) => ({ kind: 'cell', section: 0, item: k });
/** @param {number} a @param {number} b */
const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
/** @param {number} y */
const bounds = (y) => ({ x: 0, y, ...VIEW });

describe('a full session against the daemon', () => {
  /** @type {FlowLayoutClient} */
  let client;
  const picture = new Picture();

  before(async () => {
    client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
  });
  after(async () => {
    if (client && !client.closed) await client.shutdown();
  });

  test('initialize: serverInfo and the capabilities, with the method table', () => {
    assert.equal(client.serverInfo.name, 'flowlayoutd');
    assert.ok(client.capabilities.layoutTypes.includes('flow'));
    assert.ok(Array.isArray(client.capabilities.methodTable));
    assert.deepEqual(
      client.capabilities.methodTable.map((m) => m.name),
      client.capabilities.methods,
    );
    assert.equal(client.maxItemValuesPerRequest, null); // unlimited by default
  });

  test('open: the first picture', async () => {
    const opened = await client.open({
      session: SESSION,
      layout: { type: 'flow', itemSize: { width: 90, height: 40 } },
      bounds: bounds(0),
      sections: [{ itemCount: 10 }],
    });
    // Lines 0 (0…40), 1 (50…90) and 2 (100…140) meet 0…120; line 3 does not.
    assert.deepEqual(opened, {
      contentSize: { width: 300, height: 190 },
      bounds: bounds(0),
      attributes: range(0, 9).map(cell),
      // The viewport's centre (150, 60) is 10 from item 4's (150, 70).
      centeredItem: { section: 0, item: 4 },
    });
    assert.ok(client.changesPicture('layout/open'));
    picture.apply(opened);
    assert.equal(picture.size, 9);
    await assertInSync(client, SESSION, picture);
  });

  test('setBounds: a scroll sends only what entered and what left', async () => {
    const result = await client.setBounds({ session: SESSION, bounds: bounds(60) });
    // 60…180: line 0 leaves, line 3 (150…190) enters; lines 1 and 2 are
    // unchanged and not sent again.
    assert.deepEqual(result, {
      contentSize: { width: 300, height: 190 },
      bounds: bounds(60),
      invalidated: [cell(9)],
      removed: [key(0), key(1), key(2)],
      // The centre (150, 120) is item 7's.
      centeredItem: { section: 0, item: 7 },
    });
    assert.equal(client.pictureEffect('layout/setBounds'), 'delta');
    picture.apply(result);
    assert.deepEqual(
      picture.keys().map((k) => k.item),
      range(3, 10),
    );
    await assertInSync(client, SESSION, picture);
  });

  test('scrollEnded: flow glides freely, projected and clamped', async () => {
    const plan = await client.scrollEnded({
      session: SESSION,
      contentOffset: { x: 0, y: 60 },
      velocity: { x: 0, y: 0.1 },
      frameInterval: 500,
    });
    // 60 + 0.1·0.998/0.002 = 109.9, clamped to the offset range's end,
    // 190 − 120 = 70. Flow does not snap: the target is the projection.
    assert.deepEqual(plan.projectedContentOffset, { x: 0, y: 70 });
    assert.deepEqual(plan.targetContentOffset, { x: 0, y: 70 });
    assert.equal(plan.policy, 'free');
    // The target viewport's centre (150, 130) is 10 from item 7's.
    assert.deepEqual(plan.targetItem, { section: 0, item: 7 });
    // T = ln(0.5/10)/ln(0.998) = 1496.4 ms: N = 3 samples of 500 ms, then
    // the target at 1500 ms; y(t) = 60 + 10·(1 − 0.998^t).
    assert.equal(plan.durationMs, 1500);
    const ys = plan.trajectory.map((p) => p.y);
    const expected = [0, 500, 1000].map((t) => 60 + 10 * (1 - 0.998 ** t)).concat([70]);
    assert.equal(ys.length, expected.length);
    ys.forEach((y, i) => assert.ok(Math.abs(y - expected[i]) < 1e-9, `sample ${i}: ${y} vs ${expected[i]}`));
    assert.ok(plan.trajectory.every((p) => p.x === 0));
    assert.equal(client.changesPicture('layout/scrollEnded'), false);
    await assertInSync(client, SESSION, picture); // the session did not move
  });

  test('setBounds to the target: nothing to send', async () => {
    const result = await client.setBounds({ session: SESSION, bounds: bounds(70) });
    // 70…190 meets the same lines 1–3: no element changed.
    assert.deepEqual(result, {
      contentSize: { width: 300, height: 190 },
      bounds: bounds(70),
      invalidated: [],
      removed: [],
      centeredItem: { section: 0, item: 7 },
    });
    picture.apply(result);
    await assertInSync(client, SESSION, picture);
  });

  test('performBatchUpdates: a delete and an insert, anchored on the first visible item', async () => {
    const result = await client.performBatchUpdates({
      session: SESSION,
      updates: { deleteItems: [{ section: 0, item: 1 }], insertItems: [{ section: 0, item: 9 }] },
    });
    // The anchor is the first visible item, 3 (its centre at the
    // viewport's origin, y 70). After the delete it is item 2, centred at
    // y 20: the bounds move to 20. Visible 20…140: items 0–8. Keys are the
    // new index paths and every index keeps its frame, so only items 0–2
    // are new to the picture, and item 9 (150…190) leaves it.
    assert.deepEqual(result.bounds, bounds(20));
    assert.deepEqual(result.contentSize, { width: 300, height: 190 });
    assert.deepEqual(result.invalidated, [cell(0), cell(1), cell(2)]);
    assert.deepEqual(result.removed, [key(9)]);
    assert.deepEqual(result.centeredItem, { section: 0, item: 4 });
    // The inserted item 9 is not visible; the deleted item 1 was not in the
    // picture; old items 2…9 moved one place back (old 2 is visible after,
    // the others were visible before).
    assert.deepEqual(result.appearing, []);
    assert.deepEqual(result.disappearing, []);
    const moved = [...result.moved].sort((a, b) => a.item - b.item);
    assert.deepEqual(
      moved,
      range(1, 9).map((k) => ({
        kind: 'cell',
        section: 0,
        item: k,
        from: { section: 0, item: k + 1 },
        fromFrame: frame(k + 1),
        frame: frame(k),
      })),
    );
    picture.apply(result);
    assert.deepEqual(picture.bounds, bounds(20));
    await assertInSync(client, SESSION, picture);
  });

  test('packSizes is the documented encoding, and appendItems takes it', async () => {
    // protocol.md's example: 150×100, 60×100, 90×100.
    assert.equal(
      packSizes([150, 100, 60, 100, 90, 100]),
      'AAAAAADAYkAAAAAAAABZQAAAAAAAAE5AAAAAAAAAWUAAAAAAAIBWQAAAAAAAAFlA',
    );
    await client.open({
      session: 'js-packed', layout: { type: 'flow', minimumLineSpacing: 0 },
      bounds: { x: 0, y: 0, width: 400, height: 1000 }, sections: [{ itemCount: 0 }],
    });
    // Doubles a decimal would round: they come back as the same doubles.
    const sizes = [0.1, 1 / 3, 2 / 3, 123.456789, 250, 7e-3];
    const result = await client.appendItems({ session: 'js-packed', section: 0, widthsAndHeightsBase64: packSizes(sizes) });
    const cells = result.invalidated.sort((a, b) => a.item - b.item);
    assert.deepEqual(cells.map((a) => [a.size.width, a.size.height]), [[0.1, 1 / 3], [2 / 3, 123.456789], [250, 7e-3]]);
    await assert.rejects(
      client.appendItems({ session: 'js-packed', section: 0, widthsAndHeightsBase64: 'AAA' }),
      (e) => e instanceof RPCError && e.code === -32602 && e.field === 'params.widthsAndHeightsBase64',
    );
    await client.close({ session: 'js-packed' });
  });

  test('appendItems: the bulk path moves nothing that is visible', async () => {
    const result = await client.appendItems({ session: SESSION, section: 0, itemCount: 3 });
    // 13 items: 5 lines, 5·40 + 4·10 = 240. The new items 10 and 11 fill
    // line 3 (item 9 stays at x 0), item 12 starts line 4; 20…140 is as it was.
    assert.deepEqual(result, {
      contentSize: { width: 300, height: 240 },
      bounds: bounds(20),
      invalidated: [],
      removed: [],
      centeredItem: { section: 0, item: 4 },
    });
    picture.apply(result);
    await assertInSync(client, SESSION, picture);

    const down = await client.setBounds({ session: SESSION, bounds: bounds(120) });
    // 120…240 (the end of the range now): lines 2, 3 and 4.
    assert.deepEqual(down, {
      contentSize: { width: 300, height: 240 },
      bounds: bounds(120),
      invalidated: [cell(9), cell(10), cell(11), cell(12)],
      removed: range(0, 6).map(key),
      centeredItem: { section: 0, item: 10 },
    });
    picture.apply(down);
    assert.deepEqual(
      picture.keys().map((k) => k.item),
      range(6, 13),
    );
    await assertInSync(client, SESSION, picture);
  });

  test('the queries agree with the geometry', async () => {
    assert.deepEqual(await client.attributesForItem({ session: SESSION, section: 0, item: 12 }), {
      attributes: cell(12),
    });
    assert.deepEqual(await client.itemAtPoint({ session: SESSION, point: { x: 150, y: 170 } }), {
      section: 0,
      item: 10,
    });
    // Between items 9 (0…90) and 10 (105…195).
    assert.equal(await client.itemAtPoint({ session: SESSION, point: { x: 100, y: 170 } }), null);
    assert.deepEqual(await client.contentSize({ session: SESSION }), { contentSize: { width: 300, height: 240 } });
    // Item 12's centre (45, 220) at the viewport's centre needs y 160,
    // clamped to 120.
    assert.deepEqual(await client.scrollToItem({ session: SESSION, section: 0, item: 12 }), {
      contentOffset: { x: 0, y: 120 },
    });
    assert.deepEqual(
      await client.attributesForSupplementary({ session: SESSION, kind: 'header', section: 0 }),
      { attributes: null },
    );
  });

  test('an invalid field is -32602 naming it, and changes nothing', async () => {
    await assert.rejects(
      client.setBounds({ session: SESSION, bounds: { x: 0, y: 0, width: -1, height: 120 } }),
      (e) => {
        assert.ok(e instanceof RPCError);
        assert.equal(e.code, -32602);
        assert.equal(e.code, RPCError.INVALID_PARAMS);
        assert.equal(e.field, 'params.bounds.width');
        assert.deepEqual(e.data, { field: 'params.bounds.width' });
        assert.equal(e.message, 'params.bounds.width must be a finite number >= 0');
        assert.equal(e.method, 'layout/setBounds');
        return true;
      },
    );
    await assert.rejects(client.setBounds({ session: SESSION, bounds: bounds(0), bogus: 1 }), {
      code: -32602,
      field: 'params.bogus',
      message: 'params.bogus is not a known field',
    });
    await assert.rejects(client.request('layout/twist', {}), { code: -32601, field: null });
    await assertInSync(client, SESSION, picture);
    assert.deepEqual(picture.bounds, bounds(120));
  });

  test('requests may be pipelined: answers come back in order', async () => {
    const ys = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120];
    const answers = await Promise.all(ys.map((y) => client.setBounds({ session: SESSION, bounds: bounds(y) })));
    assert.deepEqual(
      answers.map((a) => a.bounds.y),
      ys,
    );
    for (const a of answers) picture.apply(a);
    await assertInSync(client, SESSION, picture);
  });

  test('close closes the session; a second close is 1001', async () => {
    assert.equal(await client.close({ session: SESSION }), null);
    await assert.rejects(client.close({ session: SESSION }), {
      name: 'RPCError',
      code: RPCError.UNKNOWN_SESSION,
      field: 'params.session',
      message: `unknown session "${SESSION}"`,
    });
  });

  test('shutdown: shutdown and exit, resolving with the exit code', async () => {
    assert.equal(await client.shutdown(), 0);
    assert.equal(await client.shutdown(), 0); // idempotent
    assert.ok(client.closed);
    await assert.rejects(client.contentSize({ session: SESSION }), DaemonError);
  });
});

describe('spawning', () => {
  test('args reach the daemon', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), args: ['--max-sessions', '1'] });
    try {
      assert.equal(client.capabilities.limits.maxSessions, 1);
      const open = (session) =>
        client.open({ session, layout: { type: 'flow' }, bounds: bounds(0), sections: [{ itemCount: 1 }] });
      await open('a');
      await assert.rejects(open('b'), { code: RPCError.LIMIT_EXCEEDED, field: 'params.session' });
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });

  test('a daemon that cannot be started is a DaemonError', async () => {
    await assert.rejects(FlowLayoutClient.spawn({ daemon: '/nonexistent/flowlayoutd' }), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.match(e.message, /cannot start flowlayoutd/);
      return true;
    });
  });

  test('a daemon that dies fails the requests waiting for it', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    const waiting = client.request('layout/contentSize', { session: 'none' });
    await assert.rejects(waiting, { code: RPCError.UNKNOWN_SESSION });
    client.process.kill('SIGKILL');
    await assert.rejects(client.request('layout/contentSize', { session: 'none' }), DaemonError);
    assert.equal(await client.shutdown(), -9); // SIGKILL, as Python's Popen.returncode says it
  });
});

describe('paging', () => {
  test('attributesInRectPages walks every element once, in order', async () => {
    const client = await FlowLayoutClient.spawn();
    try {
      await client.open({
        session: 'pages',
        layout: { type: 'flow', itemSize: { width: 10, height: 10 } },
        bounds: { x: 0, y: 0, width: 375, height: 600 },
        sections: [{ itemCount: 25000 }],
      });
      const { contentSize } = await client.contentSize({ session: 'pages' });
      const rect = { x: 0, y: 0, width: 375, height: contentSize.height };
      const items = [];
      for await (const a of client.attributesInRectPages({ session: 'pages', rect, limit: 4000 })) items.push(a.item);
      assert.equal(items.length, 25000);
      assert.ok(items.every((v, i) => v === i));
      const page = await client.attributesInRect({ session: 'pages', rect, limit: 2 });
      assert.deepEqual(page.next, { kind: 'cell', section: 0, item: 1 });
    } finally {
      await client.shutdown();
    }
  });
});
