// The global declarations the binding Program is built with, instead of TypeScript's own lib files.
// Binding only reads declared parameter and property types; it never type-checks bodies. Parsing
// lib.es2022 + lib.dom (several MB) would cost more than binding a thousand handler modules, so the
// Program gets this small script: the types the checker requires to exist (Array, Boolean,
// Function, ...), the utility types input types are commonly written with, and the WHATWG types
// handler signatures name (Request, Response, FormData, ...). Handler modules import kit's handler
// types from the package, which the Program does not load (only relative imports are followed):
// the same types are declared here, reduced to their parameters, so that a `const` written to an
// alias of one (`type Save = ActionWithInput<Input>`) takes its parameter types from it.
// test/server/core/bind/kit-types.slow.test.ts holds them to shared/app/handler-types.ts.
export const MINI_LIB_NAME = '/__kit__/kit-binding-lib.d.ts';

export const MINI_LIB_TEXT = `
interface Object {}
interface Function { readonly name: string }
interface CallableFunction extends Function {}
interface NewableFunction extends Function {}
interface IArguments { length: number; [index: number]: any }
interface String { readonly length: number }
interface Number {}
interface Boolean {}
interface Symbol {}
interface BigInt {}
interface RegExp {}
interface Date {}
interface Error { name: string; message: string }
interface TemplateStringsArray extends ReadonlyArray<string> { readonly raw: readonly string[] }
interface ReadonlyArray<T> { readonly length: number; readonly [n: number]: T }
interface Array<T> { length: number; [n: number]: T }
interface ArrayConstructor { isArray(arg: any): arg is any[] }
declare var Array: ArrayConstructor;
interface PromiseLike<T> {
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): PromiseLike<R1 | R2>;
}
interface Promise<T> {
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2>;
}
interface PromiseConstructor { readonly prototype: Promise<any> }
declare var Promise: PromiseConstructor;
interface Map<K, V> { get(key: K): V | undefined; readonly size: number }
interface Set<T> { has(value: T): boolean; readonly size: number }
type Partial<T> = { [P in keyof T]?: T[P] };
type Required<T> = { [P in keyof T]-?: T[P] };
type Readonly<T> = { readonly [P in keyof T]: T[P] };
type Pick<T, K extends keyof T> = { [P in K]: T[P] };
type Record<K extends keyof any, T> = { [P in K]: T };
type Exclude<T, U> = T extends U ? never : T;
type Extract<T, U> = T extends U ? T : never;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
type NonNullable<T> = T & {};
type Awaited<T> = T extends PromiseLike<infer U> ? Awaited<U> : T;
type ReturnType<T extends (...args: any) => any> = T extends (...args: any) => infer R ? R : any;
type Parameters<T extends (...args: any) => any> = T extends (...args: infer P) => any ? P : never;
interface Headers { get(name: string): string | null }
interface Blob { readonly size: number; readonly type: string }
interface File extends Blob { readonly name: string }
interface FormData { get(name: string): string | File | null; getAll(name: string): (string | File)[] }
interface URLSearchParams { get(name: string): string | null }
interface URL { readonly pathname: string; readonly searchParams: URLSearchParams }
interface Body { text(): Promise<string>; json(): Promise<any>; formData(): Promise<FormData> }
interface Request extends Body { readonly method: string; readonly url: string; readonly headers: Headers }
interface Response extends Body { readonly status: number; readonly headers: Headers }
declare var Request: { prototype: Request; new (input: string): Request };
declare var Response: {
  prototype: Response;
  new (body?: any, init?: any): Response;
  json(data: any, init?: any): Response;
};
declare module '@kit-lang/kit/app' {
  export class FormValues { private readonly kitFormValues: true }
  export interface RequestContext { readonly kitRequestContext?: true }
  export type Action = (ctx: RequestContext) => unknown;
  export type ActionWithInput<Input extends object> = (ctx: RequestContext, input: Input) => unknown;
  export type FormAction = (ctx: RequestContext, form: FormValues) => unknown;
  export type ApiHandler = (ctx: RequestContext, request: Request) => unknown;
  export type Load<Data extends object = Record<string, unknown>> = (ctx: RequestContext) => Data | Promise<Data>;
  export type Guard = (ctx: RequestContext) => unknown;
}
`;
