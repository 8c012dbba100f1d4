import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LoudnessMeter } from './loudness-meter';
import { readWavLayout } from './wav-peaks';

const dir = mkdtempSync(join(tmpdir(), 'mixroom-loudness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Tones fade in and out: a tone that starts on a step rings in any interpolator, each its own way. */
const faded = (seconds: number) => `afade=t=in:d=0.2,afade=t=out:st=${seconds - 0.2}:d=0.2`;

/** Every file of the corpus: a lavfi source, the sample format, and what it exercises. */
const CORPUS: { name: string; source: string; codec: string; channels: 1 | 2 }[] = [
  {
    name: 'tone 997 Hz at −20 dBFS, stereo 48 kHz 24-bit',
    source: `aevalsrc='0.1*sin(2*PI*997*t)|0.1*sin(2*PI*997*t)':s=48000:d=8,${faded(8)}`,
    codec: 'pcm_s24le',
    channels: 2,
  },
  {
    name: 'tone 1 kHz at −6 dBFS, mono 44.1 kHz 16-bit',
    source: `aevalsrc='0.5*sin(2*PI*1000*t)':s=44100:d=6,${faded(6)}`,
    codec: 'pcm_s16le',
    channels: 1,
  },
  {
    name: 'tone 100 Hz (below the shelf) and 8 kHz (above it), stereo 96 kHz 24-bit',
    source: `aevalsrc='0.3*sin(2*PI*100*t)|0.3*sin(2*PI*8000*t)':s=96000:d=5,${faded(5)}`,
    codec: 'pcm_s24le',
    channels: 2,
  },
  {
    name: 'pink noise, stereo 44.1 kHz 16-bit',
    source: 'anoisesrc=c=pink:r=44100:a=0.3:d=12:s=7',
    codec: 'pcm_s16le',
    channels: 2,
  },
  {
    // ffmpeg's ebur128 (5.1) measures at 48 kHz, resampling first: above 24 kHz it hears nothing.
    name: 'white noise up to 20 kHz, stereo 96 kHz 32-bit float',
    source: 'anoisesrc=c=white:r=96000:a=0.25:d=6:s=3,lowpass=f=20000:p=2,lowpass=f=20000:p=2',
    codec: 'pcm_f32le',
    channels: 2,
  },
  {
    name: 'inter-sample peaks over full scale: a quarter-rate sine at 45°, samples at −0.7 dBFS, crest +2.3 dBTP, 44.1 kHz',
    source: `aevalsrc='1.3*sin(2*PI*11025*t+PI/4)|1.3*sin(2*PI*11025*t+PI/4)':s=44100:d=5,${faded(5)}`,
    codec: 'pcm_s16le',
    channels: 2,
  },
  {
    name: 'inter-sample peaks: a sine clipped at full scale (overshoot between the flat-topped samples), 48 kHz',
    source: `aevalsrc='max(-1,min(1,2*sin(2*PI*2999*t)))|max(-1,min(1,1.5*sin(2*PI*1499*t)))':s=48000:d=5,${faded(5)}`,
    codec: 'pcm_s24le',
    channels: 2,
  },
  {
    name: 'gating: 6 s of noise, 6 s of the same 20 dB lower (gated out), 3 s of silence, 48 kHz',
    source: "anoisesrc=c=pink:r=48000:a=0.3:d=15:s=11,volume='if(lt(t,6),1,if(lt(t,12),0.1,0))':eval=frame",
    codec: 'pcm_s24le',
    channels: 2,
  },
  {
    name: 'left and right differ: a tone on the left, noise on the right, 48 kHz float',
    source: `aevalsrc='0.4*sin(2*PI*440*t)|0.2*(random(0)*2-1)':s=48000:d=7,${faded(7)}`,
    codec: 'pcm_f32le',
    channels: 2,
  },
  { name: 'digital silence, 48 kHz', source: 'anullsrc=r=48000:cl=stereo:d=3', codec: 'pcm_s16le', channels: 2 },
];

interface Reference {
  integrated: number | null;
  truePeak: number | null;
}

/**
 * Debian's ffmpeg `ebur128=peak=true` on the file. Its summary prints one decimal; the frame
 * metadata carries three (loudness in LUFS, true peak linear), so the comparison is not blurred by
 * rounding. The last frame's values are the whole file's.
 */
function ffmpegReference(path: string): Reference {
  const metadata = join(dir, 'metadata.txt');
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-i',
      path,
      '-af',
      `ebur128=peak=true:metadata=1,ametadata=mode=print:file=${metadata}`,
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  expect(run.status).toBe(0);
  const text = readFileSync(metadata, 'utf8');
  const last = (key: string) => {
    const values = [...text.matchAll(new RegExp(`^lavfi\\.r128\\.${key}=(.+)$`, 'gm'))];
    return Number(values.at(-1)?.[1]);
  };
  const summaryPeak = Number(
    /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(run.stderr.slice(run.stderr.lastIndexOf('Summary:')))?.[1],
  );
  const linearPeak = last('true_peak');
  const integrated = last('I');
  return {
    integrated: integrated > -70 ? integrated : null,
    // Three decimals of a linear peak are finer than the summary's tenth of a dB from 0.1 (−20 dBFS) up.
    truePeak: linearPeak >= 0.1 ? 20 * Math.log10(linearPeak) : Number.isFinite(summaryPeak) ? summaryPeak : null,
  };
}

/** The meter fed a WAV's sample bytes in awkward pieces, so frames straddle the chunk boundaries. */
function measure(path: string) {
  const bytes = readFileSync(path);
  const layout = readWavLayout(bytes.subarray(0, 65536), statSync(path).size)!;
  const meter = new LoudnessMeter(layout);
  const data = bytes.subarray(layout.dataStart, layout.dataStart + layout.dataLength);
  for (let at = 0; at < data.length; at += 70001) meter.push(data.subarray(at, at + 70001));
  return meter.finish();
}

describe('LoudnessMeter against ffmpeg ebur128', () => {
  it.each(CORPUS)('$name: integrated within 0.1 LU, true peak within 0.1 dB', ({ source, codec, channels, name }) => {
    const path = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}.wav`);
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      source,
      '-ac',
      String(channels),
      '-c:a',
      codec,
      path,
    ]);
    const reference = ffmpegReference(path);
    const ours = measure(path);
    if (reference.integrated === null) expect(ours.integrated).toBeNull();
    else expect(Math.abs(ours.integrated! - reference.integrated)).toBeLessThanOrEqual(0.1);
    if (reference.truePeak === null) expect(ours.truePeak).toBeNull();
    else expect(Math.abs(ours.truePeak! - reference.truePeak)).toBeLessThanOrEqual(0.1);
    console.log(name, JSON.stringify({ ours, reference }));
  });
});
