// The LSP benchmark's baseline: the real language server, except that an edited `.kit` file is
// re-parsed whole instead of incrementally. Started by `lsp.bench.ts` like the CLI (`lsp --stdio`).
import { parseKit } from '#grammar/index.js';
import { Workspace } from '#core/workspace/workspace.js';

Workspace.prototype.editKitFile = function (this: Workspace, path: string, text: string): boolean {
  if (this.kit(path)?.text === text) return false;
  this.setKitFile(path, text, parseKit(text, path));
  return true;
};
await import('#cli/main.js');
