/**
 * Stem separation quality and cost of the built-in separator (signal processing, no model).
 *
 * Quality: two 30-second songs are synthesised here from stems the bench knows, panned as real
 * mixes are — lead vocal centred with a stereo reverb, kick and snare near the centre with hats
 * off to one side and stereo overheads, bass centred, a plucked guitar and keys on opposite sides.
 * Song A's voice is espeak-ng speaking lyrics, song B's a sung melody synthesised with vibrato and
 * vowel formants. Each estimate's SDR (classic BSS Eval with a 512-tap distortion filter, median
 * over 1 s frames; see quality/sdr.ts) is printed beside two references computed in the same run:
 * the mixture itself as the estimate (the floor: doing nothing) and the ideal ratio mask (the
 * ceiling of any mask-based separator: masks from the true stems' powers, 4096-point STFT).
 *
 * Cost: real-time factor of a 3-minute file and the peak resident memory of a 30-minute one (the
 * 30-second song A repeated), each separated (all stems) in a child process so its memory
 * high-water mark is the separator's alone.
 *
 * Run alone: `node --import tsx bench/separation.bench.ts` (BENCH_SEPARATION_QUICK=1 skips the
 * 30-minute file).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stft } from '../apps/server/src/platform/processors/audio/stft';
import { WavFloatReader, WavFloatWriter } from '../apps/server/src/platform/processors/audio/wav-float-file';
import { BuiltinSeparator } from '../apps/server/src/platform/processors/builtin/builtin-separator';
import type { StemName } from '../apps/server/src/platform/processors/processor';
import { signalToDistortion } from '../apps/server/src/platform/processors/quality/sdr';
import {
  BENCHMARK_SONG_SECONDS,
  BENCHMARK_SONGS,
  mixtureOf,
  renderSong,
  type Song,
  type Stereo,
} from '../apps/server/src/platform/processors/quality/benchmark-song';

const STEMS: StemName[] = ['vocals', 'drums', 'bass', 'other', 'no_vocals'];
const SONGS: readonly Song[] = BENCHMARK_SONGS;
const SONG_SECONDS = BENCHMARK_SONG_SECONDS;

async function writeWav(path: string, channels: Stereo, repeat = 1): Promise<void> {
  const writer = await WavFloatWriter.create(path, { sampleRate: 44_100, channels: 2 });
  for (let i = 0; i < repeat; i++) await writer.write(channels);
  await writer.close();
}

async function readWav(path: string): Promise<Stereo> {
  const reader = await WavFloatReader.open(path);
  const [left, right] = await reader.read(0, reader.frames);
  await reader.close();
  return [left!, right!];
}

/** Ideal ratio masks from the true stems (power ratios), applied to the mixture. */
function idealRatioMask(stems: Record<StemName, Stereo>, mixture: Stereo): Record<StemName, Stereo> {
  const stft = new Stft({ size: 4096, hop: 1024 });
  const { bins } = stft;
  const length = mixture[0].length;
  const sources: StemName[] = ['vocals', 'drums', 'bass', 'other', 'no_vocals'];
  const out = Object.fromEntries(
    sources.map((stem) => [stem, [new Float32Array(length), new Float32Array(length)]]),
  ) as Record<StemName, Stereo>;
  const spectra = Object.fromEntries(
    sources.map((stem) => [stem, { re: new Float32Array(bins), im: new Float32Array(bins) }]),
  );
  const mix = { re: new Float32Array(bins), im: new Float32Array(bins) };
  const masked = { re: new Float32Array(bins), im: new Float32Array(bins) };
  const power = (stem: StemName, k: number) => spectra[stem]!.re[k]! ** 2 + spectra[stem]!.im[k]! ** 2;
  for (let side = 0; side < 2; side++) {
    for (let i = 0; i < stft.frameCount(length); i++) {
      const start = stft.frameStart(i);
      for (const stem of sources) stft.analyze(stems[stem][side]!, start, spectra[stem]!.re, spectra[stem]!.im);
      stft.analyze(mixture[side]!, start, mix.re, mix.im);
      for (const stem of sources) {
        // no_vocals is the accompaniment as one source against the vocals.
        const group: StemName[] =
          stem === 'no_vocals' || stem === 'vocals' ? ['vocals', 'no_vocals'] : ['vocals', 'drums', 'bass', 'other'];
        for (let k = 0; k < bins; k++) {
          const total = group.reduce((sum, source) => sum + power(source, k), 0);
          const share = total > 0 ? power(stem, k) / total : 0;
          masked.re[k] = mix.re[k]! * share;
          masked.im[k] = mix.im[k]! * share;
        }
        stft.synthesize(masked.re, masked.im, out[stem][side]!, start);
      }
    }
  }
  return out;
}

interface Scores {
  song: string;
  sdr: Record<'builtin' | 'floor' | 'ceiling', Record<StemName, number>>;
}

async function scoreSong(song: Song, dir: string): Promise<Scores> {
  const stems = renderSong(song, SONG_SECONDS, dir);
  const mixture = mixtureOf(stems);
  const input = join(dir, 'mixture.wav');
  await writeWav(input, mixture);
  const separator = new BuiltinSeparator();
  const { stems: paths } = await separator.separate({
    input,
    mode: 'EVERYTHING',
    outputDir: dir,
    scratchDir: dir,
    signal: new AbortController().signal,
    onProgress: () => undefined,
  });
  const estimates = {} as Record<StemName, Stereo>;
  for (const stem of STEMS) estimates[stem] = await readWav(paths[stem]!);
  const ideal = idealRatioMask(stems, mixture);
  const sdr = { builtin: {}, floor: {}, ceiling: {} } as Scores['sdr'];
  for (const stem of STEMS) {
    sdr.builtin[stem] = signalToDistortion(stems[stem], estimates[stem]).median;
    sdr.floor[stem] = signalToDistortion(stems[stem], mixture).median;
    sdr.ceiling[stem] = signalToDistortion(stems[stem], ideal[stem]).median;
  }
  return { song: song.name, sdr };
}

interface Cost {
  seconds: number;
  audioSeconds: number;
  peakRssMb: number;
}

/** Separates `input` in a child process of this file; its time and memory high-water mark. */
function separateInChild(input: string, outputDir: string): Promise<Cost> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, import.meta.filename, '--separate-child', input, outputDir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split('\n').pop()!) as Cost);
      else reject(new Error(`separation child exited with ${code}`));
    });
  });
}

async function childMain(input: string, outputDir: string): Promise<void> {
  const reader = await WavFloatReader.open(input);
  const audioSeconds = reader.frames / reader.sampleRate;
  await reader.close();
  const started = performance.now();
  await new BuiltinSeparator().separate({
    input,
    mode: 'EVERYTHING',
    outputDir,
    scratchDir: outputDir,
    signal: new AbortController().signal,
    onProgress: () => undefined,
  });
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ seconds, audioSeconds, peakRssMb } satisfies Cost));
}

async function measureCost(dir: string, minutes: number): Promise<Cost> {
  const mixture = mixtureOf(renderSong(SONGS[0]!, SONG_SECONDS, dir));
  const input = join(dir, `long-${minutes}.wav`);
  await writeWav(input, mixture, (minutes * 60) / SONG_SECONDS);
  try {
    return await separateInChild(input, dir);
  } finally {
    rmSync(input, { force: true });
    for (const stem of STEMS) rmSync(join(dir, `${stem}.wav`), { force: true });
  }
}

const dB = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : String(value));

export async function benchSeparation(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-separation-'));
  try {
    execFileSync('espeak-ng', ['--version']);
    const scores: Scores[] = [];
    for (const song of SONGS) scores.push(await scoreSong(song, dir));
    const lines = [
      '### Stem separation: built-in separator (signal processing)',
      '',
      'SDR in dB (BSS Eval, 512-tap distortion filter, median over 1 s frames; higher is better). ' +
        'Floor: the mixture as the estimate. Ceiling: ideal ratio mask from the true stems.',
      '',
      '| song | stem | built-in | floor (mixture) | ceiling (ideal mask) | built-in − floor |',
      '|---|---|---|---|---|---|',
    ];
    for (const { song, sdr } of scores) {
      for (const stem of STEMS) {
        const gain = sdr.builtin[stem] - sdr.floor[stem];
        lines.push(
          `| ${song} | ${stem} | ${dB(sdr.builtin[stem])} | ${dB(sdr.floor[stem])} | ${dB(sdr.ceiling[stem])} | ${gain >= 0 ? '+' : ''}${dB(gain)} |`,
        );
      }
    }
    const costs: [string, Cost][] = [['3-minute file', await measureCost(dir, 3)]];
    if (!process.env.BENCH_SEPARATION_QUICK) costs.push(['30-minute file', await measureCost(dir, 30)]);
    lines.push(
      '',
      'Cost of separating all stems (one process, chunks of 5 s; goals: real-time factor ≤ 0.5, peak memory < 1 GB):',
      '',
      '| input | audio s | wall s | real-time factor | peak RSS MB |',
      '|---|---|---|---|---|',
      ...costs.map(
        ([label, cost]) =>
          `| ${label} | ${cost.audioSeconds.toFixed(0)} | ${cost.seconds.toFixed(1)} | ${(cost.seconds / cost.audioSeconds).toFixed(3)} | ${cost.peakRssMb.toFixed(0)} |`,
      ),
    );
    return lines.join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--separate-child') {
  await childMain(process.argv[3]!, process.argv[4]!);
} else if (process.argv[1] === import.meta.filename) {
  console.log(await benchSeparation());
}
