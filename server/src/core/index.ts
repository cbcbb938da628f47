// The language core's public entry: parse, summarise, index, validate.
export { Workspace } from './workspace/workspace.js';
export { loadProject, threadSettings, type LoadedProject, type LoadOptions } from './project/load.js';
export { discoverSources, displayPath, SourceError } from './project/discover.js';
export { REGISTRY, codeInfo, diag, type DiagnosticCode, type CodeInfo } from './diagnostics/registry.js';
export { compareDiagnostics, type Diagnostic, type RelatedLocation, type Severity } from './diagnostics/diagnostic.js';
export { summarize, type FileSummary, type RenderMode } from './model/summary.js';
export { fileRegistrations, type Registration } from './model/registrations.js';
export { effectiveCachePolicy, parseRevalidate } from './model/cache-policy.js';
export { exportedIdentifier, exportedRouteName, loadFunctionName, pageIdFromPath } from './model/names.js';
export type { CheckOptions } from './model/options.js';
