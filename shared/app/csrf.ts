// CSRF protection: a signed double-submit token (cookie, field and header names in docs/architecture.md's
// naming rules).
// token = base64url(nonce ‖ HMAC-SHA256(secret, nonce)), 32 + 32 bytes → 86 characters. The same
// token travels in a cookie and in the request (form field `_kit_csrf` or header `X-Kit-CSRF`); a
// request is accepted when both are present, equal, and the signature verifies with one of the
// configured secrets. Nothing is stored server-side, so every instance that shares the secret
// accepts every other instance's tokens.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_COOKIE_SECURE = '__Host-kit-csrf';
/** Plain-HTTP local mode: browsers refuse `__Host-` cookies without `Secure`, which needs HTTPS. */
export const CSRF_COOKIE_INSECURE = 'kit-csrf';
/** The form field (written by the renderer, `shared/render/forms.ts`). */
export { CSRF_FIELD } from '../render/index.js';
export const CSRF_HEADER = 'x-kit-csrf';
export const MIN_SECRET_BYTES = 32;

const NONCE_BYTES = 32;
const MAC_BYTES = 32;
const TOKEN_CHARS = 86; // base64url without padding of 64 bytes

export class CsrfConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsrfConfigError';
  }
}

export interface CsrfKeys {
  /** Signs new tokens (and verifies). */
  primary: Buffer;
  /** Every key that verifies, primary first. */
  verify: Buffer[];
  /** True when the secret was generated for this process (no `KIT_CSRF_SECRET`). */
  ephemeral: boolean;
}

/**
 * Keys from `KIT_CSRF_SECRET`: one secret, or several separated by commas for rotation (the first
 * signs, all verify). Each must be at least 32 bytes; without a value a random per-process secret is
 * used (tokens then do not survive a restart or work across instances).
 */
export function csrfKeys(secretEnv: string | undefined): CsrfKeys {
  if (secretEnv === undefined || secretEnv.trim() === '') {
    const key = randomBytes(32);
    return { primary: key, verify: [key], ephemeral: true };
  }
  const parts = secretEnv.split(',').map((s) => s.trim());
  const keys: Buffer[] = [];
  parts.forEach((p, i) => {
    const bytes = Buffer.from(p, 'utf8');
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new CsrfConfigError(
        `KIT_CSRF_SECRET: secret ${i + 1} of ${parts.length} has ${bytes.length} bytes; each secret needs at ` +
          `least ${MIN_SECRET_BYTES}`,
      );
    }
    keys.push(bytes);
  });
  return { primary: keys[0], verify: keys, ephemeral: false };
}

function mac(key: Buffer, nonce: Buffer): Buffer {
  return createHmac('sha256', key).update(nonce).digest();
}

export function newToken(keys: CsrfKeys): string {
  const nonce = randomBytes(NONCE_BYTES);
  return Buffer.concat([nonce, mac(keys.primary, nonce)]).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decode(token: string): Buffer | undefined {
  if (token.length !== TOKEN_CHARS || !BASE64URL.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  return raw.length === NONCE_BYTES + MAC_BYTES ? raw : undefined;
}

/** The signature verifies with `keys` (all of them, or only the primary key). */
export function verifyToken(keys: CsrfKeys, token: string, primaryOnly = false): boolean {
  const raw = decode(token);
  if (!raw) return false;
  const nonce = raw.subarray(0, NONCE_BYTES);
  const sig = raw.subarray(NONCE_BYTES);
  let ok = false;
  for (const key of primaryOnly ? [keys.primary] : keys.verify) {
    // Check every key (no early exit) so timing does not tell which key matched.
    if (timingSafeEqual(mac(key, nonce), sig)) ok = true;
  }
  return ok;
}

/** The double-submit check: cookie and submitted token equal (constant time) and validly signed. */
export function validSubmission(keys: CsrfKeys, cookie: string | undefined, submitted: string | undefined): boolean {
  if (!cookie || !submitted) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(submitted);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  return verifyToken(keys, cookie);
}

export function cookieName(secure: boolean): string {
  return secure ? CSRF_COOKIE_SECURE : CSRF_COOKIE_INSECURE;
}

export function setCookieValue(token: string, secure: boolean): string {
  return `${cookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join('; ') : header;
  let from = 0;
  while (from < text.length) {
    let end = text.indexOf(';', from);
    if (end < 0) end = text.length;
    const eq = text.indexOf('=', from);
    if (eq > from && eq < end && text.slice(from, eq).trim() === name) {
      let v = text.slice(eq + 1, end).trim();
      if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
      return v;
    }
    from = end + 1;
  }
  return undefined;
}
