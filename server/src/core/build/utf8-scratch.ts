// A page's text encoded once, for its size, its hash and the build cache, into one buffer used
// again for the next: a buffer per page, outliving its scavenge while the cache held it, kept the
// process's RSS higher. The writing thread takes the string and encodes it there.
export class Utf8Scratch {
  private buf = new Uint8Array(1 << 16);
  private readonly encoder = new TextEncoder();

  /** The bytes of `s`, valid until the next call. */
  encode(s: string): Uint8Array {
    // UTF-16 units → at most 3 bytes each.
    if (s.length * 3 > this.buf.length) this.buf = new Uint8Array(s.length * 3);
    return this.buf.subarray(0, this.encoder.encodeInto(s, this.buf).written);
  }
}
