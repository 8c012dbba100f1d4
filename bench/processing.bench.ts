// Processing a 60-minute 48 kHz stereo 24-bit WAV (the media job) against one `ffmpeg -i F -f null -`
// of the same file in the same run: when the version is ready for review, when its loudness and
// true peak are stored, and when the job ends; then the same with another process keeping one core
// busy (the decode baseline timed again under that load); then the parts alone on the same file.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { encodeLossyPreview, locateMediaTools, probe, type Loudness } from '../apps/server/src/platform/media/ffmpeg';
import { LoudnessTask } from '../apps/server/src/platform/media/loudness-task';
import { readWavLayout } from '../apps/server/src/platform/media/wav-peaks';
import { UsersRepository } from '../apps/server/src/modules/users/users.repository';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const time = async (fn: () => unknown) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
/** One decode of the file, the median of three: this machine's speed moves from run to run. */
async function decode(wav: string): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++)
    runs.push(
      await time(() =>
        spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', wav, '-f', 'null', '-'], { stdio: 'ignore' }),
      ),
    );
  return runs.sort((a, b) => a - b)[1]!;
}

interface JobTimes {
  readyMs: number;
  loudnessMs: number;
  endMs: number;
}

/** Uploads the file as a new project's version and runs its media job, timing its milestones. */
async function timeJob(server: TestServer, wav: string, email: string): Promise<JobTimes> {
  const owner = await new UsersRepository(server.context.database.db).create({ email, displayName: 'Bench' });
  const actor = { userId: owner.id, isAdmin: true, email: owner.email, displayName: owner.displayName };
  const ticket = await server.context.services.storage.projects.uploadFile(actor, {
    groupId: null,
    fileName: 'hour.wav',
    size: statSync(wav).size,
  });
  const versionId = ticket.version.id;
  const findVersion = () =>
    server.context.database.db.query.versions.findFirst({ where: (v, { eq }) => eq(v.id, versionId) });
  await server.context.blobs.put((await findVersion())!.blobKey, createReadStream(wav));
  // Ready for review = the version's first 'ready' announcement (waveform, thumbnail stored);
  // loudness stored = the first announcement after which the version's row holds it.
  let readyMs = 0;
  let loudnessMs = 0;
  const started = performance.now();
  const stop = server.context.bus.subscribe((event) => {
    if (event.type !== 'version.progress' || event.data.versionId !== versionId) return;
    if (event.data.status !== 'ready') return;
    const at = performance.now() - started;
    if (!readyMs) readyMs = at;
    void findVersion().then((row) => {
      if (row?.loudness && !loudnessMs) loudnessMs = at;
    });
  });
  const endMs = await time(() =>
    server.context.services.storage.media.process(versionId, {
      log: pino({ level: 'silent' }),
      progress: async () => undefined,
    }),
  );
  stop();
  return { readyMs, loudnessMs, endMs };
}

/** A process that keeps one core busy until killed. */
function busyCore() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () => child.kill('SIGKILL');
}

export async function benchProcessing(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'mixroom-bench-media-'));
  const wav = join(work, 'hour.wav');
  generateAudio(wav, 'anoisesrc=d=3600:c=pink:r=48000:a=0.2', ['-c:a', 'pcm_s24le']);
  const server = await startTestServer({}, { keepDataDir: join(work, 'data') });
  try {
    const quietDecodeMs = await decode(wav);
    const quiet = await timeJob(server, wav, 'quiet@media.test');
    const release = busyCore();
    let loadedDecodeMs: number;
    let loaded: JobTimes;
    try {
      loadedDecodeMs = await decode(wav);
      loaded = await timeJob(server, wav, 'loaded@media.test');
    } finally {
      release();
    }
    // The parts alone, on the same file: the meter (what the job runs beside the waveform's scan for
    // a local WAV), ffmpeg's ebur128 with true peak (the loudness pass the job once ran), and the
    // lossy preview's encode.
    const tools = locateMediaTools({});
    const probed = await probe(tools, wav);
    const layout = readWavLayout(readFileSync(wav).subarray(0, 65536), statSync(wav).size)!;
    const range = { path: wav, start: layout.dataStart, length: layout.dataLength };
    let measured: Loudness | null = null;
    const meterMs = await time(async () => {
      measured = await LoudnessTask.ofFile(layout, range, availableParallelism()).result;
    });
    const oneThreadMs = await time(() => LoudnessTask.ofFile(layout, range, 1).result);
    const encodeMs = await time(() => encodeLossyPreview(tools, wav, join(work, 'lossy.m4a'), probed));
    let ebur128Summary = '';
    const ebur128Ms = await time(() => {
      // Its per-frame lines go to the verbose level, which is not printed: only the summary comes out.
      const filter = 'ebur128=peak=true:framelog=verbose';
      const run = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', wav, '-af', filter, '-f', 'null', '-'], {
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      });
      ebur128Summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
    });
    const reference = {
      integrated: Number(/I:\s+(-?[\d.]+) LUFS/.exec(ebur128Summary)?.[1]),
      truePeak: Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(ebur128Summary)?.[1]),
    };
    const ours = measured as Loudness | null;
    const ratio = (ms: number, baseline: number) => (ms / baseline).toFixed(2);
    const row = (what: string, ms: number, baseline: number, bold = false) =>
      `| ${what} | ${seconds(ms)} | ${bold ? `**${ratio(ms, baseline)}**` : ratio(ms, baseline)} |`;
    const rows = (label: string, times: JobTimes, baseline: number) => [
      row(`${label}: ffmpeg -i F -f null - (one decode, the baseline: median of 3)`, baseline, baseline),
      row(
        `${label}: ready for review (probe, peaks at 3 levels, thumbnail, stored, announced)`,
        times.readyMs,
        baseline,
        true,
      ),
      row(`${label}: loudness and true peak stored`, times.loudnessMs, baseline, true),
      row(`${label}: the job's end (lossy preview encoded and stored)`, times.endMs, baseline),
    ];
    return [
      `### (b) processing a 60-minute 48 kHz stereo 24-bit WAV (${availableParallelism()} cores)`,
      '',
      '| step | seconds | / one decode |',
      '|---|---|---|',
      ...rows('quiet', quiet, quietDecodeMs),
      ...rows('one core kept busy', loaded, loadedDecodeMs),
      row(
        `alone: loudness and true peak by Mixroom's meter, the file split across a thread per core`,
        meterMs,
        quietDecodeMs,
      ),
      row(`alone: the same meter on one thread`, oneThreadMs, quietDecodeMs),
      row(
        'alone: ffmpeg ebur128=peak=true (the former loudness pass, its frame log not printed)',
        ebur128Ms,
        quietDecodeMs,
      ),
      row("alone: the lossy preview's AAC encode", encodeMs, quietDecodeMs),
      '',
      `Ready / one decode: **${ratio(quiet.readyMs, quietDecodeMs)}** quiet, **${ratio(loaded.readyMs, loadedDecodeMs)}** with a core busy (goal ≤ 1.3).`,
      `Loudness stored / one decode: **${ratio(quiet.loudnessMs, quietDecodeMs)}** quiet, **${ratio(loaded.loudnessMs, loadedDecodeMs)}** with a core busy (goal ≤ 1.5).`,
      `The job's end / (one decode + the encode alone): **${(quiet.endMs / (quietDecodeMs + encodeMs)).toFixed(2)}** (goal ≤ 1.2).`,
      // ffmpeg's summary prints one decimal, so "equal within 0.1" allows its rounding (0.05) too; the
      // unit tests compare three decimals on a corpus.
      `Mixroom's meter against ffmpeg's ebur128 on this file: integrated ${ours?.integrated?.toFixed(2)} against ${reference.integrated} LUFS, true peak ${ours?.truePeak?.toFixed(2)} against ${reference.truePeak} dBTP (goal: within 0.1 of the rounded summary, ±0.05).`,
    ].join('\n');
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
