// The entry of `npm run docs` (and `npm run docs -- --check`): see generate.ts.
import { main } from './generate.js';

await main();
