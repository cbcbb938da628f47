// The app config module, `kit.config.ts` (or .mts/.js/.mjs): a project's settings and the values its
// generated app runs with.
//
//   import { allow, redirectTo, app, type KitConfig } from '@kit-lang/kit/app';
//   export const ssr = true;                    // request-time rendering (as --ssr)
//   export const sources = 'site';              // the pages (default: site/ beside the config, else its folder)
//   export const out = 'dist/site';             // kit build's static output
//   export const app = 'dist/app';              // kit build's app server (false: none)
//   export const guards: KitConfig['guards'] = {
//     'auth.required': (ctx) => (app.cookie(ctx, 'session') ? allow() : redirectTo('/login')),
//   };
//
// (`export default { ssr: true, guards: {...} }` works too.) kit's tools read the settings and the
// registered guard IDs from the module's syntax tree without running it (`core/bind/config-reader.ts`;
// a language server must never execute a project's code), so the settings must be literals; the
// generated app imports the module and runs its guards, uploads and tracer.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { baseName } from './names.js';

const CONFIG_NAME = /^kit\.config\.(ts|mts|js|mjs)$/;

/** The names a config module may have, in the order a directory's are looked for. */
export const CONFIG_FILE_NAMES = ['kit.config.ts', 'kit.config.mts', 'kit.config.js', 'kit.config.mjs'] as const;

export function isAppConfigPath(path: string): boolean {
  return CONFIG_NAME.test(baseName(path));
}

/** Where the settings point when the config leaves them out (relative to the config's folder). */
export const DEFAULT_SOURCES = 'site';
export const DEFAULT_OUT = 'dist/site';
export const DEFAULT_APP = 'dist/app';

export interface RegisteredGuards {
  /** Guard IDs found as keys of the `guards` object. */
  ids: Set<string>;
  /** Where each ID is first registered: its key's offsets in the module (quotes included), for the editor. */
  at: Map<string, { start: number; end: number }>;
  /** False when the module has a `guards` export whose keys cannot be read statically (no warnings then). */
  complete: boolean;
}

/** What a config module says, read from its text: the settings it writes as literals. */
export interface ConfigSettings {
  /** `ssr`: request-time rendering, as `--ssr`. */
  ssr?: boolean;
  /** `sources`: the pages directory, as written (relative to the config's folder). */
  sources?: string;
  /** `out`: the static output of `kit build`, as written. */
  out?: string;
  /** `app`: the app server `kit build` writes, as written; false: none. */
  app?: string | false;
  /** `allowedHosts`: more host names `kit dev` and `kit preview` answer, as `--allowed-hosts` lists them. */
  allowedHosts?: string[];
  guards: RegisteredGuards;
  /** Settings that are not literals or not of their type (`config_not_literal`, `config_invalid_setting`). */
  diagnostics: Diagnostic[];
}
