// @ts-check
// Shared by clients/js/test/*.test.mjs. It lives outside test/ because
// `node --test` runs every .mjs file under a test/ directory as a test file.

import assert from 'node:assert/strict';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const JS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = path.resolve(JS_DIR, '..', '..');

/** @param {string} p */
function executable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The daemon the tests run: $FLOWLAYOUTD, else the checkout's
 * .build/{release,debug}/flowlayoutd, else flowlayoutd on PATH. Throws
 * (failing the test) when there is none: these tests are about the real
 * daemon.
 * @returns {string}
 */
export function findDaemon() {
  const env = process.env.FLOWLAYOUTD;
  if (env) {
    if (!executable(env)) throw new Error(`FLOWLAYOUTD=${env} is not an executable file`);
    return env;
  }
  for (const c of ['.build/release/flowlayoutd', '.build/debug/flowlayoutd']) {
    const p = path.join(REPO, c);
    if (executable(p)) return p;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir || '.', 'flowlayoutd');
    if (dir && executable(p)) return p;
  }
  throw new Error('flowlayoutd not found: set FLOWLAYOUTD to the daemon (e.g. .build/release/flowlayoutd)');
}

/**
 * The picture equals what the daemon answers for the whole viewport:
 * protocol.md's invariant of live sessions.
 * @param {import('../flowlayout.js').FlowLayoutClient} client
 * @param {string} session
 * @param {import('../flowlayout.js').Picture} picture
 */
export async function assertInSync(client, session, picture) {
  assert.ok(picture.bounds, 'the picture has bounds');
  const { attributes } = await client.attributesInRect({ session, rect: picture.bounds });
  assert.deepEqual(picture.elements(), attributes);
  assert.equal(picture.size, attributes.length);
}
