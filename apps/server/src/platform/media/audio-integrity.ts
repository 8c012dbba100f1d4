/**
 * What a file's own header says about its length, read from its first bytes, so a file cut off in
 * transit (the header written first, the tail never arrived) can be told from a short recording.
 */
export interface DeclaredLength {
  /** Seconds of audio the header announces. */
  declaredSeconds: number;
  /**
   * Seconds the bytes present can hold, for formats whose size maps straight to time (PCM in WAV
   * and AIFF); null where only a decode can tell (FLAC, MP3).
   */
  presentSeconds: number | null;
}

/** How many bytes of the file's start the header readers below want to see. */
export const HEADER_BYTES = 65_536;

/** Bytes of an ID3v2 tag at the start (with its header), or 0: MP3 and some FLAC files start with one. */
export function id3v2Length(head: Buffer): number {
  if (head.length < 10 || head.toString('latin1', 0, 3) !== 'ID3') return 0;
  // Four 7-bit "syncsafe" bytes, then a footer of 10 more when flag 0x10 is set.
  const size = ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
  return 10 + size + (head[5]! & 0x10 ? 10 : 0);
}

/**
 * The declared length of a WAV (RIFF or RF64), AIFF/AIFC, FLAC or MP3 (Xing/Info or VBRI header)
 * from `head` (the file's first bytes, or the bytes after an ID3v2 tag for MP3 and FLAC); null when
 * the header declares nothing usable (streamed WAVs with a zero or maximal size, CBR MP3 without a
 * Xing frame, other formats).
 */
export function readDeclaredLength(head: Buffer, fileSize: number): DeclaredLength | null {
  const magic = head.toString('latin1', 0, 4);
  if ((magic === 'RIFF' || magic === 'RF64') && head.toString('latin1', 8, 12) === 'WAVE')
    return wavLength(head, fileSize);
  if (magic === 'FORM' && ['AIFF', 'AIFC'].includes(head.toString('latin1', 8, 12))) return aiffLength(head, fileSize);
  if (magic === 'fLaC') return flacLength(head);
  return mp3Length(head);
}

function wavLength(head: Buffer, fileSize: number): DeclaredLength | null {
  let offset = 12;
  let byteRate = 0;
  let rf64DataSize: number | null = null;
  while (offset + 8 <= head.length) {
    const id = head.toString('latin1', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'ds64' && body + 16 <= head.length) rf64DataSize = Number(head.readBigUInt64LE(body + 8));
    if (id === 'fmt ' && body + 12 <= head.length) byteRate = head.readUInt32LE(body + 8);
    if (id === 'data') {
      const declared = size === 0xffffffff && rf64DataSize !== null ? rf64DataSize : size;
      // Recorders that stream write 0 or the maximum until they finish: no promise to check.
      if (byteRate <= 0 || declared === 0 || declared === 0xffffffff) return null;
      return {
        declaredSeconds: declared / byteRate,
        presentSeconds: Math.max(0, Math.min(declared, fileSize - body)) / byteRate,
      };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** An 80-bit IEEE 754 extended float, as AIFF stores its sample rate. */
function extended(buffer: Buffer, at: number): number {
  const exponent = buffer.readUInt16BE(at) & 0x7fff;
  const mantissa = buffer.readUInt32BE(at + 2) * 2 ** 32 + buffer.readUInt32BE(at + 6);
  return mantissa * 2 ** (exponent - 16383 - 63);
}

function aiffLength(head: Buffer, fileSize: number): DeclaredLength | null {
  let offset = 12;
  let frames = 0;
  let rate = 0;
  let frameBytes = 0;
  let pcm = true;
  while (offset + 8 <= head.length) {
    const id = head.toString('latin1', offset, offset + 4);
    const size = head.readUInt32BE(offset + 4);
    const body = offset + 8;
    if (id === 'COMM' && body + 18 <= head.length) {
      const channels = head.readUInt16BE(body);
      frames = head.readUInt32BE(body + 2);
      frameBytes = channels * Math.ceil(head.readUInt16BE(body + 6) / 8);
      rate = extended(head, body + 8);
      // AIFC names its compression; only uncompressed samples map bytes to time.
      if (head.toString('latin1', 8, 12) === 'AIFC' && body + 22 <= head.length)
        pcm = ['NONE', 'twos', 'sowt'].includes(head.toString('latin1', body + 18, body + 22));
    }
    if (id === 'SSND' && body + 8 <= head.length) {
      if (!(rate > 0) || frames === 0) return null;
      const declaredSeconds = frames / rate;
      // The chunk starts with an offset and a block size before its samples.
      const dataStart = body + 8 + head.readUInt32BE(body);
      const declaredBytes = size - 8 - head.readUInt32BE(body);
      const presentBytes = Math.max(0, Math.min(declaredBytes, fileSize - dataStart));
      return {
        declaredSeconds,
        presentSeconds: pcm && frameBytes > 0 ? Math.min(declaredSeconds, presentBytes / frameBytes / rate) : null,
      };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

function flacLength(head: Buffer): DeclaredLength | null {
  // STREAMINFO is always the first metadata block: 4 bytes of block header after the marker.
  if (head.length < 26 || (head[4]! & 0x7f) !== 0) return null;
  const packed = head.readBigUInt64BE(18);
  const rate = Number(packed >> 44n);
  const samples = Number(packed & 0xfffffffffn);
  if (rate === 0 || samples === 0) return null;
  return { declaredSeconds: samples / rate, presentSeconds: null };
}

const MPEG1_RATES = [44100, 48000, 32000];

function mp3Length(head: Buffer): DeclaredLength | null {
  // The first frame header: 11 sync bits, then version, layer 3.
  const start = head.findIndex((byte, i) => byte === 0xff && i + 4 <= head.length && (head[i + 1]! & 0xe6) === 0xe2);
  if (start < 0 || start + 4 > head.length) return null;
  const versionBits = (head[start + 1]! >> 3) & 0x3;
  const rateIndex = (head[start + 2]! >> 2) & 0x3;
  if (versionBits === 1 || rateIndex === 3) return null;
  const mpeg1 = versionBits === 3;
  const rate = MPEG1_RATES[rateIndex]! / (mpeg1 ? 1 : versionBits === 2 ? 2 : 4);
  const mono = head[start + 3]! >> 6 === 3;
  const samplesPerFrame = mpeg1 ? 1152 : 576;
  const sideInfo = mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const xing = start + 4 + sideInfo;
  let frames: number | null = null;
  if (xing + 12 <= head.length && ['Xing', 'Info'].includes(head.toString('latin1', xing, xing + 4))) {
    if (head.readUInt32BE(xing + 4) & 0x1) frames = head.readUInt32BE(xing + 8);
  }
  const vbri = start + 36;
  if (frames === null && vbri + 18 <= head.length && head.toString('latin1', vbri, vbri + 4) === 'VBRI')
    frames = head.readUInt32BE(vbri + 14);
  if (!frames) return null;
  return { declaredSeconds: (frames * samplesPerFrame) / rate, presentSeconds: null };
}

/** A length as people read it on a player: m:ss, or h:mm:ss from an hour (to the nearest second). */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
