// @ts-check
// A stand-in daemon for clients/js/test/restart.test.mjs: runs the real
// daemon (argv[2]) and passes its stdio through, but writes a malformed
// frame header in place of its answer number argv[3] (1 is initialize's).
//
//   node bad-frame-proxy.mjs /path/to/flowlayoutd 4 [daemon args…]

import { spawn } from 'node:child_process';

import { encodeFrame, FrameParser } from '../flowlayout.js';

const [daemon, nth, ...args] = process.argv.slice(2);
const child = spawn(daemon, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdin.on('error', () => {});
const parser = new FrameParser();
let answers = 0;
child.stdout.on('data', (chunk) => {
  for (const body of parser.push(chunk)) {
    answers++;
    process.stdout.write(answers === Number(nth) ? 'Content-Length: twelve\r\n\r\n' : encodeFrame(body));
  }
});
child.on('exit', (code) => process.exit(code ?? 1));
