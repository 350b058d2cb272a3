// The LSP base-protocol framing: the incremental parser on hand-made byte
// streams, and multi-byte UTF-8 through the real daemon.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { encodeFrame, FlowLayoutClient, FrameParser, ProtocolError, RPCError } from '../flowlayout.js';
import { findDaemon } from '../testing/daemon.mjs';

const enc = new TextEncoder();
const dec = new TextDecoder();
/** @param {string} s */
const bytes = (s) => enc.encode(s);
/** @param {Uint8Array[]} bodies */
const texts = (bodies) => bodies.map((b) => dec.decode(b));

/** Every frame body of `stream`, fed to a parser in the given chunk sizes (cycled). */
function feed(stream, sizes) {
  const parser = new FrameParser();
  const out = [];
  let at = 0;
  let i = 0;
  while (at < stream.byteLength) {
    const n = sizes[i++ % sizes.length];
    out.push(...parser.push(stream.subarray(at, at + n)));
    at += n;
  }
  assert.equal(parser.buffered, 0, 'nothing left over');
  return texts(out);
}

/** @param {Uint8Array[]} parts */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

describe('encodeFrame', () => {
  test('Content-Length counts UTF-8 bytes, not characters', () => {
    const body = '{"session":"é😀"}'; // 16 characters, 2 + 4 bytes for the two
    assert.equal(body.length, 17); // the emoji is two UTF-16 units
    const frame = encodeFrame(body);
    const text = dec.decode(frame);
    assert.ok(text.startsWith('Content-Length: 20\r\n\r\n'), text);
    assert.equal(frame.byteLength, 'Content-Length: 20\r\n\r\n'.length + 20);
  });
});

describe('FrameParser', () => {
  const bodies = ['{"jsonrpc":"2.0","id":1,"result":null}', '{"a":"naïve 😀 ∑"}', '[]', '{}'];
  const stream = concat(...bodies.map((b) => encodeFrame(b)));

  test('several frames in one chunk', () => {
    assert.deepEqual(feed(stream, [stream.byteLength]), bodies);
  });

  test('a frame split anywhere: byte by byte, and in uneven chunks', () => {
    assert.deepEqual(feed(stream, [1]), bodies);
    for (const sizes of [[2], [3], [5, 1, 7], [17], [22, 3], [41, 1]]) {
      assert.deepEqual(feed(stream, sizes), bodies, `chunks of ${sizes}`);
    }
  });

  test('the header split inside "\\r\\n\\r\\n" and inside the name', () => {
    const frame = encodeFrame('{"x":1}');
    const text = dec.decode(frame);
    for (const cut of [1, 8, 'Content-Length: 7\r'.length, 'Content-Length: 7\r\n'.length, 'Content-Length: 7\r\n\r'.length]) {
      const parser = new FrameParser();
      assert.deepEqual(parser.push(frame.subarray(0, cut)), [], `cut at ${cut}: ${JSON.stringify(text.slice(0, cut))}`);
      assert.deepEqual(texts(parser.push(frame.subarray(cut))), ['{"x":1}']);
    }
  });

  test('a multi-byte character split between chunks', () => {
    const body = '{"s":"😀é"}';
    const frame = encodeFrame(body);
    const start = frame.byteLength - bytes('😀é"}').byteLength;
    for (let cut = start; cut < frame.byteLength; cut++) {
      const parser = new FrameParser();
      const first = parser.push(frame.subarray(0, cut));
      assert.deepEqual(first, []);
      assert.deepEqual(texts(parser.push(frame.subarray(cut))), [body]);
    }
  });

  test('a body that ends where the next header begins, in one chunk', () => {
    const two = concat(encodeFrame('{"a":1}'), encodeFrame('{"b":2}'));
    const cut = encodeFrame('{"a":1}').byteLength + 3; // "Con" of the second
    const parser = new FrameParser();
    assert.deepEqual(texts(parser.push(two.subarray(0, cut))), ['{"a":1}']);
    assert.deepEqual(texts(parser.push(two.subarray(cut))), ['{"b":2}']);
  });

  test('header names are case-insensitive; other headers are ignored', () => {
    const s = bytes('content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}CONTENT-LENGTH:2\r\n\r\n[]');
    assert.deepEqual(feed(s, [4]), ['{}', '[]']);
  });

  test('an empty body', () => {
    assert.deepEqual(feed(bytes('Content-Length: 0\r\n\r\nContent-Length: 2\r\n\r\n{}'), [1]), ['', '{}']);
  });

  test('a large body in many chunks', () => {
    const body = JSON.stringify({ values: Array.from({ length: 100000 }, (_, i) => i) });
    const frame = encodeFrame(body);
    assert.deepEqual(feed(frame, [65536]), [body]);
    assert.deepEqual(feed(frame, [997, 4096]), [body]);
  });

  test('a header without Content-Length, or a bad one, is a ProtocolError', () => {
    for (const bad of [
      'Content-Type: application/json\r\n\r\n{}',
      'Content-Length: -5\r\n\r\n',
      'Content-Length: abc\r\n\r\n',
      'not a header\r\n\r\n',
    ]) {
      assert.throws(() => new FrameParser().push(bytes(bad)), ProtocolError, bad);
    }
    assert.throws(() => new FrameParser().push(new Uint8Array(70000).fill(97)), ProtocolError);
  });
});

describe('UTF-8 through the daemon', () => {
  test('multi-byte strings go out and come back byte for byte', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    try {
      const session = 'séance-😀-∑';
      const opened = await client.open({
        session,
        layout: { type: 'flow' },
        bounds: { x: 0, y: 0, width: 100, height: 100 },
        sections: [{ itemCount: 1, ids: ['naïve-🌀'] }],
      });
      assert.equal(opened.attributes.length, 1);
      assert.deepEqual(await client.contentSize({ session }), { contentSize: { width: 100, height: 50 } });
      // The daemon's own message quotes the name it read.
      await assert.rejects(client.contentSize({ session: 'ça-🌀' }), {
        code: RPCError.UNKNOWN_SESSION,
        message: 'unknown session "ça-🌀"',
      });
      // maxSessionIdBytes counts bytes: 64 four-byte characters fit, 65 do not.
      assert.equal(client.capabilities.limits.maxSessionIdBytes, 256);
      const open = (s) =>
        client.open({ session: s, layout: { type: 'flow' }, bounds: { x: 0, y: 0, width: 1, height: 1 }, sections: [] });
      await open('😀'.repeat(64));
      await assert.rejects(open('😀'.repeat(65)), { code: RPCError.LIMIT_EXCEEDED, field: 'params.session' });
    } finally {
      assert.equal(await client.shutdown(), 0);
    }
  });
});
