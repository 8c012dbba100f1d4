import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { startBridge, type Bridge, type BridgeOptions } from './bridge.ts';
import { locateFfmpeg } from './ffmpeg.ts';
import { BRIDGE_VERSION, type BridgeParameters } from './protocol.ts';
import {
  alive,
  askParameters,
  connect,
  correlationAt,
  crossCorrelate,
  joinChannel,
  listen,
  MARKER_AT,
  MARKER_LENGTH,
  RATE,
  testSignal,
  wavFile,
} from './test-support.ts';

const ffmpeg = locateFfmpeg();
if (!ffmpeg) throw new Error('these tests need ffmpeg (apt-get install ffmpeg, or FFMPEG_PATH)');

const SECONDS = 1.5;
const PAGE = 'https://mixroom.example';
/** Every port 0: the system picks free ones, so the tests never meet a real bridge on 7775–7778. */
const FREE_PORTS = { pluginControl: 0, pluginAudio: 0, systemControl: 0, systemAudio: 0 };
// Generous: each wait ends as soon as its condition holds; the limit only matters on a stalled box.
const WAIT = { timeout: 20_000, interval: 10 };

let dir: string;
let wavPath: string;
const signal = testSignal(SECONDS);
const sockets: WebSocket[] = [];
const bridges: Bridge[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mixroom-bridge-'));
  wavPath = join(dir, 'tone.wav');
  writeFileSync(wavPath, wavFile(signal.left, signal.right));
});

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(bridges.splice(0).map((bridge) => bridge.close()));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bridge(options: Partial<BridgeOptions> = {}): Promise<{ bridge: Bridge; log: string[] }> {
  const log: string[] = [];
  const started = await startBridge({
    ffmpeg: ffmpeg!,
    source: { kind: 'file', path: wavPath, loop: false },
    ports: FREE_PORTS,
    graceMs: 100,
    restartDelayMs: 100,
    log: (line) => log.push(line),
    ...options,
  });
  bridges.push(started);
  return { bridge: started, log };
}

async function page(port: number, origin = PAGE) {
  const audio = await listen(port, origin);
  sockets.push(audio.ws);
  return audio;
}

describe('bridge', () => {
  it('streams a file as the page asked: whole, in order, in real time, channels apart', async () => {
    const { bridge: b } = await bridge();
    const control = await connect(b.ports.pluginControl, PAGE);
    sockets.push(control);
    const parameters = await askParameters(control, '48000');
    expect(parameters).toEqual<BridgeParameters>({
      type: 'parameters',
      sampleRate: RATE,
      channels: 2,
      frameSamples: 480,
      format: 'f32le',
      source: 'file tone.wav',
      version: BRIDGE_VERSION,
    });

    const audio = await page(b.ports.pluginAudio);
    const total = signal.left.length;
    await vi.waitFor(
      () => expect(audio.frames.reduce((n, f) => n + f.header.samples, 0)).toBeGreaterThanOrEqual(total),
      WAIT,
    );
    const { frames } = audio;

    // Sequence numbers continuous; every frame is a full 10 ms: 8 header bytes + 480 × 2 × 4.
    expect(frames.map((f) => f.header.sequence)).toEqual(frames.map((_, i) => frames[0]!.header.sequence + i));
    for (const f of frames)
      expect([f.header.samples, f.header.channels, f.header.format, f.bytes]).toEqual([480, 2, 'f32le', 3848]);

    // The known signal is in the stream: find each channel's marker by cross-correlation...
    const left = joinChannel(frames, 0);
    const right = joinChannel(frames, 1);
    const span = [MARKER_AT - 240, MARKER_AT + MARKER_LENGTH + 240] as const;
    const leftMarker = crossCorrelate(left, signal.left.subarray(...span));
    const rightMarker = crossCorrelate(right, signal.right.subarray(...span));
    expect(leftMarker.score).toBeGreaterThan(0.999);
    expect(rightMarker.score).toBeGreaterThan(0.999);
    expect(leftMarker.offset).toBe(rightMarker.offset);
    // ...not the other channel's (so they are not swapped or mixed)...
    expect(Math.abs(correlationAt(left, signal.right.subarray(...span), leftMarker.offset))).toBeLessThan(0.3);
    expect(Math.abs(correlationAt(right, signal.left.subarray(...span), rightMarker.offset))).toBeLessThan(0.3);
    // ...and then the whole file sample for sample, the tones included.
    const start = leftMarker.offset - span[0];
    expect(start).toBeGreaterThanOrEqual(0);
    expect(correlationAt(left, signal.left, start)).toBeGreaterThan(0.9999);
    expect(correlationAt(right, signal.right, start)).toBeGreaterThan(0.9999);
    expect(Math.abs(correlationAt(left, signal.right, start))).toBeLessThan(0.1);

    // Paced by the audio clock: a busy machine can only make it slower, so only "far faster than
    // real time" is a failure (a burst would deliver 1.5 s of audio in a few milliseconds).
    const elapsed = frames.at(-1)!.at - audio.openedAt;
    expect(elapsed).toBeGreaterThan((SECONDS * 1000) / 4);
  }, 30_000);

  it('serves the system-wide pair too, in the format chosen, and restarts ffmpeg when it dies', async () => {
    const { bridge: b, log } = await bridge({ source: { kind: 'file', path: wavPath, loop: true }, format: 's16le' });
    const control = await connect(b.ports.systemControl, 'http://localhost:5173');
    sockets.push(control);
    expect(await askParameters(control, '{"sampleRate":48000}')).toMatchObject({
      format: 's16le',
      source: 'file tone.wav (looped)',
    });
    const audio = await page(b.ports.systemAudio, 'http://localhost:5173');
    await vi.waitFor(() => expect(audio.frames.length).toBeGreaterThan(5), WAIT);
    expect(audio.frames[0]!.bytes).toBe(8 + 480 * 2 * 2);

    const first = b.capturePid()!;
    process.kill(first, 'SIGKILL');
    await vi.waitFor(() => expect([undefined, first]).not.toContain(b.capturePid()), WAIT);
    const before = audio.frames.length;
    await vi.waitFor(() => expect(audio.frames.length).toBeGreaterThan(before + 5), WAIT);
    // The outage (at least the 100 ms restart delay) shows as a jump in the sequence numbers.
    const jumps = audio.frames.slice(1).filter((f, i) => f.header.sequence !== audio.frames[i]!.header.sequence + 1);
    expect(jumps.length).toBeGreaterThanOrEqual(1);
    expect(log.some((line) => line.includes('restarting'))).toBe(true);
    expect(alive(first)).toBe(false);
  }, 30_000);

  it('follows a new sample rate, stops ffmpeg after the grace period and when closed', async () => {
    const { bridge: b } = await bridge({ source: { kind: 'file', path: wavPath, loop: true } });
    const control = await connect(b.ports.pluginControl, PAGE);
    sockets.push(control);
    expect(await askParameters(control, 'lots')).toMatchObject({ type: 'error' });
    const audio = await page(b.ports.pluginAudio);
    await vi.waitFor(() => expect(audio.frames.length).toBeGreaterThan(3), WAIT);
    const atOldRate = b.capturePid()!;

    expect(await askParameters(control, '44100')).toMatchObject({ type: 'parameters', sampleRate: 44_100 });
    await vi.waitFor(() => expect(b.capturePid()).not.toBe(atOldRate), WAIT);
    const before = audio.frames.length;
    // The new ffmpeg's frames start again at sequence 0.
    await vi.waitFor(() => expect(audio.frames.slice(before).some((f) => f.header.sequence === 0)).toBe(true), WAIT);
    expect(alive(atOldRate)).toBe(false);

    // The page leaves: ffmpeg goes after the grace period; it comes back with the next page.
    const running = b.capturePid()!;
    audio.ws.close();
    await vi.waitFor(() => expect(b.capturePid()).toBeUndefined(), WAIT);
    await vi.waitFor(() => expect(alive(running)).toBe(false), WAIT);
    const again = await page(b.ports.pluginAudio);
    await vi.waitFor(() => expect(again.frames.length).toBeGreaterThan(0), WAIT);

    const last = b.capturePid()!;
    expect(alive(last)).toBe(true);
    await b.close();
    expect(alive(last)).toBe(false);
  }, 30_000);

  it('refuses pages from origins not allowed, and requests not addressed to localhost', async () => {
    const { bridge: b } = await bridge();
    const { pluginControl, pluginAudio, systemAudio } = b.ports;
    await expect(connect(pluginAudio, 'http://evil.example')).rejects.toThrow('403');
    await expect(connect(pluginControl, 'null')).rejects.toThrow('403');
    await expect(connect(systemAudio, PAGE, { host: `evil.example:${systemAudio}` })).rejects.toThrow('403');
    sockets.push(await connect(pluginControl, 'http://localhost:3000'));
    expect(b.capturePid()).toBeUndefined();

    const { bridge: strict } = await bridge({ origins: ['https://mixroom.example'] });
    await expect(connect(strict.ports.pluginAudio, 'https://evil.example')).rejects.toThrow('403');
    await expect(connect(strict.ports.pluginAudio, 'http://localhost:5173')).rejects.toThrow('403');
    sockets.push(await connect(strict.ports.pluginControl, PAGE));
  }, 30_000);
});
