import { describe, expect, it } from 'vitest';
import { formatClock, id3v2Length, readDeclaredLength } from './audio-integrity';

/** A PCM WAV header announcing `dataBytes` of 48 kHz stereo 16-bit samples. */
function wavHeader(dataBytes: number): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(2, 22);
  head.writeUInt32LE(48000, 24);
  head.writeUInt32LE(48000 * 4, 28);
  head.writeUInt16LE(4, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(dataBytes, 40);
  return head;
}

/** An AIFF header of `frames` mono 16-bit frames at 44.1 kHz, the SSND chunk sized for all of them. */
function aiffHeader(frames: number): Buffer {
  const head = Buffer.alloc(54);
  head.write('FORM', 0, 'latin1');
  head.writeUInt32BE(46 + frames * 2, 4);
  head.write('AIFFCOMM', 8, 'latin1');
  head.writeUInt32BE(18, 16);
  head.writeUInt16BE(1, 20);
  head.writeUInt32BE(frames, 22);
  head.writeUInt16BE(16, 26);
  // 44100 as an 80-bit extended float.
  Buffer.from([0x40, 0x0e, 0xac, 0x44, 0, 0, 0, 0, 0, 0]).copy(head, 28);
  head.write('SSND', 38, 'latin1');
  head.writeUInt32BE(8 + frames * 2, 42);
  return head;
}

/** A FLAC stream's marker and STREAMINFO block declaring `samples` at `rate`. */
function flacHeader(samples: number, rate: number): Buffer {
  const head = Buffer.alloc(42);
  head.write('fLaC', 0, 'latin1');
  head.writeUInt32BE(0x80000022, 4);
  const packed = (BigInt(rate) << 44n) | (1n << 41n) | (15n << 36n) | BigInt(samples);
  head.writeBigUInt64BE(packed, 18);
  return head;
}

describe('readDeclaredLength', () => {
  it('compares a WAV data chunk with the bytes present', () => {
    const declared = 10 * 48000 * 4;
    expect(readDeclaredLength(wavHeader(declared), 44 + declared)).toEqual({ declaredSeconds: 10, presentSeconds: 10 });
    expect(readDeclaredLength(wavHeader(declared), 44 + 48000 * 4)).toEqual({ declaredSeconds: 10, presentSeconds: 1 });
  });

  it('makes no promise for a WAV streamed with an unknown size', () => {
    expect(readDeclaredLength(wavHeader(0), 1000)).toBeNull();
    expect(readDeclaredLength(wavHeader(0xffffffff), 1000)).toBeNull();
  });

  it('reads AIFF frames and the SSND bytes present', () => {
    const whole = readDeclaredLength(aiffHeader(441000), 54 + 441000 * 2);
    expect(whole?.declaredSeconds).toBeCloseTo(10, 6);
    expect(whole?.presentSeconds).toBeCloseTo(10, 6);
    expect(readDeclaredLength(aiffHeader(441000), 54 + 44100 * 2)?.presentSeconds).toBeCloseTo(1, 6);
  });

  it('reads the total samples of FLAC STREAMINFO', () => {
    expect(readDeclaredLength(flacHeader(96000 * 200, 96000), 100)).toEqual({
      declaredSeconds: 200,
      presentSeconds: null,
    });
    expect(readDeclaredLength(flacHeader(0, 44100), 100)).toBeNull();
  });

  it('reads the frame count of an MP3 Xing header', () => {
    // MPEG-1 layer 3, 128 kbit/s, 44.1 kHz, stereo; the Xing tag after 32 bytes of side info.
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    frame.write('Xing', 36, 'latin1');
    frame.writeUInt32BE(0x1, 40);
    frame.writeUInt32BE(1000, 44);
    expect(readDeclaredLength(frame, 417)?.declaredSeconds).toBeCloseTo((1000 * 1152) / 44100, 6);
  });

  it('declares nothing for unknown bytes', () => {
    expect(readDeclaredLength(Buffer.from('just some text, no header at all'), 32)).toBeNull();
  });
});

describe('id3v2Length', () => {
  it('reads the syncsafe size of an ID3v2 tag', () => {
    const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0x02, 0x01]);
    expect(id3v2Length(tag)).toBe(10 + 257);
    expect(id3v2Length(Buffer.from('RIFF....WAVE'))).toBe(0);
  });
});

describe('formatClock', () => {
  it('writes lengths as a player shows them', () => {
    expect(formatClock(6.4)).toBe('0:06');
    expect(formatClock(1.9997)).toBe('0:02');
    expect(formatClock(200)).toBe('3:20');
    expect(formatClock(3723)).toBe('1:02:03');
  });
});
