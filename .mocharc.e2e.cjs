// The end-to-end tier (`npm run test:e2e`): *.e2e.test.ts and *.browser.test.ts; see test/tiers.cjs.
'use strict';
module.exports = require('./test/tiers.cjs').mochaConfig('e2e');
