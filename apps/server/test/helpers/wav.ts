import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Writes a 16-bit stereo 48 kHz PCM WAV of about `bytes` bytes (a quiet 220 Hz tone), streamed a
 * second at a time so a 1 GB file costs no memory; returns its size and SHA-256.
 */
export async function writeWav(path: string, bytes: number): Promise<{ size: number; sha256: string }> {
  const rate = 48_000;
  const second = Buffer.alloc(rate * 4);
  for (let i = 0; i < rate; i += 1) {
    const sample = Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 3000);
    second.writeInt16LE(sample, i * 4);
    second.writeInt16LE(sample, i * 4 + 2);
  }
  const seconds = Math.max(1, Math.floor((bytes - 44) / second.length));
  const dataSize = seconds * second.length;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataSize, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataSize, 40);
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  const write = async (chunk: Buffer) => {
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(header);
  for (let s = 0; s < seconds; s += 1) await write(second);
  out.end();
  await once(out, 'finish');
  return { size: 44 + dataSize, sha256: hash.digest('hex') };
}
