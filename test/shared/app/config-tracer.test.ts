// The tracer an app config exports: taken from `tracer` (or a default export's), refused when it is
// anything but a kit Tracer, so a typo in kit.config stops the app at start rather than losing spans.
import { strict as assert } from 'node:assert';
import { ConfigError, configTracer } from '#shared/app/server.js';
import { newTracer } from '#shared/trace/index.js';

describe('app config tracer', () => {
  it('is the exported tracer, from a named or a default export', () => {
    const tracer = newTracer();
    assert.equal(configTracer({ tracer }), tracer);
    assert.equal(configTracer({ default: { tracer } }), tracer);
  });

  it('is absent without one', () => {
    assert.equal(configTracer(undefined), undefined);
    assert.equal(configTracer({ guards: {} }), undefined);
    assert.equal(configTracer({ tracer: null }), undefined);
  });

  it('refuses anything else under that name', () => {
    for (const tracer of [{}, { start() {} }, 'otlp', 1])
      assert.throws(
        () => configTracer({ tracer }),
        (e: Error) =>
          e instanceof ConfigError && e.message === 'kit config: tracer must be a Tracer (newTracer from kit/trace)',
      );
  });
});
