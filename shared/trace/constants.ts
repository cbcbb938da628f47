// The closed vocabularies of a span: where it ran (surface), what part of a request it covers (lane),
// how it ended (status), and the attribute keys kit itself writes. The values are those of the README's span table.

export const SurfaceBackend = 'backend';
export const SurfaceFrontend = 'frontend';
export const SurfaceWorker = 'worker';
export const SURFACES = Object.freeze([SurfaceBackend, SurfaceFrontend, SurfaceWorker] as const);
export type Surface = (typeof SURFACES)[number];

export const LaneRoute = 'route';
export const LaneGuard = 'guard';
export const LaneHandler = 'handler';
export const LaneSSR = 'ssr';
export const LaneAction = 'action';
export const LaneAPI = 'api';
export const LaneFragment = 'fragment';
export const LaneContract = 'contract';
export const LaneJob = 'job';
export const LaneIsland = 'island';
export const LaneNav = 'nav';
export const LaneUser = 'user';
export const LANES = Object.freeze([
  LaneRoute,
  LaneGuard,
  LaneHandler,
  LaneSSR,
  LaneAction,
  LaneAPI,
  LaneFragment,
  LaneContract,
  LaneJob,
  LaneIsland,
  LaneNav,
  LaneUser,
] as const);
export type Lane = (typeof LANES)[number];

export const StatusUnset = 'unset';
export const StatusOK = 'ok';
export const StatusError = 'error';
export const STATUS_CODES = Object.freeze([StatusUnset, StatusOK, StatusError] as const);
export type StatusCode = (typeof STATUS_CODES)[number];

/** Conventional event levels; any string of at most 32 bytes is accepted. */
export const LevelInfo = 'info';
export const LevelWarn = 'warn';
export const LevelError = 'error';

export const AttrSurface = 'kit.surface';
export const AttrLane = 'kit.lane';
export const AttrSourceFile = 'kit.source.file';
export const AttrSourceLine = 'kit.source.line';
export const AttrSourceColumn = 'kit.source.column';
export const AttrHTTPRoute = 'http.route';
export const AttrHTTPRequestMethod = 'http.request.method';
export const AttrHTTPResponseStatusCode = 'http.response.status_code';
export const AttrURLPath = 'url.path';
export const AttrServerAddress = 'server.address';
export const AttrEndpointKind = 'kit.endpoint.kind';
export const AttrRouteQuery = 'kit.route.query';
export const AttrPage = 'kit.page';
export const AttrRender = 'kit.render';
export const AttrGuard = 'kit.guard';
export const AttrEndpointSymbol = 'kit.endpoint.symbol';
/** A guard span's outcome: `allow`, `deny`, `redirect`, `unknown` or `error`. */
export const AttrGuardDecision = 'kit.guard.decision';
/** Why a request was denied without a guard running: `missing_guard` (the route declares none). */
export const AttrGuardReason = 'kit.guard.reason';
/** The handler or load function a span calls (its exported name). */
export const AttrHandler = 'kit.handler';
/** OpenTelemetry's exception event and its attributes. */
export const EventException = 'exception';
export const AttrExceptionType = 'exception.type';
export const AttrExceptionMessage = 'exception.message';
export const AttrExceptionStacktrace = 'exception.stacktrace';

/** Log-record keys for correlating log lines with spans. */
export const LogKeyTraceId = 'trace_id';
export const LogKeySpanId = 'span_id';

/** Bounds applied to every span snapshot (README, "Tracing"). Sizes are UTF-8 bytes. */
export const LIMITS = Object.freeze({
  nameBytes: 512,
  statusMessageBytes: 1024,
  sourceFileBytes: 512,
  attributes: 64,
  attributeKeyBytes: 128,
  attributeStringBytes: 2048,
  arrayItems: 32,
  events: 64,
  eventLevelBytes: 32,
  eventMessageBytes: 1024,
  spanBytes: 64 * 1024,
});
