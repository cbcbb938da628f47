// The static build: compile a checked workspace into template IR (`compileSite`), render and write
// it (`writeStaticSite`). The generated app (server/src/core/app/) calls `compileSite` too and renders
// SSR and hybrid pages per request with shared/render's `renderTemplate`.
export { compileSite, outputFile } from './site.js';
export { EarlyBodies } from './early-bodies.js';
export type {
  CompiledSite,
  CompiledPage,
  CompiledFragment,
  PrerenderPath,
  CompileSiteOptions,
} from './compiled.js';
export {
  writeStaticSite,
  writeStaticSiteAsync,
  writeSiteAsync,
  writeChangedFiles,
  compiledSource,
  pagePaths,
  notFoundSource,
  renderNotFound,
  checkReplaceable,
  OutputError,
  SiteErrors,
  ROUTES_MANIFEST,
  ASSETS_MANIFEST,
  IMMUTABLE_CACHE,
  type WriteOptions,
  type WriteStats,
  type RouteManifestEntry,
  type SiteSource,
  type WrittenPage,
  type WrittenFile,
  type PageOutput,
  type KeptFile,
  type KeptAsset,
  type PreviousOutput,
  NOT_FOUND_FILE,
  plannedFiles,
  plannedAsset,
  type PlannedFile,
  stageOutput,
} from './output.js';
export type { EarlyOutput } from './early-output.js';
export { removeTree, removeTreeAsync, removeStale } from './replace-dir.js';
export { type SiteAsset } from './assets.js';
export { scopeCss, scopeSelector, scopeClassFor } from './css-scope.js';
export { KIT_JS_PATH, KIT_JS_TAG, kitRuntimeSource, clientSourceDir } from './runtime-script.js';
export { startWriteThreadAhead } from './write-thread.js';
