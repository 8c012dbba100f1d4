import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { exactLength } from './exact-length';

const sink = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
const bytes = (...sizes: number[]) => Readable.from(sizes.map((n) => Buffer.alloc(n, 1)));

describe('exactLength', () => {
  it('passes a body of the announced length', async () => {
    await expect(pipeline(bytes(60, 40), exactLength(100), sink())).resolves.toBeUndefined();
  });

  it('fails a body that ends short, so the response ends with an error instead of waiting', async () => {
    await expect(pipeline(bytes(100), exactLength(50_000), sink())).rejects.toThrow(
      'read 100 bytes where 50000 were expected',
    );
  });

  it('fails a body that runs past it', async () => {
    await expect(pipeline(bytes(60, 60), exactLength(100), sink())).rejects.toThrow('more than the 100 bytes');
  });
});
