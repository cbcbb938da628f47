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
export { positionAt, offsetAt, Span } from './text-lines.js';
export { valueOffset } from './string-literal.js';
export { closestOf, DECLARATION_KEYWORDS, editDistance, typoBound, typoDistance, VOID_ELEMENTS } from './keywords.js';
export { SYNTAX_CODES, type SyntaxCode } from './diagnostics.js';
export { MAX_MARKUP_DEPTH } from './markup-parser.js';
