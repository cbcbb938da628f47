// The bytes the stdio reader has received and not consumed yet, as the list of chunks they came in.
// Positions are absolute (counted from the first byte ever received), so a scan can stop anywhere
// and resume there when more bytes come: the reader looks at each byte a bounded number of times
// and copies a frame's body once, whatever its size and however it was cut into chunks.

export class ByteChunks {
  private chunks: Buffer[] = [];
  /** Absolute position of each chunk's first byte. */
  private starts: number[] = [];
  /** Index into `chunks` of the first chunk still held (consumed chunks are dropped in batches). */
  private first = 0;
  /** Absolute position of the first byte not consumed. */
  begin = 0;
  /** Absolute position just past the last byte received. */
  end = 0;
  /** The chunk `byteAt` read last: sequential reads find it again at once. */
  private hint = 0;

  get size(): number {
    return this.end - this.begin;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.starts.push(this.end);
    this.end += chunk.length;
  }

  /** The index of the chunk holding absolute position `at` (begin <= at < end). */
  private chunkOf(at: number): number {
    const h = this.hint;
    if (
      h >= this.first &&
      h < this.chunks.length &&
      this.starts[h] <= at &&
      at < this.starts[h] + this.chunks[h].length
    )
      return h;
    let lo = this.first;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    this.hint = lo;
    return lo;
  }

  byteAt(at: number): number {
    const i = this.chunkOf(at);
    return this.chunks[i][at - this.starts[i]];
  }

  /** The first position in [from, to) holding `byte`, or -1 (memchr over each chunk). */
  indexOf(byte: number, from: number, to = this.end): number {
    if (from >= to) return -1;
    for (let i = this.chunkOf(Math.max(from, this.begin)); i < this.chunks.length; i++) {
      const start = this.starts[i];
      if (start >= to) return -1;
      const found = this.chunks[i].indexOf(byte, Math.max(0, from - start));
      if (found >= 0) return start + found < to ? start + found : -1;
    }
    return -1;
  }

  /** The bytes [from, to) as one buffer: a view of one chunk, or one copy of the pieces. */
  slice(from: number, to: number): Buffer {
    if (from >= to) return Buffer.alloc(0);
    const a = this.chunkOf(from);
    const b = this.chunkOf(to - 1);
    if (a === b) return this.chunks[a].subarray(from - this.starts[a], to - this.starts[a]);
    const pieces: Buffer[] = [];
    for (let i = a; i <= b; i++) {
      const start = this.starts[i];
      pieces.push(this.chunks[i].subarray(Math.max(0, from - start), Math.min(this.chunks[i].length, to - start)));
    }
    return Buffer.concat(pieces, to - from);
  }

  /** Forgets the bytes before `to`. */
  consume(to: number): void {
    this.begin = Math.min(Math.max(this.begin, to), this.end);
    while (this.first < this.chunks.length && this.starts[this.first] + this.chunks[this.first].length <= this.begin)
      this.first++;
    // Drop the consumed chunks' slots once they are half the list: the list stays linear in size.
    if (this.first > 0 && this.first * 2 >= this.chunks.length) {
      this.chunks = this.chunks.slice(this.first);
      this.starts = this.starts.slice(this.first);
      this.hint = Math.max(0, this.hint - this.first);
      this.first = 0;
    }
  }
}
