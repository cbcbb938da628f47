// What the request steps (pages, endpoints, the steps they share) need from the app: its route
// table, built files, keys and registries, and the answers every part may give (404).
import type { ServerResponse } from 'node:http';
import type { Tracer } from '../trace/index.js';
import type { CsrfKeys } from './csrf.js';
import type { Deadlines } from './deadlines.js';
import type { ErrorPages } from './error-pages.js';
import type { Guard } from './guards.js';
import type { UploadLimits } from './multipart.js';
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
  readonly errorPages: ErrorPages;
  /** Body cap of actions, APIs and commands. */
  readonly bodyLimit: number;
  /** Limits of multipart uploads (`uploads` in the app config). */
  readonly uploads: UploadLimits;
  log(line: string): void;
  /** Told of every thrown value answered with a 5xx, before the answer goes out (`kit dev` shows it). */
  readonly onFault: ((err: unknown, res: ServerResponse) => void) | undefined;
  /** The site's 404: its `404.html` when the build has one, else the plain answer. */
  notFound(reply: Reply): void;
}
