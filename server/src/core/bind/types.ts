// Handler binding results: which exported function of a directory's modules serves each endpoint,
// load and contract, and whether kit can call it. Plain data shared by the reports, the language
// server, the static build and the generated app (which decodes forms with `inputFields`).
import type { Range } from '#grammar/index.js';

/**
 * `bound`: kit calls it; `missing`: nothing to call (501); `unsupported_signature`: found but not
 * callable, an error (`kit build` refuses it; an app made anyway answers 501).
 */
export type BindingStatus = 'bound' | 'missing' | 'unsupported_signature';

/** What a bound function is looked up for. */
export type BindTargetKind = 'action' | 'api' | 'fragment' | 'load' | 'command' | 'query';

/**
 * Accepted call shapes (README, "Handler binding"), by the handler type of `@kit-lang/kit/app`:
 * - `action0` `(ctx)` (`Action`), `action_input` `(ctx, input: T)` (`ActionWithInput<T>`),
 *   `action_form` `(ctx, form: FormValues)` (`FormAction`)
 * - `api` `(ctx, request: Request)` (`ApiHandler`), also written `(ctx)` or `()`
 * - `fragment` `(ctx)` (the optional fragment hook), `load` `(ctx)` (`Load<PageID>`)
 * - `command0` `(ctx)`, `command_input` `(ctx, input: T)`, `query0` `(ctx)`, `query_input` `(ctx, input: T)`
 */
// The runtime consumes signature kinds too; they are defined once, in the zero-dependency manifest.
export type { SignatureKind } from '#shared/app/manifest.js';
import type { SignatureKind } from '#shared/app/manifest.js';

export const SIGNATURE_KINDS: readonly SignatureKind[] = [
  'action0',
  'action_input',
  'action_form',
  'api',
  'fragment',
  'load',
  'command0',
  'command_input',
  'query0',
  'query_input',
];

/** Form-decodable property types of an input type. */
export type InputFieldType = 'string' | 'number' | 'boolean' | 'string[]' | 'file' | 'file[]';

export interface InputField {
  name: string;
  type: InputFieldType;
  optional: boolean;
}

/** What is looked up, as declared: shared by a binding request (`targets.ts`) and its result. */
export interface BindSubject {
  target: BindTargetKind;
  /** The name as declared: the symbol, `Load<PageID>`, or the contract reference (`Save`, `notes.Save`). */
  name: string;
  /** The exported name looked up (the declared symbol, `Load<PageID>`, or the contract's name without its alias). */
  functionName: string;
  /** The file that declares the need: the `.kit` file, or the module of a `//kit:` comment endpoint. */
  file: string;
  /** Where binding diagnostics point in `file` (the symbol of the declaration). */
  range: Range;
  /** Page ID of a `.kit` target; `<package>.<Function>` for comment endpoints. */
  ownerId: string;
}

export interface HandlerBinding extends BindSubject {
  status: BindingStatus;
  /** Package of the directory the function is looked up in. */
  packageName: string;
  /** Directory searched (as workspace paths are spelled). */
  dir: string;
  /** Module that declares the function, when one was found. */
  module?: string;
  /** `./handlers.js` for `handlers.ts`: the module relative to the directory of `file`, as an ES import specifier. */
  importPath?: string;
  /** Range of the function's name in `module`. */
  functionRange?: Range;
  signature?: SignatureKind;
  /** The declaration as written: `Send(ctx: unknown, input: ContactInput): Promise<Response>`. */
  signatureText?: string;
  /** Name of the input type (`ContactInput`, or the literal type text). */
  inputType?: string;
  inputFields?: InputField[];
  /** Declared return type text, when annotated (contracts report it as `result`). */
  resultType?: string;
  /** Why a binding is missing or unsupported, with the accepted shapes. */
  message?: string;
  /** Module where a stub for a missing function belongs (`handlers.ts` in the directory). */
  stubFile?: string;
}

/** The bindings of one `.kit` file or handler module, in declaration order. */
export interface FileBinding {
  file: string;
  handlers: HandlerBinding[];
}

export function findBinding(
  fb: FileBinding | undefined,
  target: BindTargetKind,
  name: string,
): HandlerBinding | undefined {
  return fb?.handlers.find((h) => h.target === target && h.name === name);
}
