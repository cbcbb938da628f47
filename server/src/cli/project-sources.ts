// What a command reads and how: the paths it was given, else the `sources` of the project's
// kit.config (`core/project/config.ts`); `--ssr`, else the config's `ssr`. The config is the one
// found for the first path given, else for the current directory, so that `kit check` in a project
// and `kit check <that project>` from elsewhere agree.
import { dirname, resolve } from 'node:path';
import { displayPath } from '#core/project/discover.js';
import { isDirectory, readProjectConfig, type ProjectConfig } from '#core/project/config.js';
import { UsageError } from './usage-error.js';
import type { CliIO } from './io.js';

export interface CommandSources {
  /** Files and directories to load, as given or relative to the current directory. */
  inputs: string[];
  ssr: boolean;
  config?: ProjectConfig;
}

/** A path as the command's messages show it (relative to the current directory when inside it). */
export function shownPath(abs: string, io: CliIO): string {
  return displayPath(abs, io.cwd) || '.';
}

/** The project config for a command's paths (or the current directory), if one is found. */
export function configFor(positionals: readonly string[], io: CliIO): ProjectConfig | undefined {
  const first = positionals.length ? resolve(io.cwd, positionals[0]) : io.cwd;
  return readProjectConfig(isDirectory(first) ? first : dirname(first), io.cwd);
}

/**
 * The sources and `ssr` of a command. Without paths and without a config, `fallback` when the
 * command has a default of its own (`kit inspect` and `kit dev` read `.`), else a usage error that
 * says what to do.
 */
export function commandSources(
  command: string,
  positionals: readonly string[],
  ssrFlag: boolean,
  io: CliIO,
  fallback?: string[],
): CommandSources {
  const config = configFor(positionals, io);
  const ssr = ssrFlag || (config?.ssr ?? false);
  if (positionals.length) return { inputs: [...positionals], ssr, config };
  if (config) {
    if (config.sourcesSet && !isDirectory(config.sources))
      throw new UsageError(
        `kit ${command}: ${shownPath(config.file, io)} sets sources to ${shownPath(config.sources, io)}, which is ` +
          'not a directory',
      );
    return { inputs: [shownPath(config.sources, io)], ssr, config };
  }
  if (fallback) return { inputs: fallback, ssr, config };
  throw new UsageError(
    `kit ${command}: no sources: name the directory of the .kit files (kit ${command} site), or run it in a ` +
      'project whose kit.config.ts (or .mts, .js, .mjs; kit init writes one) is found here or up to the ' +
      'project root',
  );
}
