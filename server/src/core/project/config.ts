// A project's settings as every front door takes them: the config module found for a directory
// (`findConfigFile`), its settings read from the syntax tree (`core/bind/config-reader.ts`, the same
// reading the workspace does for the module's entry) and the defaults filled in, as absolute paths.
// The command line asks with the current directory (or the first path it was given), the language
// server with each workspace folder; `kit dev` follows the module's entry as it changes.
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readConfigSettings } from '../bind/config-reader.js';
import { DEFAULT_APP, DEFAULT_OUT, DEFAULT_SOURCES, type ConfigSettings } from '../model/app-config.js';
import { displayPath, findConfigFile } from './discover.js';
import { readSourceFile } from './read-source.js';

export interface ProjectConfig {
  /** The config module (absolute). */
  file: string;
  /** Its folder: relative settings are read from there. */
  dir: string;
  /** What the module says; its diagnostics are reported where the workspace holds the module. */
  settings: ConfigSettings;
  /** `ssr`, false when the config does not set it (or sets it to something kit cannot read). */
  ssr: boolean;
  /** The pages (absolute): `sources`, else `site/` beside the config when it is a folder, else the config's folder. */
  sources: string;
  /** True when `sources` came from the config itself (and so must exist), not from the defaults. */
  sourcesSet: boolean;
  /** `kit build`'s static output (absolute): `out`, else `dist/site` beside the config. */
  out: string;
  /** `kit build`'s app server (absolute): `app`, else `dist/app` beside the config; false: none. */
  app: string | false;
  /** `allowedHosts`: host names `kit dev` and `kit preview` answer besides their own; none when unset. */
  allowedHosts: string[];
}

/** True when `p` is a directory (following links); false when it is anything else or nothing. */
export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The settings of a config module's text, with the defaults filled in. */
function projectConfigOf(file: string, settings: ConfigSettings): ProjectConfig {
  const dir = dirname(file);
  const site = join(dir, DEFAULT_SOURCES);
  return {
    file,
    dir,
    settings,
    ssr: settings.ssr ?? false,
    sources: settings.sources !== undefined ? resolve(dir, settings.sources) : isDirectory(site) ? site : dir,
    sourcesSet: settings.sources !== undefined,
    out: resolve(dir, settings.out ?? DEFAULT_OUT),
    app: settings.app === false ? false : resolve(dir, settings.app ?? DEFAULT_APP),
    allowedHosts: settings.allowedHosts ?? [],
  };
}

/**
 * The project config of a directory (absolute, or relative to `cwd`): the config module found for
 * it, read from disk; undefined when there is none. A module that cannot be read (not UTF-8, too
 * large) counts as setting nothing: loading it into a workspace reports why.
 */
export function readProjectConfig(dir: string, cwd: string): ProjectConfig | undefined {
  const file = findConfigFile(resolve(cwd, dir));
  if (file === undefined) return undefined;
  const shown = displayPath(file, cwd);
  let settings: ConfigSettings;
  try {
    settings = readConfigSettings(shown, readSourceFile(file, shown).text);
  } catch {
    settings = { guards: { ids: new Set(), at: new Map(), complete: false }, diagnostics: [] };
  }
  return projectConfigOf(file, settings);
}
