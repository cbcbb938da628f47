// The tests' polling helper: it returns the condition's first truthy value, and its failure names
// what was awaited and the last thing the condition said.
import { strict as assert } from 'node:assert';
import { waitFor } from './wait.js';

describe('test helper: waitFor', () => {
  it('resolves with the first truthy value, polling until then', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls === 3 ? { calls } : undefined), { what: 'the third call', every: 1 });
    assert.deepEqual(value, { calls: 3 });
  });

  it('counts a throwing condition as not yet met', async () => {
    let calls = 0;
    await waitFor(
      () => {
        calls++;
        assert.ok(calls > 2, 'not yet');
        return true;
      },
      { what: 'an assertion to hold', every: 1 },
    );
    assert.equal(calls, 3);
  });

  it('fails after the timeout with what was awaited and the last value or error', async () => {
    await assert.rejects(
      waitFor(() => 0, { what: 'the count to rise', timeout: 20, every: 5 }),
      (e: Error) => {
        assert.match(e.message, /^timed out after \d+ ms waiting for the count to rise \(last value: 0\)$/);
        return true;
      },
    );
    await assert.rejects(
      waitFor(
        () => {
          throw new Error('still 2 connections');
        },
        { what: 'the connections to close', timeout: 20, every: 5 },
      ),
      (e: Error) => {
        assert.match(e.message, /waiting for the connections to close \(last error: still 2 connections\)$/);
        assert.equal((e.cause as Error).message, 'still 2 connections');
        return true;
      },
    );
  });
});
