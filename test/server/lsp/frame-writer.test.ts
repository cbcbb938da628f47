// The stdio writer: the same bytes as the protocol library's stream writer, the frames of one turn
// in one write, a long burst in bounded writes, and a failed write reported, never lost silently.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { StreamMessageWriter, type Message } from 'vscode-languageserver/node';
import { FrameWriter } from '#lsp/frame-writer.js';

/** A stream that keeps each write apart; `fail` makes every write fail. */
function sink(fail?: Error): { stream: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      writes.push(Buffer.from(chunk));
      done(fail ?? null);
    },
  });
  // A failed write also emits 'error'; the writer reports it, the test must not crash on it.
  stream.on('error', () => undefined);
  return { stream, writes };
}

const messages: Message[] = [
  {
    jsonrpc: '2.0',
    method: 'textDocument/publishDiagnostics',
    params: { uri: 'file:///a.kit', diagnostics: [] },
  } as Message,
  { jsonrpc: '2.0', id: 1, result: { contents: 'héllo → wörld ✓ 😀' } } as Message,
  { jsonrpc: '2.0', method: 'kit/status', params: { state: 'ready', files: 3 } } as Message,
];

describe('lsp: the stdio frame writer', () => {
  it('writes the bytes the protocol library writes, in order', async () => {
    const ours = sink();
    const theirs = sink();
    const a = new FrameWriter(ours.stream);
    const b = new StreamMessageWriter(theirs.stream, 'utf-8');
    for (const m of messages) {
      void a.write(m);
      await b.write(m);
    }
    await a.write(messages[0]);
    await b.write(messages[0]);
    assert.deepEqual(Buffer.concat(ours.writes), Buffer.concat(theirs.writes));
  });

  it('sends the frames written in one turn as one write, and each write promise settles after it', async () => {
    const { stream, writes } = sink();
    const w = new FrameWriter(stream);
    const done = messages.map((m) => w.write(m));
    assert.equal(writes.length, 0, 'nothing written before the turn ends');
    await Promise.all(done);
    assert.equal(writes.length, 1);
    await w.write(messages[2]);
    assert.equal(writes.length, 2);
  });

  it('writes a long burst in bounded pieces', async () => {
    const { stream, writes } = sink();
    const w = new FrameWriter(stream);
    const big = { jsonrpc: '2.0', method: 'x', params: { text: 'y'.repeat(300_000) } } as Message;
    await Promise.all(Array.from({ length: 10 }, () => w.write(big)));
    assert.ok(writes.length >= 2 && writes.length <= 4, `${writes.length} writes`);
    for (const chunk of writes) assert.ok(chunk.length < 2 * 1024 * 1024);
    assert.equal(Buffer.concat(writes).toString().split('Content-Length: ').length - 1, 10);
  });

  it('reports a failed write and rejects the writes it carried', async () => {
    const failure = new Error('EPIPE');
    const w = new FrameWriter(sink(failure).stream);
    const reported: Error[] = [];
    w.onError(([error]) => reported.push(error));
    const results = await Promise.allSettled(messages.map((m) => w.write(m)));
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.ok(reported.length >= 1);
    assert.match(reported[0].message, /EPIPE/);
  });
});
