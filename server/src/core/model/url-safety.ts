// URL attribute safety lives with the renderer (shared/render), which must never emit an unsafe URL;
// the checker rejects the same URLs at check time through this re-export.
export { decodeEntities, isUnsafeUrl, URL_ATTRIBUTES } from '#shared/render/url-safety.js';
