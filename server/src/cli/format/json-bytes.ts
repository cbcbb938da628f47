// A JSON text written straight into bytes: what `kit check --json` prints (15 MB for 26,578
// diagnostics). Made as strings, the report cost twice: building megabyte strings out of small
// pieces, then converting them to UTF-8 (a message with one `…` makes the whole part a two-byte
// string, which V8 converts at ~150 MB/s). Here fixed text is copied from bytes made once, and
// each string value is escaped and encoded in one pass over its characters, as `JSON.stringify`
// would write it (the report's tests hold the two byte-identical).

/** The UTF-8 bytes of `text` that is written again and again (keys, indentation, punctuation). */
export function fixedBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

const HEX = '0123456789abcdef';

/** How many values `repeated` keeps encoded (a workspace's file paths, its codes): bounded, not cleared per part. */
const KNOWN_VALUES = 16_384;

/**
 * A growing run of bytes: fixed text, JSON string values and integers are appended; `take` hands
 * out what was written so far and starts again (the caller writes it out a part at a time).
 */
export class JsonBytes {
  private buf: Uint8Array;
  private at = 0;
  /** `repeated`'s values, as they were encoded. */
  private readonly known = new Map<string, Uint8Array>();

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
  }

  /** How many bytes are waiting to be taken. */
  get length(): number {
    return this.at;
  }

  /** The bytes written since the last `take`, as a Buffer of their own. */
  take(): Buffer {
    const out = Buffer.from(this.buf.buffer, this.buf.byteOffset, this.at);
    this.buf = new Uint8Array(this.buf.length);
    this.at = 0;
    return out;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  /** Bytes made by `fixedBytes`. */
  fixed(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** A non-negative integer (a line, a column) or any other finite number, as `JSON.stringify` writes it. */
  number(n: number): void {
    if (!(Number.isInteger(n) && n >= 0 && n < 1e15)) {
      this.ascii(JSON.stringify(n));
      return;
    }
    this.room(16);
    const buf = this.buf;
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    let i = this.at + digits;
    this.at = i;
    let x = n;
    do {
      buf[--i] = 48 + (x % 10);
      x = Math.floor(x / 10);
    } while (x > 0);
  }

  /** Text known to be ASCII without anything JSON escapes (a number's text). */
  private ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.at++] = s.charCodeAt(i);
  }

  /**
   * `s` as `string` writes it, for values that come back again and again (a diagnostic's file, code
   * and severity: the report repeats each file path for every diagnostic of the file): encoded once
   * and copied after that.
   */
  repeated(s: string): void {
    const bytes = this.known.get(s);
    if (bytes === undefined) {
      if (this.known.size >= KNOWN_VALUES) this.known.clear();
      const from = this.at;
      this.string(s);
      this.known.set(s, this.buf.slice(from, this.at));
      return;
    }
    this.fixed(bytes);
  }

  /**
   * `s` as a JSON string value, quotes included: `"`, `\` and control characters escaped as
   * `JSON.stringify` escapes them (`\n`, `\u0001`, ...), lone surrogates as `\udXXX`, everything
   * else in UTF-8.
   */
  string(s: string): void {
    // At most 6 bytes per character (`\u0001`), and the quotes.
    this.room(s.length * 6 + 2);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = 34;
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 32 && c < 128) {
        if (c === 34 || c === 92) buf[at++] = 92;
        buf[at++] = c;
      } else if (c < 32) {
        buf[at++] = 92;
        const short = SHORT_ESCAPES[c];
        if (short !== 0) buf[at++] = short;
        else {
          buf[at++] = 117; // u
          buf[at++] = 48;
          buf[at++] = 48;
          buf[at++] = HEX.charCodeAt(c >> 4);
          buf[at++] = HEX.charCodeAt(c & 15);
        }
      } else if (c < 0x800) {
        buf[at++] = 0xc0 | (c >> 6);
        buf[at++] = 0x80 | (c & 63);
      } else if (c < 0xd800 || c > 0xdfff) {
        buf[at++] = 0xe0 | (c >> 12);
        buf[at++] = 0x80 | ((c >> 6) & 63);
        buf[at++] = 0x80 | (c & 63);
      } else {
        const low = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          buf[at++] = 0xf0 | (cp >> 18);
          buf[at++] = 0x80 | ((cp >> 12) & 63);
          buf[at++] = 0x80 | ((cp >> 6) & 63);
          buf[at++] = 0x80 | (cp & 63);
          i++;
        } else {
          // A lone surrogate: JSON.stringify writes it as an escape (well-formed JSON.stringify).
          buf[at++] = 92;
          buf[at++] = 117;
          for (let shift = 12; shift >= 0; shift -= 4) buf[at++] = HEX.charCodeAt((c >> shift) & 15);
        }
      }
    }
    buf[at++] = 34;
    this.at = at;
  }
}

/** The letter after `\` of the control characters JSON writes short (`\b \t \n \f \r`); 0: `\u00XX`. */
const SHORT_ESCAPES = new Uint8Array(32);
SHORT_ESCAPES[8] = 98;
SHORT_ESCAPES[9] = 116;
SHORT_ESCAPES[10] = 110;
SHORT_ESCAPES[12] = 102;
SHORT_ESCAPES[13] = 114;
