// @ts-check
// kit export spans as kit/trace's exporterSink produces them: a server trace with a nested handler span.

/** @type {import('../src/index.js').ExportSpan[]} */
export const SPANS = [
  {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    parentSpanId: '',
    name: 'GET /orders/{id}',
    surface: 'backend',
    lane: 'route',
    source: { file: 'app/orders.kit', line: 3, column: 1, ownerKind: 'page', ownerId: 'orders' },
    startTimeUnixNano: '1735787045100000000',
    endTimeUnixNano: '1735787045250000123',
    attributes: [
      { key: 'http.route', value: '/orders/{id}' },
      { key: 'http.response.status_code', value: 200 },
      { key: 'tags', value: ['a', 'b'] },
    ],
    events: [
      {
        timeUnixNano: '1735787045200000000',
        level: 'warn',
        message: 'slow render',
        attributes: [{ key: 'ms', value: 40 }],
      },
    ],
    status: { code: 'ok', message: '' },
  },
  {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '1111111111111111',
    parentSpanId: '00f067aa0ba902b7',
    name: 'LoadOrder',
    surface: 'backend',
    lane: 'handler',
    source: { file: '', line: 0, column: 0, ownerKind: '', ownerId: '' },
    startTimeUnixNano: '1735787045110000000',
    endTimeUnixNano: '1735787045200000000',
    attributes: [{ key: 'bad', value: { nested: true } }],
    events: [],
    status: { code: 'error', message: 'db timeout' },
  },
  {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '2222222222222222',
    parentSpanId: '1111111111111111',
    name: 'pay.Charge',
    surface: 'backend',
    lane: 'contract',
    source: { file: '', line: 0, column: 0, ownerKind: '', ownerId: '' },
    startTimeUnixNano: '1735787045120000000',
    endTimeUnixNano: '1735787045130000000',
    attributes: [],
    events: [],
    status: { code: 'unset', message: '' },
  },
];
