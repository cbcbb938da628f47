// The language server's stdio frame reader on one large frame (9, 25 and 50 MiB): (1) in process,
// the frame fed in the 64 KiB chunks a pipe delivers, then one small frame, timed until both are
// delivered, beside the reader it replaced (`test/server/lsp/helpers/concat-frame-reader.ts`, which
// re-copied and re-read its whole buffer per chunk) in the same run; (2) through the real server
// over stdio, a `didOpen` of that size followed by `kit/stats`, timed from the `didOpen` to the
// answer, with the server's CPU time and peak RSS (above the analysed-document limit, so the figure
// is the transport's). KIT_BENCH_FRAMING_OLD=0 skips the old reader past 9 MiB (it takes minutes);
// KIT_BENCH_COMPARE=<another build's out/server/src/cli/main.js> measures that build's server too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-languageserver-protocol';
import { FramedMessageReader, type FramingOptions } from '#lsp/framing.js';
import { ConcatFrameReader } from '#test/server/lsp/helpers/concat-frame-reader.js';
import { fileUri, LspClient } from '#test/server/lsp/helpers/lsp-client.js';

const SIZES_MIB = [9, 25, 50];
const CHUNK = 64 * 1024;
const OPTIONS: FramingOptions = {
  // What the server does with a body: decode it once.
  decode: (body) => ({ jsonrpc: '2.0', method: 'm', params: [body.length] }) as Message,
  malformed: (message, id) => ({ jsonrpc: '2.0', id, error: { code: -32700, message } }) as Message,
};

function frameBytes(mib: number): Buffer {
  const body = `{"jsonrpc":"2.0","method":"big","params":"${'x'.repeat(mib * 1024 * 1024)}"}`;
  const next = '{"jsonrpc":"2.0","method":"next"}';
  return Buffer.from(
    `Content-Length: ${body.length}\r\n\r\n${body}Content-Length: ${next.length}\r\n\r\n${next}`,
    'latin1',
  );
}

type Reader = { listen(cb: (m: Message) => void): unknown };

/** Milliseconds until both frames of `bytes`, fed in pipe-sized chunks, are delivered. */
function readMs(make: (input: PassThrough) => Reader, bytes: Buffer): number {
  const input = new PassThrough();
  let got = 0;
  make(input).listen(() => got++);
  const t = performance.now();
  for (let i = 0; i < bytes.length; i += CHUNK) input.write(bytes.subarray(i, i + CHUNK));
  const ms = performance.now() - t;
  if (got !== 2) throw new Error(`delivered ${got} messages, not 2`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function usage(pid: number | undefined): { cpuMs: number; peakMiB: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuMs: (Number(stat[11]) + Number(stat[12])) * 10, peakMiB: Math.round(Number(hwm?.[1]) / 1024) };
  } catch {
    return { cpuMs: NaN, peakMiB: NaN };
  }
}

/** didOpen of `mib` MiB then kit/stats through a real server: wall ms to the answer, server CPU, peak RSS. */
async function overStdio(mib: number, script?: string): Promise<{ ms: number; cpuMs: number; peakMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kit-bench-frames-'));
  const client = LspClient.start({ script });
  try {
    await client.initialize([dir]);
    const text = 'x'.repeat(mib * 1024 * 1024);
    const before = usage(client.child.pid);
    const t = performance.now();
    await client.open(fileUri(join(dir, 'big.kit')), text);
    await client.request('kit/stats', {});
    const ms = performance.now() - t;
    const after = usage(client.child.pid);
    return { ms, cpuMs: after.cpuMs - before.cpuMs, peakMiB: after.peakMiB };
  } finally {
    client.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const old = process.env.KIT_BENCH_FRAMING_OLD !== '0';
console.log(
  `frame reader, one frame fed in ${CHUNK / 1024} KiB chunks then a small one (median of 3; old reader once)`,
);
for (const mib of SIZES_MIB) {
  const bytes = frameBytes(mib);
  const now = median([0, 1, 2].map(() => readMs((input) => new FramedMessageReader(input, OPTIONS), bytes)));
  let line = `  ${String(mib).padStart(2)} MiB: chunk list ${now.toFixed(1)} ms`;
  if (old || mib <= 9) {
    const before = readMs((input) => new ConcatFrameReader(input, OPTIONS), bytes);
    line += ` | concatenating reader ${before.toFixed(0)} ms | ${(before / now).toFixed(0)}× faster`;
  }
  console.log(line);
}

const compare = process.env.KIT_BENCH_COMPARE;
console.log('kit lsp --stdio: didOpen of the size, then kit/stats, until the answer');
for (const mib of SIZES_MIB) {
  const r = await overStdio(mib);
  let line = `  ${String(mib).padStart(2)} MiB: ${r.ms.toFixed(0)} ms (server CPU ${r.cpuMs} ms, peak RSS ${r.peakMiB} MiB)`;
  if (compare) {
    const c = await overStdio(mib, compare);
    line += ` | compared build ${c.ms.toFixed(0)} ms (CPU ${c.cpuMs} ms, peak ${c.peakMiB} MiB)`;
  }
  console.log(line);
}
process.exit(0);
