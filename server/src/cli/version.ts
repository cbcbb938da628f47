// kit's version: from the package.json it ships with (`out/server/src/cli/` is four levels below
// it), or, in the extension's bundled server, the version the bundler wrote in.
import { readFileSync } from 'node:fs';

export function version(): string {
  // Bundles replace process.env.KIT_VERSION with the version at build time.
  if (process.env.KIT_VERSION) return process.env.KIT_VERSION;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    return pkg.version;
  } catch {
    return 'dev';
  }
}

/** Whether a command line's first argument asks for the version alone (`kit --version`, `-v`, `version`). */
export function asksVersion(first: string | undefined): boolean {
  return first === '--version' || first === '-v' || first === 'version';
}
