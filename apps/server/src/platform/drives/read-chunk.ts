import type { Readable } from 'node:stream';

/**
 * Reads a stream in pieces of a chosen size, for providers that take a large file as several calls
 * (Dropbox's upload sessions): only one piece is held in memory at a time.
 */
export class ChunkReader {
  private readonly source: AsyncIterator<Buffer>;
  private pending: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(body: Readable) {
    this.source = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** The next `bytes` bytes, or fewer when the stream ends first. */
  async next(bytes: number): Promise<Buffer> {
    const parts: Buffer[] = [this.pending];
    let held = this.pending.length;
    while (held < bytes && !this.ended) {
      const step = await this.source.next();
      if (step.done) this.ended = true;
      else {
        parts.push(step.value);
        held += step.value.length;
      }
    }
    const all = Buffer.concat(parts);
    this.pending = all.subarray(Math.min(bytes, all.length));
    return all.subarray(0, Math.min(bytes, all.length));
  }
}
