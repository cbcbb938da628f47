// Revalidation windows and the effective Cache-Control of a page.
import { strict as assert } from 'node:assert';
import { effectiveCachePolicy, parseRevalidate } from '#core/model/cache-policy.js';

describe('core/model/cache-policy', () => {
  it('parses whole seconds and any Go duration that is a whole number of seconds', () => {
    const table: [string, number | undefined][] = [
      ['300', 300],
      ['1', 1],
      ['60s', 60],
      ['5m', 300],
      ['1h', 3600],
      ['1m30s', 90],
      ['1h1m1s', 3661],
      ['1.5m', 90],
      ['0.5h', 1800],
      // Any Go duration (time.ParseDuration) that is a whole number of seconds.
      ['2000ms', 2],
      ['.5m', 30],
      ['5.m', 300],
      ['+5m', 300],
      ['1000000us', 1],
      ['1000000\u00b5s', 1],
      ['1000000000ns', 1],
      ['1m500ms500ms', 61],
      ['9223372036s', 9223372036],
      ['9223372037s', undefined],
      ['1500ms', undefined],
      ['1.000000001s', undefined],
      ['-5m', undefined],
      ['.m', undefined],
      ['5ms5', undefined],
      ['0', undefined],
      ['0s', undefined],
      ['1.5s', undefined],
      ['-5', undefined],
      ['5d', undefined],
      ['5 m', undefined],
      ['m', undefined],
      ['', undefined],
      ['soon', undefined],
      ['1e3', undefined],
      ['99999999999999999999', undefined],
    ];
    for (const [text, seconds] of table) assert.equal(parseRevalidate(text), seconds, JSON.stringify(text));
  });

  it('appends stale-while-revalidate=<seconds> to the declared cache value', () => {
    assert.equal(effectiveCachePolicy('public, max-age=60', '5m'), 'public, max-age=60, stale-while-revalidate=300');
    assert.equal(effectiveCachePolicy('public, max-age=60', undefined), 'public, max-age=60');
    assert.equal(
      effectiveCachePolicy('public, max-age=60', 'soon'),
      'public, max-age=60',
      'an invalid window is reported, not applied',
    );
    assert.equal(effectiveCachePolicy(undefined, '5m'), undefined, 'revalidate needs a cache value');
  });
});
