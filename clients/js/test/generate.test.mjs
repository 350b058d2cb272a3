// methods.js is generated from the daemon's method table: running the
// generator against the daemon must reproduce the checked-in file byte for
// byte, and every method must have its wrapper.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

import { FlowLayoutClient, LayoutMethods, METHODS, RESULT_SHAPES, WRAPPERS } from '../flowlayout.js';
import { RESERVED, render, wrapperName } from '../generate.mjs';
import { findDaemon, JS_DIR } from '../testing/daemon.mjs';

const run = promisify(execFile);
const GENERATOR = path.join(JS_DIR, 'generate.mjs');
const CHECKED_IN = path.join(JS_DIR, 'methods.js');

describe('the generator', () => {
  test('reproduces the checked-in methods.js byte for byte', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'flowlayout-js-'));
    try {
      await run(process.execPath, [GENERATOR, findDaemon(), '--out', out]);
      const fresh = readFileSync(path.join(out, 'methods.js'));
      const current = readFileSync(CHECKED_IN);
      assert.ok(
        fresh.equals(current),
        'clients/js/methods.js is stale: regenerate it with `node clients/js/generate.mjs` (FLOWLAYOUTD=… for the daemon)',
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('--check passes on the checked-in file', async () => {
    const { stdout } = await run(process.execPath, [GENERATOR, findDaemon(), '--check']);
    assert.match(stdout, /up to date/);
  });

  test('METHODS is the method table of the running daemon', async () => {
    const client = await FlowLayoutClient.spawn({ daemon: findDaemon() });
    try {
      assert.deepEqual(METHODS, client.capabilities.methodTable);
      // The answers' shapes too: the typedefs in methods.js are written from them.
      assert.deepEqual(RESULT_SHAPES, client.capabilities.resultShapes);
      assert.deepEqual(
        METHODS.map((m) => m.name),
        client.capabilities.methods,
      );
    } finally {
      await client.shutdown();
    }
  });

  test('render is deterministic and refuses a malformed table', () => {
    const text = readFileSync(CHECKED_IN, 'utf8');
    assert.equal(render(structuredClone(METHODS), structuredClone(RESULT_SHAPES)), text);
    // One typedef per shape, with exactly its fields.
    for (const shape of RESULT_SHAPES) {
      const fields = shape.fields.map((f) => `${f.name}${f.required ? '' : '?'}: ${f.type}`).join(', ');
      assert.ok(text.includes(`@typedef {{${fields}}} ${shape.name} */`), shape.name);
    }
    assert.ok(RESULT_SHAPES.some((s) => s.name === 'MovementBegan' && s.fields[0].name === 'began'));
    assert.throws(() => render([]), /empty/);
    assert.throws(() => render([{ name: 'layout/x', params: [], result: 'null', picture: 'sideways' }]), /picture/);
    const twice = [
      { name: 'layout/a-b', summary: '', params: [], result: 'null', picture: 'none' },
      { name: 'layout/aB', summary: '', params: [], result: 'null', picture: 'none' },
    ];
    assert.throws(() => render(twice), /both be aB/);
  });
});

describe('the wrappers', () => {
  test('every method has one, named mechanically, sending that method', async () => {
    assert.deepEqual(Object.keys(WRAPPERS), METHODS.map((m) => m.name));
    for (const m of METHODS) {
      const name = WRAPPERS[m.name];
      assert.equal(name, wrapperName(m.name));
      const short = m.name.replace(/^layout\//, '');
      // The name after layout/, unless the client itself has that member.
      assert.equal(name, RESERVED.has(short) ? `layout${short[0].toUpperCase()}${short.slice(1)}` : short);
      assert.equal(typeof LayoutMethods.prototype[name], 'function', `${m.name} has no wrapper ${name}()`);
      const sent = [];
      const fake = Object.create(LayoutMethods.prototype);
      fake.request = (method, params) => {
        sent.push([method, params]);
        return Promise.resolve('answer');
      };
      const params = { session: 's' };
      assert.equal(await fake[name](params), 'answer');
      assert.deepEqual(sent, [[m.name, params]]);
    }
    // No wrapper for a method the daemon does not have.
    const wrappers = Object.getOwnPropertyNames(LayoutMethods.prototype).filter(
      (n) => n !== 'constructor' && n !== 'request',
    );
    assert.deepEqual(wrappers.sort(), Object.values(WRAPPERS).sort());
    assert.equal(WRAPPERS['layout/close'], 'close');
  });

  test('no member of the client shadows a wrapper, and RESERVED covers them all', () => {
    const own = Object.getOwnPropertyNames(FlowLayoutClient.prototype);
    const wrappers = new Set(Object.values(WRAPPERS));
    for (const name of own) {
      assert.ok(!wrappers.has(name), `FlowLayoutClient.${name} shadows a generated wrapper`);
      assert.ok(RESERVED.has(name), `add ${name} to RESERVED in generate.mjs`);
    }
  });

  test('every type name the table uses is a typedef of flowlayout.js', () => {
    const source = readFileSync(path.join(JS_DIR, 'flowlayout.js'), 'utf8');
    const defined = new Set([...source.matchAll(/@typedef\s+\{[\s\S]*?\}\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\*\/|\n)/g)].map((m) => m[1]));
    const generated = readFileSync(CHECKED_IN, 'utf8');
    const imported = [...generated.matchAll(/import\('\.\/flowlayout\.js'\)\.([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    assert.ok(imported.length > 10, imported);
    for (const name of imported) assert.ok(defined.has(name), `flowlayout.js has no @typedef ${name}`);
  });
});
