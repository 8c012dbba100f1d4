// Test helpers: a known stereo signal, and a client that talks to the bridge the way the page does.
import { once } from 'node:events';
import { WebSocket } from 'ws';
import {
  decodeFramePcm,
  readFrameHeader,
  type BridgeError,
  type BridgeParameters,
  type FrameHeader,
} from './protocol.ts';

export const RATE = 48_000;
/** Where each channel's marker burst starts; the tones alone repeat every period and cannot be placed. */
export const MARKER_AT = 24_000;
export const MARKER_LENGTH = 480;

/** A deterministic noise source, so each channel's marker is different and reproducible. */
function noise(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 0x1_0000_0000 - 0.5;
  };
}

/** Left a 1 kHz tone, right a 440 Hz tone, each with its own 10 ms noise burst as a marker. */
export function testSignal(seconds: number): { left: Float32Array; right: Float32Array } {
  const length = Math.round(seconds * RATE);
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  const [leftNoise, rightNoise] = [noise(1), noise(2)];
  for (let i = 0; i < length; i++) {
    const marker = i >= MARKER_AT && i < MARKER_AT + MARKER_LENGTH;
    left[i] = marker ? 1.8 * leftNoise() : 0.3 * Math.sin((2 * Math.PI * 1000 * i) / RATE);
    right[i] = marker ? 1.8 * rightNoise() : 0.3 * Math.sin((2 * Math.PI * 440 * i) / RATE);
  }
  // Round through 16 bits here, so the WAV holds exactly these values.
  for (const channel of [left, right]) {
    for (let i = 0; i < length; i++) channel[i] = Math.round(channel[i]! * 0x7fff) / 0x8000;
  }
  return { left, right };
}

/** A 16-bit stereo WAV file of the two channels. */
export function wavFile(left: Float32Array, right: Float32Array): Buffer {
  const dataBytes = left.length * 4;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(RATE, 24);
  wav.writeUInt32LE(RATE * 4, 28);
  wav.writeUInt16LE(4, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < left.length; i++) {
    wav.writeInt16LE(Math.round(left[i]! * 0x8000), 44 + i * 4);
    wav.writeInt16LE(Math.round(right[i]! * 0x8000), 46 + i * 4);
  }
  return wav;
}

/**
 * Slides the template over the signal and returns the offset where they match best, with the
 * normalised correlation there (1 is a perfect match).
 */
export function crossCorrelate(signal: Float32Array, template: Float32Array): { offset: number; score: number } {
  let templateEnergy = 0;
  for (const v of template) templateEnergy += v * v;
  let best = { offset: -1, score: -Infinity };
  for (let offset = 0; offset + template.length <= signal.length; offset++) {
    let dot = 0;
    let energy = 0;
    for (let i = 0; i < template.length; i++) {
      const s = signal[offset + i]!;
      dot += s * template[i]!;
      energy += s * s;
    }
    const score = energy > 0 ? dot / Math.sqrt(energy * templateEnergy) : 0;
    if (score > best.score) best = { offset, score };
  }
  return best;
}

export function correlationAt(signal: Float32Array, template: Float32Array, offset: number): number {
  let [dot, a, b] = [0, 0, 0];
  for (let i = 0; i < template.length; i++) {
    const s = signal[offset + i] ?? 0;
    dot += s * template[i]!;
    a += s * s;
    b += template[i]! * template[i]!;
  }
  return a > 0 && b > 0 ? dot / Math.sqrt(a * b) : 0;
}

/** Opens a socket as a page from `origin` would; rejects with the HTTP status when refused. */
export async function connect(port: number, origin?: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { headers: { ...headers, ...(origin ? { origin } : {}) } });
  return new Promise<WebSocket>((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      reject(new Error(`refused with ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** Sends the sample rate on a message socket and reads the reply. */
export async function askParameters(ws: WebSocket, message: string): Promise<BridgeParameters | BridgeError> {
  const reply = once(ws, 'message') as Promise<[Buffer]>;
  ws.send(message);
  const [data] = await reply;
  return JSON.parse(data.toString('utf8')) as BridgeParameters | BridgeError;
}

export interface Received {
  header: FrameHeader;
  bytes: number;
  channels: Float32Array[];
  at: number;
}

/** An audio socket that keeps every frame with its arrival time. */
export async function listen(port: number, origin: string) {
  const frames: Received[] = [];
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { headers: { origin } });
  // Listening before the socket opens: the first frame may come right behind the handshake.
  ws.on('message', (data: Buffer) => {
    frames.push({ header: readFrameHeader(data), bytes: data.length, channels: decodeFramePcm(data), at: Date.now() });
  });
  await once(ws, 'open');
  return { ws, frames, openedAt: Date.now() };
}

export function joinChannel(frames: Received[], channel: number): Float32Array {
  const out = new Float32Array(frames.reduce((n, f) => n + f.header.samples, 0));
  let at = 0;
  for (const frame of frames) {
    out.set(frame.channels[channel]!, at);
    at += frame.header.samples;
  }
  return out;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
