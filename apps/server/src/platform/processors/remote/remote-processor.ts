import { randomUUID } from 'node:crypto';
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  STEMS_OF_MODE,
  type ProcessorEngine,
  type ProcessorRun,
  type SeparationInput,
  type SeparationOutput,
  type Separator,
  type StemName,
  type VoiceConverter,
  type VoiceInput,
} from '../processor';
import { abortReason, pause, RemoteHttp, RemoteProcessorError } from './remote-http';

export { RemoteProcessorError } from './remote-http';

/**
 * Stem separation and voice conversion on another machine (a GPU box running a model), over the
 * HTTP contract in docs/PROCESSORS-REMOTE.md: upload the input WAV as a job, poll its progress,
 * stream the outputs back, delete the job. The server names its engine; outputs are labelled
 * `remote: <that name>` so nobody mistakes them for the built-in processing.
 */
export interface RemoteProcessorOptions {
  url: string;
  /** Sent as `Authorization: Bearer <token>` on every call. */
  token: string;
  /** Shown until the server names itself (default: the URL's host). */
  name?: string;
  /** Between two progress polls (ms). */
  pollIntervalMs?: number;
  /** A JSON call's whole time (ms). */
  requestTimeoutMs?: number;
  /** An upload's or download's longest silence (ms). */
  idleTimeoutMs?: number;
  /** The longest a job may take on the server, from upload to completion (ms). */
  jobTimeoutMs?: number;
  /** Attempts per call (network errors, 408, 429, 5xx), the first included. */
  attempts?: number;
  retryBaseMs?: number;
}

const DEFAULTS = {
  pollIntervalMs: 1000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 120_000,
  jobTimeoutMs: 3 * 60 * 60 * 1000,
  attempts: 4,
  retryBaseMs: 500,
};

/** A job as the server describes it (GET /v1/jobs/{id}). */
export interface RemoteJob {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  /** 0..1 */
  progress?: number;
  error?: string;
  engine?: { name?: string };
  outputs?: { name: string }[];
}

export function remoteEngine(name: string): ProcessorEngine {
  const shown = name.trim().slice(0, 80) || 'unnamed';
  const slug = shown.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  return { id: `remote:${slug}`, label: `remote: ${shown}`, kind: 'remote' };
}

/** Job ids go into URL paths: only plain ones are accepted. */
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Progress: the upload is the first tenth, the server's work the next eight, the downloads the last. */
const SHARE = { upload: 0.1, work: 0.8 } as const;

/** One client shared by the separator and the voice converter of a remote server. */
export class RemoteJobs {
  private readonly http: RemoteHttp;
  private readonly settings: typeof DEFAULTS;
  engine: ProcessorEngine;

  constructor(options: RemoteProcessorOptions) {
    this.settings = { ...DEFAULTS, ...withoutUndefined(options) };
    this.http = new RemoteHttp({ ...this.settings, url: options.url, token: options.token });
    this.engine = remoteEngine(options.name ?? new URL(options.url).host);
  }

  /** GET /v1/info: the server's name (which then labels the outputs), modes and voices. */
  async info(signal: AbortSignal): Promise<{ name: string; modes?: string[]; voices?: string[] }> {
    const info = await this.http.json<{ name: string; modes?: string[]; voices?: string[] }>({
      method: 'GET',
      path: '/v1/info',
      signal,
    });
    this.noteEngine({ name: info.name });
    return info;
  }

  /**
   * Runs one job: uploads `input`, waits for it, writes each named output to its path. Whatever
   * happens (done, failed, cancelled) the job is deleted on the server afterwards, and a failed or
   * cancelled run leaves no output behind.
   */
  async run(
    task: Record<string, string>,
    input: string,
    outputs: Record<string, string>,
    run: ProcessorRun,
  ): Promise<ProcessorEngine> {
    const { signal } = run;
    if (signal.aborted) throw abortReason(signal);
    await access(input); // a missing input is our fault: say so, rather than retry an upload of it
    const report = progressReporter(run);
    const created = await this.http.json<RemoteJob>({
      method: 'POST',
      path: `/v1/jobs?${new URLSearchParams(task).toString()}`,
      // The same key on a retried upload: the server answers with the job it already made.
      headers: { 'idempotency-key': randomUUID() },
      body: {
        kind: 'file',
        path: input,
        onBytes: (sent, total) => void report((SHARE.upload * sent) / total).catch(() => undefined),
      },
      signal,
      transfer: true,
    });
    if (typeof created.id !== 'string' || !JOB_ID.test(created.id))
      throw new RemoteProcessorError('The remote processor answered the upload without a usable job id.');
    const id = created.id;
    await report(SHARE.upload, true);
    let done = false;
    try {
      let job = created;
      this.noteEngine(job.engine);
      const started = performance.now();
      while (job.status === 'queued' || job.status === 'running') {
        if (performance.now() - started > this.settings.jobTimeoutMs)
          throw new RemoteProcessorError(
            `The remote processor “${this.name}” did not finish within ${Math.round(this.settings.jobTimeoutMs / 60_000)} minutes.`,
          );
        await pause(this.settings.pollIntervalMs, signal);
        job = await this.http.json<RemoteJob>({ method: 'GET', path: `/v1/jobs/${id}`, signal });
        this.noteEngine(job.engine);
        await report(SHARE.upload + SHARE.work * Math.min(1, Math.max(0, Number(job.progress) || 0)));
      }
      if (job.status === 'failed')
        throw new RemoteProcessorError(
          `The remote processor “${this.name}” failed the job: ${(job.error ?? 'no reason given').slice(0, 300)}`,
        );
      if (job.status !== 'completed')
        throw new RemoteProcessorError(`The remote processor “${this.name}” ended the job as ${String(job.status)}.`);
      const offered = new Set((job.outputs ?? []).map((o) => o.name));
      const missing = Object.keys(outputs).filter((name) => !offered.has(name));
      if (missing.length > 0)
        throw new RemoteProcessorError(`The remote processor “${this.name}” returned no ${missing.join(', ')}.`);
      const names = Object.keys(outputs);
      for (const [index, name] of names.entries()) {
        await this.http.download(`/v1/jobs/${id}/outputs/${encodeURIComponent(name)}`, outputs[name]!, signal);
        await report(SHARE.upload + SHARE.work + ((1 - SHARE.upload - SHARE.work) * (index + 1)) / names.length);
      }
      done = true;
      return this.engine;
    } catch (error) {
      throw signal.aborted ? abortReason(signal) : error;
    } finally {
      if (!done) await Promise.all(Object.values(outputs).map((path) => rm(path, { force: true })));
      await this.release(id);
    }
  }

  private get name(): string {
    return this.engine.label.replace(/^remote: /, '');
  }

  private noteEngine(engine: RemoteJob['engine']): void {
    if (typeof engine?.name === 'string' && engine.name.trim()) this.engine = remoteEngine(engine.name);
  }

  /**
   * DELETE /v1/jobs/{id}: cancels the job if it still runs and frees its files. Best effort, on its
   * own timeout (the task's signal may be the very reason we are here); a server that misses it
   * expires the job itself (see the contract).
   */
  private async release(id: string): Promise<void> {
    const signal = AbortSignal.timeout(this.settings.requestTimeoutMs);
    await this.http.call({ method: 'DELETE', path: `/v1/jobs/${id}`, signal }, false).catch(() => undefined);
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Reports rising progress, rounded, at most once per percent (except at a phase's end, `force`),
 * awaiting the stage as it asks.
 */
function progressReporter(run: ProcessorRun): (fraction: number, force?: boolean) => Promise<void> {
  let last = -1;
  return async (fraction, force = false) => {
    const rounded = Math.round(fraction * 10_000) / 10_000;
    if (rounded <= last || (!force && rounded < 1 && rounded - last < 0.01)) return;
    last = rounded;
    await run.onProgress(rounded);
  };
}

export class RemoteSeparator implements Separator {
  constructor(private readonly jobs: RemoteJobs) {}

  get engine(): ProcessorEngine {
    return this.jobs.engine;
  }

  async separate(input: SeparationInput): Promise<SeparationOutput> {
    const stems = Object.fromEntries(
      STEMS_OF_MODE[input.mode].map((stem) => [stem, join(input.outputDir, `${stem}.wav`)]),
    ) as Partial<Record<StemName, string>>;
    const outputs = stems as Record<string, string>;
    const engine = await this.jobs.run({ task: 'separate', mode: input.mode }, input.input, outputs, input);
    return { stems, engine };
  }
}

export class RemoteVoiceConverter implements VoiceConverter {
  constructor(private readonly jobs: RemoteJobs) {}

  get engine(): ProcessorEngine {
    return this.jobs.engine;
  }

  async convert(input: VoiceInput): Promise<{ engine: ProcessorEngine }> {
    const task = { task: 'voice', voice: input.voice, pitch: String(input.pitch) };
    const engine = await this.jobs.run(task, input.input, { voice: input.output }, input);
    return { engine };
  }
}

/** The separator and voice converter of one remote server, sharing its client (`jobs`, for `info()`). */
export function createRemoteProcessors(options: RemoteProcessorOptions): {
  jobs: RemoteJobs;
  separator: RemoteSeparator;
  voiceConverter: RemoteVoiceConverter;
} {
  const jobs = new RemoteJobs(options);
  return { jobs, separator: new RemoteSeparator(jobs), voiceConverter: new RemoteVoiceConverter(jobs) };
}
