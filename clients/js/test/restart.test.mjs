// spawn({restart: true}): a daemon killed (SIGKILL) at any point of a
// scripted session is replaced, its sessions are brought back from the
// client's logs, and every answer, and so every picture, is the one an
// uninterrupted daemon gives.

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { DaemonError, FlowLayoutClient, FrameParser, Picture, RPCError } from '../flowlayout.js';
import { assertInSync, findDaemon, JS_DIR } from '../testing/daemon.mjs';

const A = 'restart-cover';
const B = 'restart-flow';
const VIEW = { width: 375, height: 300 };
const ROTATED = { width: 300, height: 375 };

/** 20 items of varied sizes: a coverFlow's cards are not all alike. */
const SIZES = Array.from({ length: 20 }, (_, i) => ({ width: 120 + ((i * 37) % 90), height: 150 + ((i * 53) % 120) }));

/**
 * One call of the script: its method and a function making its params (so
 * a step can reuse and change an object of the caller's, as a scroll loop
 * does with its bounds).
 * @typedef {{method: string, params: () => any}} Step
 */

/** @returns {Step[]} the scripted session: ~40 calls over two sessions */
function script() {
  // The caller's own bounds object, moved before every scroll frame: the
  // client must log what it sent, not this object.
  const scroll = { x: 0, y: 0, ...VIEW };
  /** @param {number} x @returns {Step} */
  const frameA = (x) => ({
    method: 'layout/setBounds',
    params: () => {
      scroll.x = x;
      return { session: A, bounds: scroll };
    },
  });
  /** @param {number} x @param {{width: number, height: number}} size @returns {Step} */
  const boundsA = (x, size) => ({ method: 'layout/setBounds', params: () => ({ session: A, bounds: { x, y: 0, ...size } }) });
  /** @param {number} y @returns {Step} */
  const frameB = (y) => ({
    method: 'layout/setBounds',
    params: () => ({ session: B, bounds: { x: 0, y, width: 320, height: 200 } }),
  });
  /** @type {Step[]} */
  const steps = [
    {
      method: 'layout/open',
      params: () => ({
        session: A,
        layout: {
          type: 'coverFlow',
          scrollDirection: 'horizontal',
          itemSize: { width: 160, height: 220 },
          minimumLineSpacing: 20,
          scale: { peak: 1, factor: 0.4, minimum: 0.5 },
          alpha: { peak: 1, factor: 0.3, minimum: 0.4 },
          rotation: { maxAngle: 45, perspective: 500 },
          snap: { policy: 'nearest' },
        },
        bounds: { x: 0, y: 0, ...VIEW },
        sections: [{ itemSizes: SIZES, ids: SIZES.map((_, i) => `card-${i}`) }],
      }),
    },
  ];
  for (let i = 1; i <= 12; i++) steps.push(frameA(37 * i));
  steps.push(
    {
      method: 'layout/scrollEnded',
      params: () => ({ session: A, contentOffset: { x: 444, y: 0 }, velocity: { x: 0.8, y: 0 }, frameInterval: 100 }),
    },
    {
      method: 'layout/performBatchUpdates',
      params: () => ({
        session: A,
        updates: {
          insertItems: [
            { section: 0, item: 3, size: { width: 200, height: 180 }, id: 'new-3' },
            { section: 0, item: 9, size: { width: 140, height: 260 }, id: 'new-9' },
          ],
        },
      }),
    },
    {
      method: 'layout/open',
      params: () => ({
        session: B,
        layout: { type: 'flow', itemSize: { width: 90, height: 40 } },
        bounds: { x: 0, y: 0, width: 320, height: 200 },
        sections: [{ itemCount: 30 }, { itemCount: 12 }],
      }),
    },
    frameB(60),
    {
      method: 'layout/performBatchUpdates',
      params: () => ({ session: A, updates: { deleteItems: [{ section: 0, item: 1 }, { section: 0, item: 5 }] } }),
    },
    frameA(520),
    {
      method: 'layout/appendItems',
      params: () => ({ session: A, section: 0, itemSizes: [{ width: 130, height: 200 }, { width: 210, height: 170 }], ids: ['tail-0', 'tail-1'] }),
    },
    {
      method: 'layout/configure',
      params: () => ({ session: A, layout: { minimumLineSpacing: 32, scale: { peak: 1, factor: 0.25, minimum: 0.6 } } }),
    },
    frameB(140),
    boundsA(520, ROTATED), // a rotation: a relayout that anchors
    { method: 'layout/attributesInRect', params: () => ({ session: A, rect: { x: 0, y: 0, width: 1200, height: 375 } }) },
    { method: 'layout/attributesForItem', params: () => ({ session: A, section: 0, item: 7 }) },
    frameA(0), // the scroll loop goes on with the new size
    {
      method: 'layout/setBounds',
      params: () => {
        Object.assign(scroll, ROTATED, { x: 90 });
        return { session: A, bounds: scroll };
      },
    },
    frameA(180),
    frameA(270),
    frameB(260),
    frameA(360),
    { method: 'layout/scrollToItem', params: () => ({ session: A, section: 0, item: 12, position: 'center' }) },
    { method: 'layout/contentSize', params: () => ({ session: B }) },
    { method: 'layout/itemAtPoint', params: () => ({ session: A, point: { x: 510, y: 180 } }) },
    { method: 'layout/close', params: () => ({ session: B }) },
    frameA(450),
    frameA(540),
    { method: 'layout/attributesForItem', params: () => ({ session: A, section: 0, item: 0 }) },
    boundsA(540, VIEW), // and back
    frameA(600),
    {
      method: 'layout/scrollEnded',
      params: () => ({ session: A, contentOffset: { x: 600, y: 0 }, velocity: { x: -1.5, y: 0 }, frameInterval: 250 }),
    },
    { method: 'layout/contentSize', params: () => ({ session: A }) },
    { method: 'layout/attributesInRect', params: () => ({ session: A, rect: { x: 0, y: 0, width: 5000, height: 300 } }) },
  );
  return steps;
}

const STEPS = script().length;

/**
 * What a run saw: every answer, and after every call a snapshot of every
 * session's picture.
 * @typedef {{answers: any[], pictures: any[]}} Run
 */

/** @param {Map<string, Picture>} pictures */
function snapshot(pictures) {
  return Object.fromEntries(
    [...pictures].map(([session, p]) => [
      session,
      { elements: p.elements(), contentSize: p.contentSize, bounds: p.bounds, centeredItem: p.centeredItem },
    ]),
  );
}

/**
 * How the daemon is killed at call `at` (1-based):
 * - `before`: SIGKILL, then the call;
 * - `stopped`: SIGSTOP, the call (its request is written into the pipe of
 *   a daemon that cannot answer it), then SIGKILL from a setImmediate: a
 *   request that is certainly in flight;
 * - `written`: the call, then SIGKILL from a setImmediate; `sync`: the
 *   call, then SIGKILL in the same tick (either may lose the race to the
 *   answer, and the next call finds the daemon dead);
 * - `pipelined`: calls at…at+3 are sent together to a stopped daemon, then
 *   SIGKILL: four requests in flight; `pipelined-live`: the same with a
 *   running daemon, some of them may be answered before it dies.
 * @typedef {{at: number, how: 'before' | 'stopped' | 'written' | 'sync' | 'pipelined' | 'pipelined-live'}} Kill
 */

/**
 * Runs the script on `client`, killing its daemon as `kill` says.
 * @param {FlowLayoutClient} client
 * @param {Kill} [kill]
 * @returns {Promise<Run & {pids: number[], restartedAt: number | null}>}
 */
async function run(client, kill) {
  const steps = script();
  /** @type {Map<string, Picture>} */
  const pictures = new Map();
  /** @type {any[]} */
  const answers = [];
  /** @type {any[]} */
  const snapshots = [];
  /** The call after whose answer `restarts` was first above 0. @type {number | null} */
  let restartedAt = null;
  const pids = [/** @type {number} */ (client.process?.pid)];
  /** @param {NodeJS.Signals} signal */
  const signal = (signal) => {
    if (signal === 'SIGKILL') pids.push(/** @type {number} */ (client.process?.pid));
    client.process?.kill(signal);
  };
  /** @param {Step} step @param {any} params @param {any} result */
  const adopt = (step, params, result) => {
    answers.push(result);
    if (restartedAt === null && client.restarts > 0) restartedAt = answers.length;
    const effect = client.pictureEffect(step.method);
    if (effect === 'open') pictures.set(params.session, new Picture());
    if (effect === 'open' || effect === 'delta') /** @type {Picture} */ (pictures.get(params.session)).apply(result);
    if (step.method === 'layout/close') pictures.delete(params.session);
    snapshots.push(snapshot(pictures));
  };
  /** @param {Step} step */
  const call = (step) => {
    const params = step.params();
    // What was sent, for the picture's bookkeeping (`params` may be the
    // caller's object that the next step moves).
    const sent = JSON.parse(JSON.stringify(params));
    return { step, params: sent, answer: client.request(step.method, params) };
  };
  for (let i = 0; i < steps.length; i++) {
    const here = kill && kill.at === i + 1 ? kill.how : null;
    if (here === 'pipelined' || here === 'pipelined-live') {
      const group = steps.slice(i, i + 4);
      if (here === 'pipelined') signal('SIGSTOP');
      // Each params object is made and sent before the next is made.
      const calls = group.map(call);
      if (here === 'pipelined') setImmediate(() => signal('SIGKILL'));
      else signal('SIGKILL');
      for (const c of calls) adopt(c.step, c.params, await c.answer);
      i += group.length - 1;
      continue;
    }
    if (here === 'before') signal('SIGKILL');
    if (here === 'stopped') signal('SIGSTOP');
    const c = call(steps[i]);
    if (here === 'sync') signal('SIGKILL');
    if (here === 'written' || here === 'stopped') setImmediate(() => signal('SIGKILL'));
    adopt(c.step, c.params, await c.answer);
  }
  for (const [session, picture] of pictures) await assertInSync(client, session, picture);
  pids.push(/** @type {number} */ (client.process?.pid));
  return { answers, pictures: snapshots, pids, restartedAt };
}

/**
 * A shell script standing in for the daemon: its first start runs `first`
 * (by default it execs the real daemon), every later one runs `later`
 * (with $REAL the daemon, and "$@" its args). Each start appends a line to
 * `starts`.
 * @param {string} dir
 * @param {string} later
 * @param {string} [first]
 */
function wrapper(dir, later, first = 'exec "$REAL" "$@"') {
  const file = path.join(dir, `daemon-${Math.random().toString(36).slice(2)}.sh`);
  const starts = `${file}.starts`;
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      `REAL='${findDaemon()}'`,
      `echo start >> '${starts}'`,
      `if [ "$(wc -l < '${starts}')" -eq 1 ]; then ${first}; fi`,
      later,
      '',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return { file, starts: () => readFileSync(starts, 'utf8').split('\n').filter(Boolean).length };
}

/** @param {FlowLayoutClient} client */
const openTwo = async (client) => {
  for (const session of ['one', 'two']) {
    await client.open({
      session,
      layout: { type: 'coverFlow', itemSize: { width: 100, height: 100 } },
      bounds: { x: 0, y: 0, ...VIEW },
      sections: [{ itemSizes: SIZES }],
    });
  }
};

describe('restart: a daemon killed anywhere in a session', () => {
  /** @type {Run} */
  let expected;

  before(async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    try {
      expected = await run(client);
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
    assert.equal(expected.answers.length, STEPS);
    assert.ok(STEPS >= 40, `${STEPS} calls`);
  });

  /** @type {Kill[]} */
  const kills = [
    { at: 2, how: 'before' },
    { at: 3, how: 'before' },
    { at: 11, how: 'before' },
    { at: 15, how: 'before' },
    { at: 20, how: 'before' },
    { at: 25, how: 'before' },
    { at: 33, how: 'before' },
    { at: 38, how: 'before' },
    { at: 43, how: 'before' },
    { at: 2, how: 'stopped' },
    { at: 16, how: 'stopped' },
    { at: 21, how: 'stopped' },
    { at: 27, how: 'stopped' },
    { at: 39, how: 'stopped' },
    { at: 3, how: 'written' },
    { at: 20, how: 'written' },
    { at: 11, how: 'sync' },
    { at: 33, how: 'sync' },
    { at: 13, how: 'pipelined' },
    { at: 28, how: 'pipelined' },
    { at: 18, how: 'pipelined-live' },
  ];
  for (const kill of kills) {
    test(`SIGKILL ${kill.how} call ${kill.at}: every answer and every picture as without it`, async () => {
      const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), restart: true });
      try {
        const got = await run(client, kill);
        assert.equal(client.restarts, 1);
        if (kill.how === 'before' || kill.how === 'stopped' || kill.how === 'pipelined') {
          assert.equal(got.restartedAt, kill.at, 'the call the kill interrupted was answered by the new daemon');
        } else {
          assert.ok(got.restartedAt !== null && got.restartedAt >= kill.at);
        }
        assert.notEqual(got.pids[0], got.pids[got.pids.length - 1], 'a new daemon');
        assert.equal(got.pids[1], got.pids[0], 'the first daemon was the one killed');
        for (let i = 0; i < STEPS; i++) {
          assert.deepEqual(got.answers[i], expected.answers[i], `the answer of call ${i + 1}`);
          assert.deepEqual(got.pictures[i], expected.pictures[i], `the pictures after call ${i + 1}`);
        }
        assert.equal(client.serverInfo.name, 'flowlayoutd');
        assert.ok(Array.isArray(client.capabilities.methodTable));
      } finally {
        assert.equal(await client.shutdown(), 0);
      }
    });
  }

  test('two kills in one session: two restarts', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), restart: true });
    try {
      const steps = script();
      const answers = [];
      for (let i = 0; i < steps.length; i++) {
        if (i === 9 || i === 29) client.process?.kill('SIGKILL');
        answers.push(await client.request(steps[i].method, steps[i].params()));
      }
      assert.equal(client.restarts, 2);
      assert.deepEqual(answers, expected.answers);
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });
});

describe('restart: the limits', () => {
  /** @type {string} */
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'flowlayout-restart-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('without {restart: true}, the call after a SIGKILL is a DaemonError', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    await openTwo(client);
    client.process?.kill('SIGKILL');
    await assert.rejects(client.contentSize({ session: 'one' }), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.ok(!(e instanceof RPCError));
      assert.match(e.message, /flowlayoutd (closed its output|exited)/);
      return true;
    });
    await assert.rejects(client.contentSize({ session: 'one' }), DaemonError);
    assert.equal(client.restarts, 0);
    assert.equal(await client.shutdown(), -9);
  });

  test('an error answer is no death: nothing restarts', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), restart: true });
    const pid = client.process?.pid;
    await assert.rejects(client.contentSize({ session: 'none' }), { code: RPCError.UNKNOWN_SESSION });
    assert.equal(client.restarts, 0);
    assert.equal(client.process?.pid, pid);
    assert.equal(await client.shutdown(), 0);
  });

  test('a daemon that dies at every restart: a DaemonError after 3 restarts', async () => {
    const w = wrapper(dir, 'exit 3');
    const client = await FlowLayoutClient.spawn({ daemon: w.file, restart: true });
    await openTwo(client);
    client.process?.kill('SIGKILL');
    await assert.rejects(client.contentSize({ session: 'one' }), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.match(e.message, /giving up on flowlayoutd after 3 restarts in a row without an answer; the last: flowlayoutd .*\(exit status 3\)/);
      return true;
    });
    assert.equal(w.starts(), 4); // the first daemon and three restarts
    assert.equal(client.restarts, 3);
    // The next request tries again, as many times.
    await assert.rejects(client.contentSize({ session: 'one' }), /giving up/);
    assert.equal(w.starts(), 7);
    assert.equal(client.restarts, 6);
    assert.equal(await client.shutdown(), 3);
  });

  test('a daemon that can no longer be started: given up after 3 tries', async () => {
    const w = wrapper(dir, 'exec "$REAL" "$@"');
    const client = await FlowLayoutClient.spawn({ daemon: w.file, restart: true });
    await openTwo(client);
    rmSync(w.file);
    client.process?.kill('SIGKILL');
    await assert.rejects(client.contentSize({ session: 'one' }), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.match(e.message, /giving up on flowlayoutd after 3 restarts in a row without an answer; the last: cannot start flowlayoutd/);
      return true;
    });
    assert.equal(client.restarts, 3);
    assert.equal(await client.shutdown(), -9);
  });

  test('a daemon that dies during the replay: given up after 3 restarts', async () => {
    // Later starts read only the handshake and part of the replay (420
    // bytes, passed on byte by byte as they come), then see EOF and exit:
    // the new daemon dies in the middle of the replay.
    const w = wrapper(dir, 'dd bs=1 count=420 2>/dev/null | "$REAL" "$@"');
    const client = await FlowLayoutClient.spawn({ daemon: w.file, restart: true });
    await openTwo(client);
    // The daemon is gone before the requests are sent: sent first, a
    // quick daemon could answer them before the kill lands (it did on a
    // machine with both cores busy), and then nothing would be replayed.
    const died = new Promise((resolve) => client.process?.once('exit', resolve));
    client.process?.kill('SIGKILL');
    await died;
    const pending = [client.contentSize({ session: 'one' }), client.contentSize({ session: 'two' })];
    for (const p of pending) await assert.rejects(p, /giving up on flowlayoutd after 3 restarts in a row/);
    assert.equal(w.starts(), 4);
    assert.equal(client.restarts, 3);
    await client.shutdown();
  });

  test('a replayed request that fails: a DaemonError naming it', async () => {
    // Later daemons take one session only: the second session's open fails.
    const w = wrapper(dir, 'exec "$REAL" "$@" --max-sessions 1');
    const client = await FlowLayoutClient.spawn({ daemon: w.file, restart: true });
    await openTwo(client);
    client.process?.kill('SIGKILL');
    await assert.rejects(client.contentSize({ session: 'one' }), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.match(e.message, /the restarted flowlayoutd refused the replay: layout\/open: .*\(code 1004\)/);
      return true;
    });
    assert.equal(w.starts(), 2);
    assert.equal(client.restarts, 1);
    // That daemon, with one of the two sessions, is killed: the next
    // request does not get an answer from it, but tries another.
    await assert.rejects(client.contentSize({ session: 'one' }), /refused the replay/);
    assert.equal(w.starts(), 3);
    assert.equal(await client.shutdown(), -9);
  });

  test('a bad frame loses the connection too: restarted', async () => {
    const proxy = path.join(JS_DIR, 'testing', 'bad-frame-proxy.mjs');
    // The first daemon garbles its fourth answer; later ones are the real one.
    const w = wrapper(dir, 'exec "$REAL" "$@"', `exec '${process.execPath}' '${proxy}' "$REAL" 4 "$@"`);
    const plain = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    await openTwo(plain);
    const expected = [await plain.contentSize({ session: 'one' }), await plain.setBounds({ session: 'two', bounds: { x: 100, y: 0, ...VIEW } })];
    assert.equal(await plain.shutdown(), 0);
    const client = await FlowLayoutClient.spawn({ daemon: w.file, restart: true });
    try {
      await openTwo(client);
      const got = await Promise.all([client.contentSize({ session: 'one' }), client.setBounds({ session: 'two', bounds: { x: 100, y: 0, ...VIEW } })]);
      assert.deepEqual(got, expected);
      assert.equal(client.restarts, 1);
      assert.equal(w.starts(), 2);
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });

  test('the replay: scroll runs compacted to their last frame, rotations and changes kept in order', async () => {
    const input = path.join(dir, 'replayed.jsonrpc');
    // Later daemons get their input through tee, which keeps a copy.
    const w = wrapper(dir, `tee '${input}' | "$REAL" "$@"`);
    /** @param {FlowLayoutClient} client @param {boolean} kill */
    const sequence = async (client, kill) => {
      const answers = [];
      const frame = (session, x, size = VIEW) => client.setBounds({ session, bounds: { x, y: 0, ...size } });
      answers.push(
        await client.open({
          session: 'a',
          layout: { type: 'coverFlow', itemSize: { width: 100, height: 100 } },
          bounds: { x: 0, y: 0, ...VIEW },
          sections: [{ itemSizes: SIZES }],
        }),
      );
      for (let i = 1; i <= 50; i++) answers.push(await frame('a', 10 * i));
      answers.push(await frame('a', 500, ROTATED)); // a rotation
      for (let i = 1; i <= 20; i++) answers.push(await frame('a', 500 + 7 * i, ROTATED));
      answers.push(await client.performBatchUpdates({ session: 'a', updates: { deleteItems: [{ section: 0, item: 0 }] } }));
      for (let i = 1; i <= 10; i++) answers.push(await frame('a', 640 - 9 * i, ROTATED));
      answers.push(
        await client.open({ session: 'b', layout: { type: 'flow' }, bounds: { x: 0, y: 0, ...VIEW }, sections: [{ itemCount: 5 }] }),
      );
      for (let i = 1; i <= 5; i++) answers.push(await frame('b', i));
      answers.push(await client.close({ session: 'b' }));
      for (let i = 1; i <= 3; i++) answers.push(await frame('a', 300 + i, ROTATED));
      if (kill) client.process?.kill('SIGKILL');
      answers.push(await client.attributesInRect({ session: 'a', rect: { x: 0, y: 0, width: 4000, height: 375 } }));
      return answers;
    };
    const plain = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    const expected = await sequence(plain, false);
    assert.equal(await plain.shutdown(), 0);
    const client = await FlowLayoutClient.spawn({ daemon: w.file, restart: true });
    assert.deepEqual(await sequence(client, true), expected);
    assert.equal(client.restarts, 1);
    assert.equal(await client.shutdown(), 0);

    const parser = new FrameParser();
    const sent = parser.push(readFileSync(input)).map((body) => JSON.parse(new TextDecoder().decode(body)));
    assert.deepEqual(
      sent.map((m) => [m.method, m.params?.session, m.params?.bounds?.x, m.params?.bounds?.width]),
      [
        ['initialize', undefined, undefined, undefined],
        ['initialized', undefined, undefined, undefined],
        ['layout/open', 'a', 0, 375],
        ['layout/setBounds', 'a', 500, 375], // the last of 50 scroll frames
        ['layout/setBounds', 'a', 500, 300], // the rotation
        ['layout/setBounds', 'a', 640, 300], // the last of 20
        ['layout/performBatchUpdates', 'a', undefined, undefined],
        ['layout/setBounds', 'a', 303, 300], // the last of 13 (b's open and close between them are b's)
        ['layout/attributesInRect', 'a', undefined, undefined], // the interrupted call, sent again
        ['shutdown', undefined, undefined, undefined],
        ['exit', undefined, undefined, undefined],
      ],
    );
  });

  test('shutdown never restarts: a call interrupted by it is a DaemonError', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), restart: true });
    await openTwo(client);
    client.process?.kill('SIGKILL');
    const waiting = client.contentSize({ session: 'one' });
    const code = client.shutdown();
    await assert.rejects(waiting, DaemonError);
    assert.equal(await code, -9);
    assert.equal(client.restarts, 0);
  });

  test('closed and reopened sessions come back as they were last opened', async () => {
    /** @param {FlowLayoutClient} client @param {boolean} kill */
    const sequence = async (client, kill) => {
      const answers = [];
      await openTwo(client);
      answers.push(await client.close({ session: 'one' }));
      const reopened = {
        session: 'one',
        layout: { type: 'flow', itemSize: { width: 50, height: 50 } },
        bounds: { x: 0, y: 0, ...VIEW },
        sections: [{ itemCount: 40 }],
      };
      answers.push(await client.open(reopened));
      reopened.sections[0].itemCount = 1; // the caller's object changes; the log does not
      answers.push(await client.setBounds({ session: 'one', bounds: { x: 0, y: 120, ...VIEW } }));
      if (kill) client.process?.kill('SIGKILL');
      answers.push(await client.setBounds({ session: 'one', bounds: { x: 0, y: 240, ...VIEW } }));
      answers.push(await client.setBounds({ session: 'two', bounds: { x: 200, y: 0, ...VIEW } }));
      await assert.rejects(client.open({ ...reopened, session: 'two' }), { code: RPCError.SESSION_EXISTS });
      answers.push(await client.close({ session: 'two' }));
      await assert.rejects(client.contentSize({ session: 'two' }), { code: RPCError.UNKNOWN_SESSION });
      return answers;
    };
    const plain = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    const expected = await sequence(plain, false);
    assert.equal(await plain.shutdown(), 0);
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon(), restart: true });
    try {
      assert.deepEqual(await sequence(client, true), expected);
      assert.equal(client.restarts, 1);
      assert.ok(expected[3].removed.length > 0, 'the frame after the kill is a delta from y 120');
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });
});
