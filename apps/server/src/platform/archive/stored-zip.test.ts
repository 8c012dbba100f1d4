import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { storedZip, storedZipSize, type StoredZipEntry } from './stored-zip';

interface ReadEntry {
  bytes: Buffer;
  crc: number;
  mtime: Date;
  zip64: boolean;
}

/** Every entry as yauzl (a reader Mixroom did not write) sees it, with the CRC-32 the archive claims. */
function readZip(zip: Buffer): Promise<Map<string, ReadEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const found = new Map<string, ReadEntry>();
      file.on('error', reject);
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          buffer(stream).then((bytes) => {
            const zip64 = entry.extraFields.some((field) => field.id === 0x0001);
            found.set(entry.fileName, { bytes, crc: entry.crc32, mtime: entry.getLastModDate(), zip64 });
            file.readEntry();
          }, reject);
        });
      });
      file.on('end', () => resolve(found));
      file.readEntry();
    });
  });
}

const mtime = new Date(2026, 10, 24, 15, 30, 42);
const entry = (path: string, bytes: Buffer): StoredZipEntry => ({
  path,
  size: bytes.length,
  mtime,
  // Several chunks per file, as a blob store hands them over.
  open: () => Promise.resolve(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)])),
});

describe('stored ZIP writer', () => {
  const files = {
    'Session/Kick.wav': randomBytes(300_000),
    'Session/Vocals – take 2 ✓.wav': randomBytes(70_001),
    'empty.txt': Buffer.alloc(0),
  };
  const entries = Object.entries(files).map(([path, bytes]) => entry(path, bytes));

  it.each([false, true])(
    'writes the announced length, and every entry reads back with its CRC (ZIP64 %s)',
    async (forceZip64) => {
      const zip = await buffer(storedZip(entries, { forceZip64 }));
      expect(zip.length).toBe(storedZipSize(entries, { forceZip64 }));
      const read = await readZip(zip);
      expect([...read.keys()]).toEqual(Object.keys(files));
      for (const [path, bytes] of Object.entries(files)) {
        const got = read.get(path);
        expect(got?.bytes.equals(bytes)).toBe(true);
        expect(got?.crc).toBe(crc32(bytes));
        expect(got?.zip64).toBe(forceZip64);
      }
    },
  );

  it('keeps the modification time to the second, in local time as unzip tools show it', async () => {
    const read = await readZip(await buffer(storedZip(entries)));
    expect(read.get('empty.txt')?.mtime.getTime()).toBe(mtime.getTime());
  });

  it('fails the stream, rather than writing a corrupt archive, when a file is shorter than announced', async () => {
    const short = { ...entry('short.wav', randomBytes(2000)), size: 2001 };
    await expect(buffer(storedZip([short]))).rejects.toThrow('read 2000 bytes where 2001 were expected');
  });
});
