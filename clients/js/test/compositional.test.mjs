// The JavaScript client on a compositional session: a row's scroll frames
// (scrollSection) patch the picture like any delta, a background comes
// first in its section's document order, and with {restart: true} a daemon
// killed between row scrolls is replaced with every row where it was.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { FlowLayoutClient, Picture } from '../flowlayout.js';
import { assertInSync, findDaemon } from '../testing/daemon.mjs';

const FULL = { fractionalWidth: 1 };
const OPEN = {
  session: 'apps',
  layout: {
    type: 'compositional',
    section: {
      group: { direction: 'horizontal', size: { width: FULL, height: { absolute: 50 } },
               subitems: [{ size: { width: FULL, height: { fractionalHeight: 1 } } }] },
      decorationItems: [{ kind: 'background' }],
    },
  },
  bounds: { x: 0, y: 0, width: 320, height: 300 },
  sections: [
    { itemCount: 2 },
    {
      itemCount: 10,
      layout: {
        group: { direction: 'horizontal', size: { width: { absolute: 120 }, height: { absolute: 80 } },
                 subitems: [{ size: { width: FULL, height: { fractionalHeight: 1 } } }] },
        interGroupSpacing: 8,
        orthogonalScrollingBehavior: 'groupPaging',
      },
    },
  ],
};

/** @returns {[string, any][]} */
function script() {
  /** @type {[string, any][]} */
  const calls = [['layout/open', OPEN]];
  for (let k = 1; k <= 6; k++) calls.push(['layout/scrollSection', { session: 'apps', section: 1, offset: 37 * k }]);
  calls.push(['layout/setBounds', { session: 'apps', bounds: { x: 0, y: 20, width: 320, height: 300 } }]);
  calls.push(['layout/scrollEnded', { session: 'apps', section: 1, contentOffset: { x: 222, y: 0 }, velocity: { x: 1, y: 0 } }]);
  calls.push(['layout/performBatchUpdates', { session: 'apps', updates: { insertItems: [{ section: 1, item: 0 }] } }]);
  for (let k = 1; k <= 3; k++) calls.push(['layout/scrollSection', { session: 'apps', section: 1, offset: 400 + 20 * k }]);
  calls.push(['layout/attributesInRect', { session: 'apps', rect: { x: 0, y: 0, width: 320, height: 400 } }]);
  return calls;
}

/**
 * @param {FlowLayoutClient} client
 * @param {number} [killAt]
 */
async function run(client, killAt) {
  const picture = new Picture();
  const answers = [];
  const calls = script();
  for (let i = 0; i < calls.length; i++) {
    if (i === killAt) client.process?.kill('SIGKILL');
    const [method, params] = calls[i];
    const result = await client.request(method, params);
    answers.push(result);
    if (client.changesPicture(method)) picture.apply(result);
  }
  await assertInSync(client, 'apps', picture);
  return { answers, picture };
}

describe('compositional', () => {
  test('row frames patch the picture; a background leads its section', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    try {
      const picture = new Picture();
      picture.apply(await client.request('layout/open', OPEN));
      const keys = picture.elements().map((a) => `${a.kind}/${a.section}/${a.item}`);
      assert.deepEqual(keys.slice(0, 3), ['decoration/0/0', 'cell/0/0', 'cell/0/1']);
      assert.equal(picture.elements()[0].elementKind, 'background');
      const r = await client.scrollSection({ session: 'apps', section: 1, offset: 5000 });
      // 10 cards: 10 · 120 + 9 · 8 = 1272 wide, offsets up to 952.
      assert.equal(r.offset, 952);
      picture.apply(r);
      const row = picture.elements().filter((a) => a.section === 1).map((a) => a.item);
      assert.deepEqual(row, [7, 8, 9]);
      await assertInSync(client, 'apps', picture);
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });

  test('a SIGKILL between row scrolls changes no answer', async () => {
    const plain = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    let expected;
    try {
      expected = await run(plain);
    } finally {
      await plain.shutdown();
    }
    for (const killAt of [3, 7, 10, 12]) {
      const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), restart: true });
      try {
        const got = await run(client, killAt);
        assert.equal(client.restarts, 1);
        assert.deepEqual(got.answers, expected.answers, `killed before call ${killAt + 1}`);
      } finally {
        await client.shutdown();
      }
    }
  });
});
