// What the request steps (pages, endpoints, the steps they share) need from the app: its route
// table, built files, keys and registries, and the answers every part may give (404).
import type { Tracer } from '../trace/index.js';
import type { CsrfKeys } from './csrf.js';
import type { Deadlines } from './deadlines.js';
import type { Guard } from './guards.js';
import type { Reply } from './reply.js';
import type { CompiledRoutes } from './routes.js';
import type { StaticTable } from './static-files.js';

export interface AppServices {
  readonly routes: CompiledRoutes;
  readonly static: StaticTable;
  readonly csrf: CsrfKeys;
  readonly guards: Map<string, Guard>;
  readonly tracer: Tracer | undefined;
  /** HTML answers load the browser trace bridge and name their span in `Server-Timing`. */
  readonly traceBridge: boolean;
  readonly deadlines: Deadlines;
  /** Body cap of actions, APIs and commands. */
  readonly bodyLimit: number;
  log(line: string): void;
  /** The site's 404: its `404.html` when the build has one, else the plain answer. */
  notFound(reply: Reply): void;
}
