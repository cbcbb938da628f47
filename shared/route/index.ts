// kit's one route-pattern module: parse, shape key, overlap, compiled router, request-path safety
// and typed param decoders. Zero dependencies; the checker, the language server and generated
// servers all import it from here.
export { PARAM_TYPES } from './types.js';
export type {
  ParamType,
  Span,
  Segment,
  RouteIssueCode,
  RouteIssueKind,
  RouteIssue,
  RouteParam,
  ParsedRoute,
} from './types.js';
export { parseRoutePattern, isParamName, isParamType } from './pattern.js';
export { routeShapeKey, PARAM_SHAPE, REST_SHAPE } from './shape.js';
export { routesOverlap, ambiguousOverlap } from './overlap.js';
export type { RouteOwner } from './overlap.js';
export { concretePath, encodePathSegment } from './concrete-path.js';
export { validateContractPath } from './contract-path.js';
export type { ContractPathOptions } from './contract-path.js';
export { checkRequestTarget, splitPath, isDotLikeSegment, toOriginForm } from './request-path.js';
export type { RequestPathResult } from './request-path.js';
export { matchRoute, isCapturableSegment } from './match.js';
export { compileRouter, compareMethods } from './router.js';
export type { Router, RouteMatch, RouterEntry, RouterError } from './router.js';
export { route, decodeParam, decodeTypedParams, RouteParamError, MissingParamError } from './params.js';
export type { Params, ParamResult, ParamValue, TypedParamsResult } from './params.js';
