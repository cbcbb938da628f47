// The unit tier (`npm run test:unit`): no child process, browser, pack or network socket; see test/tiers.cjs.
'use strict';
module.exports = require('./test/tiers.cjs').mochaConfig('unit');
