// Picture: the client's copy of the visible elements, in the Python
// client's orders (model.ElementKey.document_order, Picture.painting_order).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  changesPicture,
  documentOrder,
  elementKey,
  FlowLayoutClient,
  METHODS,
  Picture,
  pictureEffect,
} from '../flowlayout.js';
import { assertInSync, findDaemon } from '../testing/daemon.mjs';

/** Minimal attributes: only what the picture looks at, plus an id. */
function el(kind, section, item, lap, zIndex = 0) {
  const a = { kind, section, item, center: { x: 0, y: 0 }, size: { width: 1, height: 1 }, frame: { x: 0, y: 0, width: 1, height: 1 }, alpha: 1, zIndex };
  if (lap !== undefined) a.lap = lap;
  return a;
}
const RESULT = { contentSize: { width: 1, height: 1 }, bounds: { x: 0, y: 0, width: 1, height: 1 }, centeredItem: null };
const label = (a) => `${a.kind}/${a.section}/${a.item}${a.lap ? `@${a.lap}` : ''}`;

describe('Picture', () => {
  test('elements(): by lap, section, then header, cells by item, footer', () => {
    const p = new Picture();
    p.applyOpen({
      ...RESULT,
      attributes: [
        el('footer', 1, 0),
        el('cell', 1, 2),
        el('cell', 0, 10),
        el('header', 1, 0),
        el('cell', 0, 2),
        el('cell', 1, 0, 0),
        el('cell', 0, 1, -1),
        el('cell', 0, 0, 1),
        el('footer', 0, 0),
        el('header', 0, 0),
        el('badge', 0, 0), // an unknown kind sorts after the footer
      ],
    });
    assert.deepEqual(p.elements().map(label), [
      'cell/0/1@-1',
      'header/0/0',
      'cell/0/2',
      'cell/0/10',
      'footer/0/0',
      'badge/0/0',
      'header/1/0',
      'cell/1/0',
      'cell/1/2',
      'footer/1/0',
      'cell/0/0@1',
    ]);
    assert.equal(p.size, 11);
    assert.deepEqual([...p].map(label), p.elements().map(label));
  });

  test('paintingOrder(): zIndex, then document order', () => {
    const p = new Picture();
    p.applyOpen({
      ...RESULT,
      attributes: [el('cell', 0, 0, undefined, 0), el('cell', 0, 1, undefined, -5), el('header', 0, 0, undefined, 1024), el('cell', 0, 2, undefined, -5)],
    });
    assert.deepEqual(p.paintingOrder().map(label), ['cell/0/1', 'cell/0/2', 'cell/0/0', 'header/0/0']);
  });

  test('keys: lap 0 and no lap are one key; get and has take objects or arrays', () => {
    assert.equal(elementKey({ kind: 'cell', section: 0, item: 3 }), elementKey({ kind: 'cell', section: 0, item: 3, lap: 0 }));
    assert.notEqual(elementKey({ kind: 'cell', section: 0, item: 3 }), elementKey({ kind: 'cell', section: 0, item: 3, lap: 1 }));
    const p = new Picture();
    p.applyOpen({ ...RESULT, attributes: [el('cell', 0, 3, 0), el('cell', 0, 3, 2)] });
    assert.equal(p.size, 2);
    assert.ok(p.has({ kind: 'cell', section: 0, item: 3 }));
    assert.ok(p.has(['cell', 0, 3]));
    assert.ok(p.has(['cell', 0, 3, 0]));
    assert.ok(p.has(['cell', 0, 3, 2]));
    assert.ok(!p.has(['cell', 0, 3, 1]));
    assert.equal(p.get(['cell', 0, 3, 2]).lap, 2);
    assert.equal(p.get({ kind: 'cell', section: 0, item: 4 }), undefined);
    assert.deepEqual(p.keys(), [
      { kind: 'cell', section: 0, item: 3 },
      { kind: 'cell', section: 0, item: 3, lap: 2 },
    ]);
    assert.equal(documentOrder(el('cell', 0, 3, 0), el('cell', 0, 3)), 0);
  });

  test('apply: removed, then invalidated; an open result starts over', () => {
    const p = new Picture();
    p.apply({ ...RESULT, attributes: [el('cell', 0, 0), el('cell', 0, 1)], centeredItem: { section: 0, item: 0 } });
    assert.equal(p.size, 2);
    assert.deepEqual(p.centeredItem, { section: 0, item: 0 });
    const moved = { ...el('cell', 0, 1), alpha: 0.5 };
    p.apply({
      contentSize: { width: 2, height: 3 },
      bounds: { x: 5, y: 6, width: 1, height: 1 },
      // The same key removed and sent again: sent wins (removed goes first).
      removed: [{ kind: 'cell', section: 0, item: 0 }, { kind: 'cell', section: 0, item: 1 }],
      invalidated: [moved, el('cell', 0, 2)],
      centeredItem: { section: 0, item: 2 },
      appearing: [el('cell', 0, 9)], // only for animating: not in the picture
      disappearing: [],
      moved: [],
    });
    assert.deepEqual(p.elements().map(label), ['cell/0/1', 'cell/0/2']);
    assert.equal(p.get(['cell', 0, 1]).alpha, 0.5);
    assert.deepEqual(p.contentSize, { width: 2, height: 3 });
    assert.deepEqual(p.bounds, { x: 5, y: 6, width: 1, height: 1 });
    assert.deepEqual(p.centeredItem, { section: 0, item: 2 });
    p.apply({ ...RESULT, attributes: [el('footer', 3, 0)] }); // starts over
    assert.deepEqual(p.elements().map(label), ['footer/3/0']);
    assert.equal(p.centeredItem, null);
    assert.throws(() => p.apply({ targetContentOffset: { x: 0, y: 0 } }), TypeError);
  });
});

describe('which answers change the picture', () => {
  test('from the generated METHODS, not a hand list', () => {
    for (const m of METHODS) {
      assert.equal(pictureEffect(m.name), m.picture);
      assert.equal(changesPicture(m.name), m.picture !== 'none');
    }
    assert.equal(pictureEffect('layout/open'), 'open');
    assert.equal(pictureEffect('layout/setBounds'), 'delta');
    assert.equal(pictureEffect('layout/attributesInRect'), 'none');
    assert.equal(pictureEffect('layout/unknown'), undefined);
    assert.equal(changesPicture('layout/unknown'), false);
    assert.equal(changesPicture('initialize'), false);
  });

  test('a table passed in wins', () => {
    const table = [{ name: 'x/y', summary: '', params: [], result: 'null', picture: 'delta' }];
    assert.ok(changesPicture('x/y', table));
    assert.ok(!changesPicture('layout/setBounds', table));
  });
});

describe('a looping carousel in the picture, against the daemon', () => {
  test('each copy of a card is an element; order by lap', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    try {
      const session = 'js-loop';
      const picture = new Picture();
      // protocol.md's "single": one card, P = 230, three copies in −100…275.
      picture.apply(
        await client.open({
          session,
          layout: { type: 'coverFlow', minimumLineSpacing: 30, scale: { peak: 1, factor: 0 }, loop: true },
          bounds: { x: -100, y: 0, width: 375, height: 300 },
          sections: [{ itemCount: 1 }],
        }),
      );
      assert.deepEqual(
        picture.elements().map((a) => [a.item, a.lap, a.frame.x]),
        [
          [0, -1, -230],
          [0, 0, 0],
          [0, 1, 230],
        ],
      );
      assert.deepEqual(picture.centeredItem, { section: 0, item: 0, lap: 0 });
      // Nearer cards are in front: lap 0 (zIndex nearest 0) is painted last.
      assert.equal(picture.paintingOrder().at(-1).lap, 0);
      assert.ok(picture.has(['cell', 0, 0, 1]) && picture.has(['cell', 0, 0]));
      // Across the seam and back, patched by deltas, always the daemon's.
      for (const x of [0, 150, 230, 460, 1000, -700, -100]) {
        const result = await client.setBounds({ session, bounds: { x, y: 0, width: 375, height: 300 } });
        for (const k of result.removed) assert.ok('lap' in k, 'removed keys carry their lap');
        picture.apply(result);
        await assertInSync(client, session, picture);
      }
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });
});
