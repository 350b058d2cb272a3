#!/usr/bin/env node
// @ts-check
/**
 * Writes clients/js/methods.js from the daemon's own method table.
 *
 *   node clients/js/generate.mjs [DAEMON] [--out DIR] [--check]
 *
 * DAEMON defaults to $FLOWLAYOUTD, else `flowlayoutd` on PATH. The
 * generator spawns it, sends `initialize`, reads
 * `capabilities.methodTable` and `capabilities.resultShapes` and writes
 * methods.js into DIR (default: this file's directory): the table as data
 * (METHODS), the answers' shapes as data (RESULT_SHAPES) and as JSDoc
 * typedefs, the wrapper name of each
 * method (WRAPPERS) and the class LayoutMethods with one JSDoc-typed
 * wrapper per method, which FlowLayoutClient extends. `--check` writes
 * nothing and exits 1 when the file on disk differs from what would be
 * written.
 *
 * Node >= 18, no dependencies. It does not import flowlayout.js (which
 * imports the file written here), so it works with methods.js missing or
 * stale.
 */

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const OUTPUT = 'methods.js';

/**
 * Members FlowLayoutClient has for the connection itself. A method whose
 * short name is one of these would get its full name as its wrapper name
 * (none does: the connection ends with `shutdown()`, so `layout/close` is
 * `close`, as in the Python client). clients/js/test/generate.test.mjs
 * checks that the client defines no other member a wrapper could shadow.
 */
export const RESERVED = new Set([
  'constructor',
  'request',
  'notify',
  'shutdown',
  'closed',
  'serverInfo',
  'capabilities',
  'process',
  'methodTable',
  'pictureEffect',
  'changesPicture',
  'maxItemValuesPerRequest',
  'attributesInRectPages',
  'stderrTail',
]);

/** Type names of TypeScript itself, not of protocol.md. */
const TS_NAMES = new Set([
  'string', 'number', 'boolean', 'null', 'undefined', 'object', 'any', 'unknown', 'never', 'void',
  'true', 'false', 'bigint', 'symbol', 'keyof', 'typeof', 'readonly',
  'Partial', 'Required', 'Readonly', 'ReadonlyArray', 'Array', 'Record', 'Pick', 'Omit', 'Promise',
]);

/**
 * `fooBar` from `foo-bar`, `foo_bar`, `fooBar`.
 * @param {string} s
 */
function camel(s) {
  const words = s.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words
    .map((w, i) => (i === 0 ? w[0].toLowerCase() + w.slice(1) : w[0].toUpperCase() + w.slice(1)))
    .join('');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * The wrapper's name: the camelCase of the method's name after `layout/`;
 * the camelCase of the whole name when that is a reserved member.
 * @param {string} method
 */
export function wrapperName(method) {
  const short = camel(method.startsWith('layout/') ? method.slice('layout/'.length) : method);
  return short && !RESERVED.has(short) ? short : camel(method);
}

/**
 * The protocol type names a TypeScript type expression uses (every name
 * that is not TypeScript's own, `integer` included): methods.js imports
 * each from flowlayout.js, which defines them.
 * @param {string} type
 */
function typeNames(type) {
  const code = type.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return (code.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []).filter((n) => !TS_NAMES.has(n));
}

/**
 * A JSDoc comment's text, safe inside the comment.
 * @param {string} s
 */
const doc = (s) => s.replace(/\*\//g, '*\\/');

/** @type {Record<string, string>} */
const PICTURE = {
  open: 'The answer starts the picture over (picture: "open"): `Picture.apply` it.',
  delta: 'The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.',
  none: 'The answer leaves the picture as it is (picture: "none").',
};

/**
 * methods.js for a method table and the result shapes.
 * @param {any[]} table capabilities.methodTable
 * @param {any[]} [shapes] capabilities.resultShapes
 * @returns {string}
 */
export function render(table, shapes = []) {
  if (!Array.isArray(table) || table.length === 0) throw new Error('the method table is empty');
  if (!Array.isArray(shapes)) throw new Error('the result shapes are not a list');
  const defined = new Set(shapes.map((s) => s.name));
  const names = new Set();
  const wrappers = new Map();
  for (const m of table) {
    if (typeof m.name !== 'string' || !Array.isArray(m.params) || typeof m.result !== 'string') {
      throw new Error(`malformed method table entry ${JSON.stringify(m)}`);
    }
    if (!['open', 'delta', 'none'].includes(m.picture)) {
      throw new Error(`${m.name}: unknown picture effect ${JSON.stringify(m.picture)}`);
    }
    const w = wrapperName(m.name);
    if (wrappers.has(w)) throw new Error(`${m.name} and ${wrappers.get(w)} would both be ${w}()`);
    wrappers.set(w, m.name);
    for (const p of m.params) for (const n of typeNames(p.type)) names.add(n);
    for (const n of typeNames(m.result)) names.add(n);
  }
  for (const shape of shapes) {
    if (typeof shape.name !== 'string' || !Array.isArray(shape.fields)) {
      throw new Error(`malformed result shape ${JSON.stringify(shape)}`);
    }
    for (const f of shape.fields) for (const n of typeNames(f.type)) names.add(n);
  }
  for (const n of defined) names.delete(n);
  const out = [];
  out.push(
    '// GENERATED FILE: do not edit. Written by clients/js/generate.mjs from the',
    "// method table flowlayoutd reports in its initialize result",
    '// (capabilities.methodTable). After a change to the daemon\'s methods,',
    '// regenerate it with',
    '//',
    '//   node clients/js/generate.mjs [path/to/flowlayoutd]',
    '//',
    '// (the daemon defaults to $FLOWLAYOUTD, else flowlayoutd on PATH).',
    '// clients/js/test/generate.test.mjs fails while this file is stale.',
    '// @ts-check',
    '',
    "/** @typedef {import('./flowlayout.js').MethodInfo} MethodInfo */",
  );
  for (const n of [...names].sort()) out.push(`/** @typedef {import('./flowlayout.js').${n}} ${n} */`);
  if (shapes.length) out.push('', "// The answers' shapes (capabilities.resultShapes).");
  for (const shape of shapes) {
    const fields = shape.fields.map(
      (/** @type {{name: string, type: string, required: boolean}} */ f) => `${f.name}${f.required ? '' : '?'}: ${f.type}`,
    );
    out.push(`/** ${doc(shape.summary)} @typedef {{${doc(fields.join(', '))}}} ${shape.name} */`);
  }
  out.push(
    '',
    '/**',
    ' * @template T',
    ' * @param {T} value',
    ' * @returns {T}',
    ' */',
    'function freeze(value) {',
    "  if (value && typeof value === 'object') {",
    '    for (const v of Object.values(value)) freeze(v);',
    '    Object.freeze(value);',
    '  }',
    '  return value;',
    '}',
    '',
    '/**',
    " * The daemon's methods, as its initialize result describes them",
    ' * (capabilities.methodTable): name, summary, params ({name, type,',
    ' * required}), result and picture ("open", "delta" or "none").',
    ' * @type {ReadonlyArray<MethodInfo>}',
    ' */',
    `export const METHODS = freeze(${JSON.stringify(table, null, 2)});`,
    '',
    '/**',
    " * The answers' shapes, as the daemon's initialize result describes them",
    ' * (capabilities.resultShapes): name, summary and fields ({name, type,',
    ' * required}); the typedefs above are written from the same table.',
    ' * @type {ReadonlyArray<{name: string, summary: string, fields: ReadonlyArray<{name: string, type: string, required: boolean}>}>}',
    ' */',
    `export const RESULT_SHAPES = freeze(${JSON.stringify(shapes, null, 2)});`,
    '',
    '/**',
    " * Each method's wrapper on LayoutMethods (and so on FlowLayoutClient): the",
    ' * camelCase of the name after `layout/`, or of the whole name where that',
    ' * is a member of the client itself.',
    ' * @type {Readonly<Record<string, string>>}',
    ' */',
    `export const WRAPPERS = freeze(${JSON.stringify(Object.fromEntries(table.map((m) => [m.name, wrapperName(m.name)])), null, 2)});`,
    '',
    '/**',
    ' * One typed wrapper per method, each `this.request(name, params)`.',
    ' * FlowLayoutClient extends it and implements `request`.',
    ' */',
    'export class LayoutMethods {',
    '  /**',
    '   * Sends a request; implemented by FlowLayoutClient.',
    '   * @param {string} method',
    '   * @param {object} [params]',
    '   * @returns {Promise<any>}',
    '   */',
    '  request(method, params) {',
    "    return Promise.reject(new Error('LayoutMethods.request is implemented by FlowLayoutClient'));",
    '  }',
  );
  for (const m of table) {
    const fields = m.params.map(
      (/** @type {{name: string, type: string, required: boolean}} */ p) => `${p.name}${p.required ? '' : '?'}: ${p.type}`,
    );
    const optional = m.params.every((/** @type {{required: boolean}} */ p) => !p.required);
    out.push(
      '',
      '  /**',
      `   * \`${doc(m.name)}\`: ${doc(m.summary)}`,
      `   * ${PICTURE[m.picture]}`,
      `   * @param {{${doc(fields.join(', '))}}} ${optional ? '[params]' : 'params'}`,
      `   * @returns {Promise<${doc(m.result)}>}`,
      '   */',
      `  ${wrapperName(m.name)}(params) {`,
      `    return this.request(${JSON.stringify(m.name)}, params);`,
      '  }',
    );
  }
  out.push('}', '');
  return out.join('\n');
}

/**
 * @param {any} message
 */
function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/**
 * The bodies of a complete stream of Content-Length frames.
 * @param {Buffer} data
 */
function frames(data) {
  const bodies = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at, 'ascii');
    if (end < 0) throw new Error('truncated frame header from the daemon');
    const header = data.subarray(at, end).toString('ascii');
    const m = /^content-length:\s*(\d+)\s*$/im.exec(header);
    if (!m) throw new Error(`frame without Content-Length from the daemon: ${JSON.stringify(header)}`);
    const start = end + 4;
    const length = Number(m[1]);
    if (start + length > data.length) throw new Error('truncated frame body from the daemon');
    bodies.push(data.subarray(start, start + length).toString('utf8'));
    at = start + length;
  }
  return bodies;
}

/**
 * Runs the daemon through initialize, shutdown and exit, and resolves with
 * its capabilities.methodTable.
 * @param {string} daemon
 * @param {number} [timeoutMs]
 * @returns {Promise<any[]>}
 */
export async function fetchMethodTable(daemon, timeoutMs = 20000) {
  return (await fetchTables(daemon, timeoutMs)).table;
}

/**
 * Runs the daemon through initialize, shutdown and exit, and resolves with
 * its capabilities.methodTable and capabilities.resultShapes.
 * @param {string} daemon
 * @param {number} [timeoutMs]
 * @returns {Promise<{table: any[], shapes: any[]}>}
 */
export function fetchTables(daemon, timeoutMs = 20000) {
  return new Promise((resolve, reject) => {
    const child = spawn(daemon, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {Buffer[]} */
    const err = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${daemon} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${daemon}: ${e.message} (pass its path, or set FLOWLAYOUTD)`));
    });
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const answers = frames(Buffer.concat(out)).map((b) => JSON.parse(b));
        const init = answers.find((a) => a && a.id === 1);
        if (!init || init.error) {
          throw new Error(`initialize failed: ${JSON.stringify(init && init.error)} (exit ${code}) ${Buffer.concat(err)}`);
        }
        const table = init.result && init.result.capabilities && init.result.capabilities.methodTable;
        if (!Array.isArray(table)) {
          throw new Error(`${daemon} reports no capabilities.methodTable: it is older than this client`);
        }
        const shapes = init.result.capabilities.resultShapes;
        if (!Array.isArray(shapes)) {
          throw new Error(`${daemon} reports no capabilities.resultShapes: it is older than this client`);
        }
        resolve({ table, shapes });
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.end(
      Buffer.concat([
        frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'flowlayout-js-generate' } } }),
        frame({ jsonrpc: '2.0', method: 'initialized', params: {} }),
        frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }),
        frame({ jsonrpc: '2.0', method: 'exit' }),
      ]),
    );
  });
}

/** @param {string[]} argv */
async function main(argv) {
  let daemon = process.env.FLOWLAYOUTD || 'flowlayoutd';
  let outDir = HERE;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--check') check = true;
    else if (a === '--out') outDir = argv[++i];
    else if (a === '-h' || a === '--help') {
      console.log('usage: node clients/js/generate.mjs [DAEMON] [--out DIR] [--check]');
      return 0;
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else daemon = a;
  }
  if (!outDir) throw new Error('--out wants a directory');
  const { table, shapes } = await fetchTables(daemon);
  const text = render(table, shapes);
  const file = path.join(outDir, OUTPUT);
  if (check) {
    let current = null;
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      /* missing: stale */
    }
    if (current !== text) {
      console.error(`${file} is stale: regenerate it with node clients/js/generate.mjs`);
      return 1;
    }
    console.log(`${file} is up to date`);
    return 0;
  }
  writeFileSync(file, text);
  console.log(`wrote ${file} (${text.split('\n').length} lines, from ${daemon})`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`generate.mjs: ${e.message}`);
      process.exit(2);
    },
  );
}
