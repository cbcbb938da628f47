// Public entry point of the syntax layer: `.kit` text → typed AST + syntax diagnostics.
export * from './ast.js';
export {
  parseKit,
  parseKitDeclarations,
  reparseKit,
  isReparseable,
  lexOnly,
  fileKindFromPath,
  type ParseOptions,
} from './parse-file.js';
export { positionAt, offsetAt, Span } from './common/text-lines.js';
export { valueOffset } from './common/string-literal.js';
export { closestOf, editDistance, typoBound, typoDistance } from './common/typos.js';
export { SYNTAX_CODES, type SyntaxCode } from './common/diagnostics.js';
export { MAX_MARKUP_DEPTH } from './markup/markup-parser.js';
