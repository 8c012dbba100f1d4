import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes RGBA pixels as a PNG (no image library needed for a thumbnail). */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The waveform thumbnail (spec: 150×150): mirrored bars on transparent, violet to pink. */
export function renderWaveformThumbnail(raw: number[], size = 150): Buffer {
  // Scaled to the file's own loudest bin: a quiet recording still shows its shape.
  const loudest = Math.max(0, ...raw);
  const levels = loudest > 0 ? raw.map((v) => v / loudest) : raw;
  const pixels = Buffer.alloc(size * size * 4);
  const bars = Math.floor(size / 3);
  const middle = size / 2;
  for (let bar = 0; bar < bars; bar++) {
    const from = Math.floor((bar / bars) * levels.length);
    const to = Math.max(from + 1, Math.floor(((bar + 1) / bars) * levels.length));
    const peak = levels.length ? Math.max(...levels.slice(from, to)) : 0;
    const half = Math.max(1, Math.round(peak * (size / 2 - 4)));
    const mix = bar / bars;
    const color = [
      Math.round(151 + (230 - 151) * mix),
      Math.round(117 + (73 - 117) * mix),
      Math.round(250 + (128 - 250) * mix),
    ];
    for (let x = bar * 3; x < bar * 3 + 2; x++) {
      for (let y = Math.round(middle - half); y < Math.round(middle + half); y++) {
        const i = (y * size + x) * 4;
        pixels.set([color[0]!, color[1]!, color[2]!, 255], i);
      }
    }
  }
  return encodePng(size, size, pixels);
}
