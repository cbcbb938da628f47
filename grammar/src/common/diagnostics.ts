// Syntax diagnostic codes and a constructor. Messages never mention absolute positions: a chunk's
// diagnostics are reused, shifted, by incremental re-parsing.
import type { Range, SyntaxDiagnostic } from '../ast.js';

/** Every syntax code, once; `SyntaxCode` is derived from it. */
export const SYNTAX_CODES = [
  'parse_error',
  'unterminated_string',
  'unterminated_block',
  'unknown_declaration',
  'unsupported_top_level_block',
  'malformed_legacy_metadata',
  'old_action_block_syntax',
  'old_api_block_syntax',
  'view_parse_error',
  'unsupported_markup_syntax',
  'invalid_expression',
  'markup_too_deep',
] as const;

export type SyntaxCode = (typeof SYNTAX_CODES)[number];

export function diag(code: SyntaxCode, message: string, range: Range): SyntaxDiagnostic {
  return { code, message, range, severity: 'error' };
}
