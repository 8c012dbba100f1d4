import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { captureArgs } from './ffmpeg.ts';
import { DEFAULT_ORIGINS, hostAllowed, originAllowed, validateOriginPattern } from './origin.ts';
import { decodeFramePcm, frameBytes, parseSampleRateMessage, readFrameHeader, writeFrameHeader } from './protocol.ts';

describe('frames', () => {
  it('lay out the header little-endian: sequence, samples, channels, format, then PCM', () => {
    const frame = Buffer.alloc(frameBytes(2, 's16le'));
    frame.writeInt16LE(0x4000, 8);
    frame.writeInt16LE(-0x8000, 10);
    writeFrameHeader(frame, 0x01020304, 2, 's16le');
    expect([...frame.subarray(0, 8)]).toEqual([4, 3, 2, 1, 2, 0, 2, 2]);
    expect(readFrameHeader(frame)).toEqual({ sequence: 0x01020304, samples: 2, channels: 2, format: 's16le' });
    const [left, right] = decodeFramePcm(frame);
    expect([left![0], right![0], left![1]]).toEqual([0.5, -1, 0]);
  });

  it('decode 24-bit samples with their sign', () => {
    const frame = Buffer.alloc(frameBytes(1, 's24le'));
    frame.writeIntLE(-0x400000, 8, 3);
    frame.writeIntLE(0x200000, 11, 3);
    writeFrameHeader(frame, 0, 1, 's24le');
    expect(decodeFramePcm(frame).map((c) => c[0])).toEqual([-0.5, 0.25]);
  });

  it('read the sample rate as a number or as JSON, and refuse anything else', () => {
    expect(parseSampleRateMessage('44100')).toBe(44_100);
    expect(parseSampleRateMessage('{"sampleRate":96000}')).toBe(96_000);
    for (const bad of ['', 'fast', '{"rate":1}', '{', '48000.5', '1000', '400000']) {
      expect(typeof parseSampleRateMessage(bad)).toBe('string');
    }
  });
});

describe('origins', () => {
  it('admit any https page and local development pages by default', () => {
    for (const ok of [
      'https://mixroom.example',
      'http://localhost:5173',
      'http://localhost',
      'http://127.0.0.1:8080',
      undefined,
    ]) {
      expect(originAllowed(ok, DEFAULT_ORIGINS)).toBe(true);
    }
    for (const bad of [
      'http://evil.example',
      'null',
      'file://',
      'http://localhost.evil.example',
      'chrome-extension://x',
    ]) {
      expect(originAllowed(bad, DEFAULT_ORIGINS)).toBe(false);
    }
  });

  it('admit only the configured ones when set', () => {
    const allowed = ['https://mixroom.example', 'http://studio.lan:*'].map(validateOriginPattern);
    expect(originAllowed('https://mixroom.example', allowed)).toBe(true);
    expect(originAllowed('http://studio.lan:8080', allowed)).toBe(true);
    expect(originAllowed('https://other.example', allowed)).toBe(false);
    expect(originAllowed('https://mixroom.example.evil', allowed)).toBe(false);
    expect(() => validateOriginPattern('mixroom.example')).toThrow('--origin');
    expect(() => validateOriginPattern('https://mixroom.example/')).toThrow('--origin');
  });

  it('accept only requests addressed to this machine', () => {
    expect(['localhost:7777', '127.0.0.1:7778', '[::1]:7775'].every(hostAllowed)).toBe(true);
    expect(['evil.example:7777', '', undefined].some(hostAllowed)).toBe(false);
  });
});

describe('command line', () => {
  it('reads the sources and options', () => {
    expect(parseCommand([])).toMatchObject({ kind: 'run', options: { source: { kind: 'system' } } });
    const file = parseCommand(['--source', 'file', '/tmp/a.wav', '--loop', '--ports', '1,2,3,4', '--grace', '2']);
    expect(file).toMatchObject({
      kind: 'run',
      options: {
        source: { kind: 'file', path: '/tmp/a.wav', loop: true },
        ports: { pluginControl: 1, pluginAudio: 2, systemControl: 3, systemAudio: 4 },
        graceMs: 2000,
      },
    });
    expect(parseCommand(['--list-devices'])).toEqual({ kind: 'list-devices' });
    for (const bad of [
      ['--source', 'input'],
      ['--source', 'file'],
      ['--format', 'mp3'],
      ['--ports', '1,1,2,3'],
      ['--loop'],
    ]) {
      expect(() => parseCommand(bad)).toThrow();
    }
  });

  it('builds the ffmpeg command for each platform', () => {
    const out = [
      '-vn',
      '-ac',
      '2',
      '-ar',
      '48000',
      '-c:a',
      'pcm_f32le',
      '-f',
      'f32le',
      '-flush_packets',
      '1',
      'pipe:1',
    ];
    const head = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
    const live = ['-fflags', 'nobuffer'];
    expect(captureArgs({ kind: 'system' }, 48_000, 'f32le', 'linux')).toEqual([
      ...head,
      ...live,
      '-f',
      'pulse',
      '-fragment_size',
      '1920',
      '-i',
      '@DEFAULT_MONITOR@',
      ...out,
    ]);
    expect(captureArgs({ kind: 'system' }, 48_000, 'f32le', 'darwin')).toContain(':BlackHole 2ch');
    expect(captureArgs({ kind: 'input', device: 'Scarlett' }, 48_000, 'f32le', 'win32')).toContain('audio=Scarlett');
    expect(() => captureArgs({ kind: 'system' }, 48_000, 'f32le', 'win32')).toThrow('--device');
    expect(captureArgs({ kind: 'file', path: 'a.wav', loop: true }, 48_000, 'f32le')).toEqual([
      ...head,
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      'a.wav',
      ...out,
    ]);
  });
});
