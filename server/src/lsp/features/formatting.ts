// Document formatting: the `kit fmt` formatter, answered as one edit over the whole document (or no
// edit when the file is formatted already or has syntax errors, which are left untouched).
import type { TextEdit } from 'vscode-languageserver';
import { formatKit } from '#core/format/format-kit.js';
import { rangeOfOffsets } from '../convert.js';
import type { FeatureContext } from './context.js';

export function formatDocument(ctx: FeatureContext, path: string): TextEdit[] {
  const entry = ctx.ws.kit(path);
  if (!entry) return [];
  const result = formatKit(entry.text, path, entry.ast);
  if (result.kind !== 'formatted' || !result.changed) return [];
  return [{ range: rangeOfOffsets(entry.ast, 0, entry.text.length), newText: result.text }];
}
