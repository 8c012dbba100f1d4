import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../media/ffmpeg';
import type { EffectPlugin } from '../processor';
import {
  BuiltinEffectsStage,
  DEFAULT_EFFECT_PLUGINS,
  delaySettings,
  forcedTempo,
  reverbSettings,
} from './effects-stage';
import { wavFrames } from './filter-runner';

const run = promisify(execFile);
const RATE = 44_100;
const AT = 4410; // the impulse: 0.1 s in
const tools = locateMediaTools({});
const stage = new BuiltinEffectsStage(tools);
let dir: string;

/** Both channels of a WAV as two arrays. */
async function stereo(path: string): Promise<[Float32Array, Float32Array]> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  const all = new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length));
  const left = all.filter((_, i) => i % 2 === 0);
  const right = all.filter((_, i) => i % 2 === 1);
  return [left, right];
}

const [delay, reverb] = DEFAULT_EFFECT_PLUGINS as [EffectPlugin, EffectPlugin];

async function apply(plugins: EffectPlugin[], bpm: number, name: string, signal = new AbortController().signal) {
  const output = join(dir, `${name}.wav`);
  await stage.apply({
    input: join(dir, 'impulse.wav'),
    output,
    plugins,
    bpm,
    signal,
    scratchDir: dir,
    onProgress: () => undefined,
  });
  return output;
}

/** The largest |sample| outside the given indices. */
function loudestElsewhere(samples: Float32Array, except: number[]): number {
  let most = 0;
  samples.forEach((v, i) => {
    if (!except.includes(i)) most = Math.max(most, Math.abs(v));
  });
  return most;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'effects-stage-'));
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `aevalsrc='if(eq(n,${AT}),1,0)':s=${RATE}:d=2:c=stereo`, '-c:a', 'pcm_f32le', '-y'],
    join(dir, 'impulse.wav'),
  ]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the effects stage settings', () => {
  it("exports the spec's plugin list", () => {
    expect(DEFAULT_EFFECT_PLUGINS).toEqual([
      {
        name: 'delay',
        parameters: [
          { name: 'time', value: 0.6 },
          { name: 'feedback', value: 0.2 },
          { name: 'mix', value: 0.22 },
        ],
      },
      {
        name: 'reverb',
        parameters: [
          { name: 'predelay', value: 0.2 },
          { name: 'size', value: 0.15 },
          { name: 'mix', value: 0.26 },
        ],
      },
    ]);
  });

  it('reads delay time and predelay as beats of the tempo, the host tempo as bpm / 499', () => {
    expect(forcedTempo(120)).toBeCloseTo(0.2405, 4);
    expect(delaySettings(delay, 120)).toEqual({ seconds: 0.3, feedback: 0.2, mix: 0.22 });
    expect(delaySettings(delay, 90).seconds).toBeCloseTo(0.4, 10);
    expect(delaySettings(delay, Number.NaN).seconds).toBeCloseTo(0.3, 10); // unknown tempo: 120 bpm
    const settings = reverbSettings(reverb, 120);
    expect(settings.predelaySeconds).toBeCloseTo(0.1, 10);
    expect(settings.rt60Seconds).toBeCloseTo(0.92, 10);
    expect(settings.mix).toBe(0.26);
  });

  it('refuses a feedback that would never die away', () => {
    expect(() => delaySettings({ name: 'delay', parameters: [{ name: 'feedback', value: 1 }] }, 120)).toThrow(
      RangeError,
    );
  });
});

describe('applying the effects to an impulse', () => {
  it('the delay repeats it every 0.6 beats (300 ms at 120 bpm), each repeat 0.2 of the one before', async () => {
    const output = await apply([delay], 120, 'delay');
    expect((await wavFrames(output)).frames).toBe(2 * RATE);
    const step = 0.3 * RATE;
    for (const channel of await stereo(output)) {
      expect(channel[AT]).toBeCloseTo(0.78, 5); // dry: 1 − mix
      expect(channel[AT + step]).toBeCloseTo(0.22, 5); // first repeat: mix
      expect(channel[AT + 2 * step]).toBeCloseTo(0.044, 5);
      expect(channel[AT + 3 * step]).toBeCloseTo(0.0088, 5);
      expect(channel[AT + 4 * step]).toBeCloseTo(0.00176, 5);
      const taps = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => AT + k * step);
      expect(loudestElsewhere(channel, taps)).toBeLessThan(1e-6);
    }
  });

  it('follows the tempo: at 90 bpm the repeats are 400 ms apart', async () => {
    const [left] = await stereo(await apply([delay], 90, 'delay-90'));
    expect(left[AT + 0.4 * RATE]).toBeCloseTo(0.22, 5);
    expect(left[AT + 0.8 * RATE]).toBeCloseTo(0.044, 5);
    expect(Math.abs(left[AT + 0.3 * RATE]!)).toBeLessThan(1e-6);
  });

  it('the reverb keeps 1 − mix dry, waits the predelay, then decays over its RT60 at mix of the level', async () => {
    const output = await apply([reverb], 120, 'reverb');
    const predelay = 0.1 * RATE;
    const channels = await stereo(output);
    for (const channel of channels) {
      expect(channel[AT]).toBeCloseTo(0.74, 4);
      expect(loudestElsewhere(channel.subarray(0, AT + predelay), [AT])).toBeLessThan(1e-4);
      const tail = channel.subarray(AT + predelay);
      expect(Math.hypot(...tail.subarray(0, RATE))).toBeCloseTo(0.26, 2); // the wet part's energy: mix
      // Level of 50 ms windows 0.1 s and 0.5 s into the tail: the drop over 0.4 s gives the RT60.
      const level = (from: number) => 20 * Math.log10(Math.hypot(...tail.subarray(from * RATE, (from + 0.05) * RATE)));
      const rt60 = (60 * 0.4) / (level(0.1) - level(0.5));
      expect(rt60).toBeGreaterThan(0.92 * 0.85);
      expect(rt60).toBeLessThan(0.92 * 1.15);
    }
    // Each side has its own tail: that is the reverb's width.
    const [l, r] = channels.map((c) => c.subarray(AT + predelay, AT + predelay + RATE / 2));
    const dot = l!.reduce((sum, v, i) => sum + v * r![i]!, 0);
    expect(Math.abs(dot / (Math.hypot(...l!) * Math.hypot(...r!)))).toBeLessThan(0.2);
  });

  it('the default chain at 90 bpm: the delay first, then the reverb over it', async () => {
    const [left] = await stereo(await apply([...DEFAULT_EFFECT_PLUGINS], 90, 'chain'));
    expect(left[AT]).toBeCloseTo(0.78 * 0.74, 4);
    // The repeat at 400 ms, under the reverb's tail of the first (a few thousandths).
    expect(left[AT + 0.4 * RATE]).toBeCloseTo(0.22 * 0.74, 1);
    expect(Math.abs(left[AT + 0.4 * RATE]! - 0.22 * 0.74)).toBeLessThan(0.02);
  });

  it('a mix of 0 leaves the signal as it was', async () => {
    const dry: EffectPlugin[] = [
      { name: 'delay', parameters: [{ name: 'mix', value: 0 }] },
      { name: 'reverb', parameters: [{ name: 'mix', value: 0 }] },
    ];
    const [left] = await stereo(await apply(dry, 120, 'dry'));
    expect(left[AT]).toBeCloseTo(1, 6);
    expect(loudestElsewhere(left, [AT])).toBeLessThan(1e-6);
  });

  it('does nothing once the task is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(apply([delay], 120, 'cancelled', controller.signal)).rejects.toThrow('cancelled');
    expect(existsSync(join(dir, 'cancelled.wav'))).toBe(false);
  });
});
