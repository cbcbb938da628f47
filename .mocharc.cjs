// The whole suite, both tiers (what a plain `mocha` runs); the tiers are in test/tiers.cjs.
'use strict';
module.exports = require('./test/tiers.cjs').mochaConfig('all');
