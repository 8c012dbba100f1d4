import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** One file of an archive: its path inside it, its exact length, and how to read it when reached. */
export interface StoredZipEntry {
  path: string;
  size: number;
  mtime: Date;
  open: () => Promise<Readable>;
}

export interface StoredZipOptions {
  /** Writes ZIP64 records for every entry and the end record, as archives past 4 GiB need (tests use it small). */
  forceZip64?: boolean;
}

// Record signatures and sizes of the ZIP format (PKWARE's APPNOTE).
const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;
const LOCAL_FIXED = 30;
const CENTRAL_FIXED = 46;
const ZIP64_END_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const END_SIZE = 22;
const EXTENDED_TIME_SIZE = 9;
// Bit 3: CRC-32 and sizes follow the data (the CRC is only known once the bytes went by). Bit 11: UTF-8 names.
const FLAGS = (1 << 3) | (1 << 11);
const STORED = 0;
const MADE_BY_UNIX = (3 << 8) | 45;
const FILE_MODE = 0o100644;
const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;

interface Layout {
  entry: StoredZipEntry;
  name: Buffer;
  offset: number;
  /** Sizes past 32 bits: the local header carries a ZIP64 field and the descriptor 8-byte sizes. */
  bigSize: boolean;
  bigOffset: boolean;
}

function layout(entries: StoredZipEntry[], force: boolean): { rows: Layout[]; centralOffset: number } {
  let offset = 0;
  const rows = entries.map((entry) => {
    const name = Buffer.from(entry.path, 'utf8');
    const bigSize = force || entry.size >= MAX_32;
    const row = { entry, name, offset, bigSize, bigOffset: force || offset >= MAX_32 };
    offset += LOCAL_FIXED + name.length + (bigSize ? 20 : 0) + entry.size + (bigSize ? 24 : 16);
    return row;
  });
  return { rows, centralOffset: offset };
}

const zip64Extra = (row: Layout) => (row.bigSize ? 16 : 0) + (row.bigOffset ? 8 : 0);
const centralSize = (row: Layout) => {
  const extra = zip64Extra(row);
  return CENTRAL_FIXED + row.name.length + EXTENDED_TIME_SIZE + (extra ? 4 + extra : 0);
};

function endNeedsZip64(count: number, centralOffset: number, size: number, force: boolean): boolean {
  return force || count >= MAX_16 || centralOffset >= MAX_32 || size >= MAX_32;
}

/** The archive's exact length, known before a byte is read: entries are stored, never compressed. */
export function storedZipSize(entries: StoredZipEntry[], options: StoredZipOptions = {}): number {
  const force = options.forceZip64 ?? false;
  const { rows, centralOffset } = layout(entries, force);
  const central = rows.reduce((sum, row) => sum + centralSize(row), 0);
  const zip64 = endNeedsZip64(rows.length, centralOffset, central, force);
  return centralOffset + central + (zip64 ? ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE : 0) + END_SIZE;
}

/** MS-DOS date and time (local time, two-second steps), clamped to the years the format holds. */
function dosDateTime(date: Date): { date: number; time: number } {
  const d =
    date.getFullYear() < 1980 ? new Date(1980, 0, 1) : date.getFullYear() > 2107 ? new Date(2107, 11, 31) : date;
  return {
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
  };
}

function writeBig(buffer: Buffer, value: number, at: number): void {
  buffer.writeBigUInt64LE(BigInt(value), at);
}

function localHeader(row: Layout): Buffer {
  const extra = row.bigSize ? 20 : 0;
  const b = Buffer.alloc(LOCAL_FIXED + row.name.length + extra);
  const { date, time } = dosDateTime(row.entry.mtime);
  b.writeUInt32LE(LOCAL_HEADER, 0);
  b.writeUInt16LE(row.bigSize ? 45 : 20, 4);
  b.writeUInt16LE(FLAGS, 6);
  b.writeUInt16LE(STORED, 8);
  b.writeUInt16LE(time, 10);
  b.writeUInt16LE(date, 12);
  // CRC-32 and sizes stay zero here (bit 3); a ZIP64 entry marks its sizes as held by the extra field.
  if (row.bigSize) {
    b.writeUInt32LE(MAX_32, 18);
    b.writeUInt32LE(MAX_32, 22);
  }
  b.writeUInt16LE(row.name.length, 26);
  b.writeUInt16LE(extra, 28);
  row.name.copy(b, LOCAL_FIXED);
  if (row.bigSize) {
    const at = LOCAL_FIXED + row.name.length;
    b.writeUInt16LE(0x0001, at);
    b.writeUInt16LE(16, at + 2);
  }
  return b;
}

function dataDescriptor(row: Layout, crc: number): Buffer {
  const b = Buffer.alloc(row.bigSize ? 24 : 16);
  b.writeUInt32LE(DATA_DESCRIPTOR, 0);
  b.writeUInt32LE(crc, 4);
  if (row.bigSize) {
    writeBig(b, row.entry.size, 8);
    writeBig(b, row.entry.size, 16);
  } else {
    b.writeUInt32LE(row.entry.size, 8);
    b.writeUInt32LE(row.entry.size, 12);
  }
  return b;
}

function centralHeader(row: Layout, crc: number): Buffer {
  const extra = zip64Extra(row);
  const b = Buffer.alloc(centralSize(row));
  const { date, time } = dosDateTime(row.entry.mtime);
  const size = row.bigSize ? MAX_32 : row.entry.size;
  b.writeUInt32LE(CENTRAL_HEADER, 0);
  b.writeUInt16LE(MADE_BY_UNIX, 4);
  b.writeUInt16LE(extra ? 45 : 20, 6);
  b.writeUInt16LE(FLAGS, 8);
  b.writeUInt16LE(STORED, 10);
  b.writeUInt16LE(time, 12);
  b.writeUInt16LE(date, 14);
  b.writeUInt32LE(crc, 16);
  b.writeUInt32LE(size, 20);
  b.writeUInt32LE(size, 24);
  b.writeUInt16LE(row.name.length, 28);
  b.writeUInt16LE(EXTENDED_TIME_SIZE + (extra ? 4 + extra : 0), 30);
  b.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  b.writeUInt32LE(row.bigOffset ? MAX_32 : row.offset, 42);
  let at = CENTRAL_FIXED;
  row.name.copy(b, at);
  at += row.name.length;
  // Info-ZIP's extended timestamp: the modification time in UTC, which DOS time cannot say.
  b.writeUInt16LE(0x5455, at);
  b.writeUInt16LE(5, at + 2);
  b.writeUInt8(1, at + 4);
  b.writeInt32LE(Math.max(-0x80000000, Math.min(0x7fffffff, Math.floor(row.entry.mtime.getTime() / 1000))), at + 5);
  at += EXTENDED_TIME_SIZE;
  if (!extra) return b;
  // The ZIP64 field holds, in this order, only the values whose 32-bit slots say 0xFFFFFFFF.
  b.writeUInt16LE(0x0001, at);
  b.writeUInt16LE(extra, at + 2);
  at += 4;
  if (row.bigSize) {
    writeBig(b, row.entry.size, at);
    writeBig(b, row.entry.size, at + 8);
    at += 16;
  }
  if (row.bigOffset) writeBig(b, row.offset, at);
  return b;
}

function endRecords(count: number, centralOffset: number, size: number, force: boolean): Buffer {
  const zip64 = endNeedsZip64(count, centralOffset, size, force);
  const end = Buffer.alloc(END_SIZE);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX_32 : size, 12);
  end.writeUInt32LE(zip64 ? MAX_32 : centralOffset, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(ZIP64_END_SIZE);
  record.writeUInt32LE(ZIP64_END, 0);
  writeBig(record, ZIP64_END_SIZE - 12, 4);
  record.writeUInt16LE(MADE_BY_UNIX, 12);
  record.writeUInt16LE(45, 14);
  writeBig(record, count, 24);
  writeBig(record, count, 32);
  writeBig(record, size, 40);
  writeBig(record, centralOffset, 48);
  const locator = Buffer.alloc(ZIP64_LOCATOR_SIZE);
  locator.writeUInt32LE(ZIP64_LOCATOR, 0);
  writeBig(locator, centralOffset + size, 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

async function* archive(entries: StoredZipEntry[], force: boolean): AsyncGenerator<Buffer> {
  const { rows, centralOffset } = layout(entries, force);
  const crcs: number[] = [];
  for (const row of rows) {
    yield localHeader(row);
    let crc = 0;
    let length = 0;
    for await (const chunk of await row.entry.open()) {
      const bytes = chunk as Buffer;
      crc = crc32(bytes, crc);
      length += bytes.length;
      yield bytes;
    }
    // The archive's length was announced up front: a file that changed length would corrupt every offset after it.
    if (length !== row.entry.size)
      throw new Error(`${row.entry.path}: read ${length} bytes where ${row.entry.size} were expected`);
    crcs.push(crc);
    yield dataDescriptor(row, crc);
  }
  const central = rows.map((row, i) => centralHeader(row, crcs[i] ?? 0));
  const size = central.reduce((sum, b) => sum + b.length, 0);
  yield Buffer.concat([...central, endRecords(rows.length, centralOffset, size, force)]);
}

/**
 * A ZIP of stored entries written as it streams: each file is read once, its CRC-32 computed on the
 * way through (zlib's native CRC, several GB/s) and given in a data descriptor after its bytes.
 */
export function storedZip(entries: StoredZipEntry[], options: StoredZipOptions = {}): Readable {
  return Readable.from(archive(entries, options.forceZip64 ?? false), { objectMode: false });
}
