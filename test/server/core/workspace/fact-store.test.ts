// The fact store indexes the first load's facts (`add`) only when something asks by file: whatever
// is asked, and whenever, it answers as if each bucket's facts had been indexed as they came
// (`replace`), in the same order.
import { strict as assert } from 'node:assert';
import { FactStore } from '#core/workspace/fact-store.js';
import type { Fact } from '#core/workspace/anchors.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';

const RANGE = { start: { offset: 0, line: 0, column: 0 }, end: { offset: 1, line: 0, column: 1 } };

function fact(file: string, message: string, related: string[] = [], positional?: string[]): Fact {
  const diagnostic: Diagnostic = { code: 'c', severity: 'error', message, file, range: RANGE };
  if (related.length) diagnostic.related = related.map((r) => ({ file: r, range: RANGE, message: 'here' }));
  const f: Fact = { diagnostic, late: true };
  if (positional) f.positional = positional;
  return f;
}

/** The buckets and facts of a first load, several facts per file and bucket, some pointing elsewhere. */
function buckets(): [string, Fact[]][] {
  return [
    ['link:a', [fact('x.kit', '1'), fact('y.kit', '2'), fact('x.kit', '3')]],
    ['route:/r', [fact('y.kit', '4', ['x.kit'], ['x.kit'])]],
    ['page:p', []],
    ['link:b', [fact('x.kit', '5', ['z.kit', 'y.kit'])]],
  ];
}

/** Everything the store answers by file and by bucket, as text. */
function answers(s: FactStore): string {
  const out: string[] = [];
  for (const file of ['x.kit', 'y.kit', 'z.kit', 'w.kit']) {
    out.push(`in ${file}: ${[...s.inFile(file)].map((l) => l.map((f) => f.diagnostic.message).join(',')).join('|')}`);
    out.push(`mentioning ${file}: ${[...s.mentioning(file)].join(',')}`);
    out.push(`positional ${file}: ${[...s.positionalIn(file)].join(',')}`);
  }
  for (const k of ['link:a', 'route:/r', 'page:p', 'link:b']) out.push(`${k}: ${s.of(k).length}`);
  out.push(`all: ${[...s.all()].map((l) => l.length).join(',')}`);
  return out.join('\n');
}

describe('FactStore: facts of a first load indexed on demand', () => {
  it('answers by file and by bucket as facts indexed as they came', () => {
    const eager = new FactStore();
    const lazy = new FactStore();
    for (const [k, fs] of buckets()) eager.replace(k, fs);
    for (const [k, fs] of buckets()) lazy.add(k, fs);
    assert.equal(answers(lazy), answers(eager));
  });

  it('reads every fact without indexing, then replaces an added bucket as if it had been indexed', () => {
    const eager = new FactStore();
    const lazy = new FactStore();
    for (const [k, fs] of buckets()) eager.replace(k, fs);
    for (const [k, fs] of buckets()) lazy.add(k, fs);
    assert.deepEqual(
      [...lazy.all()].map((l) => l.map((f) => f.diagnostic.message)),
      [...eager.all()].map((l) => l.map((f) => f.diagnostic.message)),
    );
    // Replacing forgets the bucket's old facts in every index, then indexes the new ones.
    for (const s of [eager, lazy]) {
      s.replace('link:a', [fact('z.kit', '6')]);
      s.replace('route:/r', []);
      s.add('link:c', [fact('w.kit', '7', ['x.kit'])]);
      s.add('link:b', [fact('y.kit', '8')]);
    }
    assert.equal(answers(lazy), answers(eager));
    assert.match(answers(lazy), /in z\.kit: 6\n/);
    assert.match(answers(lazy), /mentioning x\.kit: link:c\n/);
  });
});
