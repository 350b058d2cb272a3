// The browser path, FlowLayoutClient.connect(): GET /info and POST /rpc, as
// the `flowlayout web` bridge serves them. Mostly against a stub bridge made
// here with node:http, which relays to a daemon spawned by the Node path;
// once against the real bridge when python3 can run it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { DaemonError, FlowLayoutClient, Picture, RPCError } from '../flowlayout.js';
import { assertInSync, findDaemon, REPO } from '../testing/daemon.mjs';

const RESERVED = new Set(['initialize', 'shutdown', 'exit']);

/**
 * A stub of `flowlayout web`: /info from its own spawned client, /rpc
 * relayed through it. Records every message the page side sent.
 */
async function startStub() {
  const daemon = await FlowLayoutClient.spawn({ daemon: findDaemon() });
  /** @type {any[]} */
  const received = [];
  const server = createServer(async (req, res) => {
    const send = (status, body, type = 'application/json') => {
      res.writeHead(status, body === undefined ? {} : { 'Content-Type': type });
      res.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/info') {
      send(200, { serverInfo: daemon.serverInfo, capabilities: daemon.capabilities });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/rpc') {
      send(404, `not found: ${req.url}\n`, 'text/plain');
      return;
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      send(415, 'POST /rpc wants Content-Type: application/json\n', 'text/plain');
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    received.push(message);
    if (RESERVED.has(message.method)) {
      const error = { code: -32600, message: `Invalid request: ${message.method} is handled by the bridge` };
      send(400, { jsonrpc: '2.0', id: message.id ?? null, error });
      return;
    }
    if (message.method === 'stub/broken') {
      send(502, 'bad gateway\n', 'text/plain');
      return;
    }
    if (!('id' in message)) {
      await daemon.notify(message.method, message.params);
      send(204);
      return;
    }
    try {
      const result = await daemon.request(message.method, message.params);
      send(200, { jsonrpc: '2.0', id: message.id, result });
    } catch (e) {
      if (!(e instanceof RPCError)) throw e;
      const error = { code: e.code, message: e.message };
      if (e.data !== null) error.data = e.data;
      send(200, { jsonrpc: '2.0', id: message.id, error });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      return daemon.shutdown();
    },
  };
}

describe('connect(): over a stub bridge', () => {
  /** @type {Awaited<ReturnType<typeof startStub>>} */
  let stub;
  /** @type {FlowLayoutClient} */
  let client;

  before(async () => {
    stub = await startStub();
    client = await FlowLayoutClient.connect({ url: `${stub.url}/` }); // a trailing slash is fine
  });
  after(async () => {
    assert.equal(await stub.stop(), 0);
  });

  test('/info gives serverInfo and the capabilities, method table included', () => {
    assert.equal(client.serverInfo.name, 'flowlayoutd');
    assert.ok(Array.isArray(client.capabilities.methodTable));
    assert.equal(client.pictureEffect('layout/open'), 'open');
    assert.ok(client.changesPicture('layout/performBatchUpdates'));
    assert.ok(!client.changesPicture('layout/scrollToItem'));
    assert.equal(client.process, null);
  });

  test('a session through /rpc, the picture kept in sync', async () => {
    const session = 'js-web';
    const picture = new Picture();
    const bounds = (y) => ({ x: 0, y, width: 320, height: 100 });
    const apply = (method) => async (result) => {
      if (client.changesPicture(method)) picture.apply(result);
      return result;
    };
    const opened = await client
      .open({
        session,
        layout: { type: 'flow', itemSize: { width: 100, height: 50 } },
        bounds: bounds(0),
        sections: [{ itemCount: 7 }],
      })
      .then(apply('layout/open'));
    // protocol.md's "live" session, in 320×100: rows at 0 and 60 visible.
    assert.deepEqual(
      opened.attributes.map((a) => a.item),
      [0, 1, 2, 3, 4, 5],
    );
    await assertInSync(client, session, picture);
    const moved = await client.setBounds({ session, bounds: bounds(60) }).then(apply('layout/setBounds'));
    assert.deepEqual(
      moved.removed.map((k) => k.item),
      [0, 1, 2],
    );
    assert.deepEqual(
      moved.invalidated.map((a) => a.item),
      [6],
    );
    await assertInSync(client, session, picture);
    const batch = await client
      .performBatchUpdates({ session, updates: { insertItems: [{ section: 0, item: 0 }] } })
      .then(apply('layout/performBatchUpdates'));
    assert.equal(batch.contentSize.height, 170);
    await assertInSync(client, session, picture);
    await assert.rejects(client.setBounds({ session, bounds: { x: 0, y: 0, width: 320, height: -1 } }), (e) => {
      assert.ok(e instanceof RPCError);
      assert.equal(e.code, -32602);
      assert.equal(e.field, 'params.bounds.height');
      assert.equal(e.method, 'layout/setBounds');
      return true;
    });
    assert.equal(await client.close({ session }), null);
    await assert.rejects(client.close({ session }), { code: 1001, field: 'params.session' });
  });

  test('notifications go out as POSTs answered 204', async () => {
    await client.notify('$/cancelRequest', { id: 12345 });
    assert.deepEqual(stub.received.at(-1), { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 12345 } });
  });

  test('the lifecycle is the bridge\'s: refused if asked, never sent by the client', async () => {
    await assert.rejects(client.request('shutdown'), { name: 'RPCError', code: -32600 });
    stub.received.pop();
    const before = stub.received.length;
    const other = await FlowLayoutClient.connect({ url: stub.url });
    assert.equal(await other.shutdown(), null); // nothing to shut down from a page
    assert.ok(other.closed);
    await assert.rejects(other.contentSize({ session: 'x' }), DaemonError);
    assert.equal(stub.received.length, before);
    const lifecycle = stub.received.filter((m) => RESERVED.has(m.method));
    assert.deepEqual(lifecycle, []);
  });

  test('an answer that is not JSON-RPC is a DaemonError with the HTTP status', async () => {
    await assert.rejects(client.request('stub/broken', {}), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.match(e.message, /HTTP 502 bad gateway/);
      return true;
    });
  });

  test('requests are POST /rpc with a JSON body, through the fetch given', async () => {
    const seen = [];
    const recording = (url, init) => {
      seen.push({ url, init });
      return fetch(url, init);
    };
    const c = await FlowLayoutClient.connect({ url: stub.url, fetch: recording });
    await assert.rejects(c.contentSize({ session: 'nope' }), { code: 1001 });
    await assert.rejects(c.request('layout/contentSize', { session: 'nope' }, { keepalive: true }), { code: 1001 });
    assert.deepEqual(
      seen.map((s) => s.url),
      [`${stub.url}/info`, `${stub.url}/rpc`, `${stub.url}/rpc`],
    );
    const post = seen[1].init;
    assert.equal(post.method, 'POST');
    assert.equal(post.headers['Content-Type'], 'application/json');
    assert.equal(typeof post.body, 'string');
    const body = JSON.parse(post.body);
    assert.deepEqual(body, { jsonrpc: '2.0', id: body.id, method: 'layout/contentSize', params: { session: 'nope' } });
    assert.equal(post.keepalive, undefined);
    assert.equal(seen[2].init.keepalive, true);
  });

  test('no bridge is a DaemonError', async () => {
    const server = createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    await new Promise((resolve) => server.close(resolve)); // nothing listens there now
    await assert.rejects(FlowLayoutClient.connect({ url: `http://127.0.0.1:${port}` }), (e) => {
      assert.ok(e instanceof DaemonError);
      assert.match(e.message, /no flowlayout web bridge/);
      return true;
    });
  });
});

/** `python3 -m flowlayout web --port 0`, or null when it cannot run here. */
async function startRealBridge() {
  const env = { ...process.env, PYTHONPATH: path.join(REPO, 'clients', 'python') };
  const proc = spawn('python3', ['-m', 'flowlayout', 'web', '--port', '0', '--daemon', findDaemon()], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((resolve) => {
    let out = '';
    const timer = setTimeout(() => resolve(null), 10000);
    proc.on('error', () => resolve(null));
    proc.on('exit', () => resolve(null));
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (text) => {
      out += text;
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  if (!url) {
    proc.kill('SIGKILL');
    return null;
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        proc.on('exit', (code) => resolve(code));
        proc.kill('SIGINT');
      }),
  };
}

describe('connect(): over the real flowlayout web bridge', () => {
  test('info, a request, an error, and the bridge refusing the lifecycle', async (t) => {
    const bridge = await startRealBridge();
    if (!bridge) {
      t.skip('python3 -m flowlayout web could not be started here');
      return;
    }
    try {
      const client = await FlowLayoutClient.connect({ url: bridge.url });
      assert.equal(client.serverInfo.name, 'flowlayoutd');
      assert.ok(Array.isArray(client.capabilities.methodTable));
      const session = 'js-real-bridge';
      const picture = new Picture();
      picture.apply(
        await client.open({
          session,
          layout: { type: 'coverFlow' },
          bounds: { x: 0, y: 0, width: 375, height: 300 },
          sections: [{ itemCount: 10 }],
        }),
      );
      picture.apply(await client.setBounds({ session, bounds: { x: 115, y: 0, width: 375, height: 300 } }));
      await assertInSync(client, session, picture);
      await assert.rejects(client.scrollToItem({ session, section: 0, item: 10 }), { code: -32602, field: 'params.item' });
      await assert.rejects(client.request('initialize', {}), { code: -32600 });
      await client.notify('$/cancelRequest', { id: 1 });
      assert.equal(await client.close({ session }), null);
      assert.equal(await client.shutdown(), null);
    } finally {
      assert.equal(await bridge.stop(), 0);
    }
  });
});
