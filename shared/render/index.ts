// kit's one renderer: template IR types, `renderTemplate`, the forms it fills per request, and the
// escaping helpers. Zero dependencies beyond shared/route, so it runs in the build, in generated
// apps and in single executables alike.
export { IR_VERSION, isTemplate } from './ir.js';
export type {
  Template,
  Node,
  Expr,
  PathSegment,
  BinaryOp,
  TextNode,
  AttrNode,
  UrlNode,
  DynAttrNode,
  IfNode,
  ForNode,
  ElementNode,
} from './ir.js';
export { renderStaticUrl, renderTemplate, type RenderParams } from './render.js';
export {
  FormRender,
  hasTokenForms,
  csrfInput,
  isSameOriginAction,
  writtenValue,
  decodeBasicEntities,
  CSRF_FIELD,
  type FormRenderOptions,
  type RenderedForm,
  type Refill,
  type Captured,
} from './forms.js';
export {
  escapeHtml,
  staticHtml,
  encodeUrlValue,
  encodeUrlData,
  encodeUrlSegments,
  safeUrl,
  safeSrcset,
  UNSAFE_URL,
} from './escape.js';
export { decodeEntities, isUnsafeUrl, URL_ATTRIBUTES } from './url-safety.js';
export { getField, getPath, toText, isTruthy, forEachItem } from './values.js';
