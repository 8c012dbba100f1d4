import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STEMS_OF_MODE, type StemMode } from '../processor';
import { createRemoteProcessors, RemoteProcessorError, type RemoteProcessorOptions } from './remote-processor';

const TOKEN = 'test-token';

interface Job {
  id: string;
  task: URLSearchParams;
  input: string;
  progress: number;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  error?: string;
  deleted: boolean;
}

/**
 * A processing server that follows docs/PROCESSORS-REMOTE.md with trivial work: every output is the
 * input, copied. Progress moves a quarter per poll (so tests see steps without any clock), and the
 * test can make it fail a job, answer errors, lose an answer or never answer.
 */
class ContractServer {
  readonly jobs = new Map<string, Job>();
  readonly keys = new Map<string, string>();
  readonly log: { method: string; path: string; contentLength?: string }[] = [];
  failNextJob: string | null = null;
  /** The next `count` calls whose path matches answer `status` with `{error}`. */
  faults: { path: RegExp; status: number; count: number; error: string } | null = null;
  loseNextUploadAnswer = false;
  hangPolls = false;
  private server: Server | null = null;
  private next = 0;

  constructor(private readonly dir: string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  calls(method: string, path: RegExp): number {
    return this.log.filter((c) => c.method === method && path.test(c.path)).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    this.log.push({ method: req.method ?? '', path: url.pathname, contentLength: req.headers['content-length'] });
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: 'unknown token' });
    if (this.faults && this.faults.count > 0 && this.faults.path.test(url.pathname)) {
      this.faults.count--;
      req.resume();
      return send(this.faults.status, { error: this.faults.error });
    }
    const [, version, resource, id, part, name] = url.pathname.split('/');
    if (version !== 'v1') return send(404, { error: 'no such path' });
    if (resource === 'info') return send(200, { name: 'test-gpu', modes: ['TWOSTEMS', 'EVERYTHING'] });
    if (resource !== 'jobs') return send(404, { error: 'no such path' });
    if (req.method === 'POST' && !id) return this.create(req, res, url, send);
    const job = this.jobs.get(id ?? '');
    if (!job) return send(404, { error: 'no such job' });
    if (req.method === 'DELETE') {
      job.deleted = true;
      if (job.status !== 'completed' && job.status !== 'failed') job.status = 'cancelled';
      return send(204);
    }
    if (req.method === 'GET' && part === 'outputs') {
      if (job.status !== 'completed' || !this.outputsOf(job).includes(name ?? ''))
        return send(404, { error: 'no output' });
      res.writeHead(200, { 'content-type': 'audio/wav' });
      return pipeline(createReadStream(job.input), res);
    }
    if (req.method === 'GET' && !part) {
      if (this.hangPolls) return; // never answers
      if (job.status === 'queued' || job.status === 'running') {
        job.progress = Math.min(1, job.progress + 0.25);
        job.status = job.progress >= 1 ? 'completed' : 'running';
        if (job.error && job.progress >= 0.5) job.status = 'failed';
      }
      return send(200, this.describe(job));
    }
    send(405, { error: 'method not allowed' });
  }

  private async create(req: IncomingMessage, res: ServerResponse, url: URL, send: (s: number, b?: unknown) => void) {
    const key = String(req.headers['idempotency-key'] ?? '');
    const known = this.keys.get(key);
    if (known) {
      req.resume();
      return send(200, this.describe(this.jobs.get(known)!));
    }
    const id = `job-${++this.next}`;
    const input = join(this.dir, `${id}.wav`);
    await pipeline(req, createWriteStream(input));
    const job: Job = { id, task: url.searchParams, input, progress: 0, status: 'queued', deleted: false };
    if (this.failNextJob) [job.error, this.failNextJob] = [this.failNextJob, null];
    this.jobs.set(id, job);
    this.keys.set(key, id);
    if (this.loseNextUploadAnswer) {
      this.loseNextUploadAnswer = false;
      res.destroy();
      return;
    }
    send(201, this.describe(job));
  }

  private outputsOf(job: Job): string[] {
    return job.task.get('task') === 'voice' ? ['voice'] : [...STEMS_OF_MODE[job.task.get('mode') as StemMode]];
  }

  private describe(job: Job) {
    return {
      id: job.id,
      status: job.status,
      progress: job.progress,
      engine: { name: 'test-gpu' },
      ...(job.error && job.status === 'failed' ? { error: job.error } : {}),
      ...(job.status === 'completed' ? { outputs: this.outputsOf(job).map((name) => ({ name })) } : {}),
    };
  }
}

let dir: string;
let input: string;
let server: ContractServer;
let url: string;
let outputs = 0;

function processors(options: Partial<RemoteProcessorOptions> = {}) {
  return createRemoteProcessors({ url, token: TOKEN, pollIntervalMs: 1, retryBaseMs: 1, attempts: 3, ...options });
}

async function outputDir(): Promise<string> {
  const path = join(dir, `out-${++outputs}`);
  await mkdir(path);
  return path;
}

const run = (onProgress: (f: number) => void = () => undefined, signal = new AbortController().signal) => ({
  onProgress,
  signal,
  scratchDir: dir,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'remote-processor-'));
  await mkdir(join(dir, 'server'));
  input = join(dir, 'input.wav');
  await promisify(execFile)('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=1:sample_rate=44100'],
    ...['-ac', '2', '-c:a', 'pcm_f32le', '-y', input],
  ]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => server.close());
const serve = async () => {
  server = new ContractServer(join(dir, 'server'));
  url = await server.start();
};

describe('separating stems on a remote server', () => {
  it('uploads the input, reports the server’s progress in steps, streams every stem back and cleans up', async () => {
    await serve();
    const { separator } = processors();
    expect(separator.engine.label).toMatch(/^remote: 127\.0\.0\.1:\d+$/); // until the server names itself
    const progress: number[] = [];
    const out = await outputDir();
    const result = await separator.separate({
      ...run((f) => progress.push(f)),
      input,
      mode: 'TWOSTEMS',
      outputDir: out,
    });

    expect(result.engine).toEqual({ id: 'remote:test-gpu', label: 'remote: test-gpu', kind: 'remote' });
    expect(separator.engine.label).toBe('remote: test-gpu');
    expect(Object.keys(result.stems)).toEqual(['vocals', 'no_vocals']);
    const original = await readFile(input);
    for (const path of Object.values(result.stems)) expect((await readFile(path)).equals(original)).toBe(true);
    expect(await readdir(out)).toEqual(['no_vocals.wav', 'vocals.wav']);
    // The upload's tenth, the server's four quarters, then one step per download.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress).toEqual(expect.arrayContaining([0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 1]));
    // The upload went out in chunks from disk, each reported.
    expect(progress.filter((f) => f < 0.1).length).toBeGreaterThanOrEqual(2);
    const job = [...server.jobs.values()][0]!;
    expect(job.task.get('mode')).toBe('TWOSTEMS');
    expect(job.deleted).toBe(true);
    expect(server.log[0]).toMatchObject({ method: 'POST', contentLength: String(original.length) });
  });

  it('brings back the five stems of EVERYTHING', async () => {
    await serve();
    const result = await processors().separator.separate({
      ...run(),
      input,
      mode: 'EVERYTHING',
      outputDir: await outputDir(),
    });
    expect(Object.keys(result.stems)).toEqual(['vocals', 'no_vocals', 'drums', 'bass', 'other']);
    for (const path of Object.values(result.stems)) expect(existsSync(path)).toBe(true);
  });

  it('says which server it is from GET /v1/info', async () => {
    await serve();
    const { jobs, voiceConverter } = processors({ name: 'studio box' });
    expect(voiceConverter.engine.label).toBe('remote: studio box');
    expect((await jobs.info(new AbortController().signal)).name).toBe('test-gpu');
    expect(voiceConverter.engine).toEqual({ id: 'remote:test-gpu', label: 'remote: test-gpu', kind: 'remote' });
  });
});

describe('converting a voice on a remote server', () => {
  it('sends the voice and pitch and writes the converted vocals to the output', async () => {
    await serve();
    const output = join(await outputDir(), 'voice.wav');
    const result = await processors().voiceConverter.convert({ ...run(), input, output, voice: 'susy', pitch: -2 });
    expect(result.engine.label).toBe('remote: test-gpu');
    expect((await readFile(output)).equals(await readFile(input))).toBe(true);
    const job = [...server.jobs.values()][0]!;
    expect([job.task.get('task'), job.task.get('voice'), job.task.get('pitch')]).toEqual(['voice', 'susy', '-2']);
  });
});

describe('when things go wrong', () => {
  it('cancels: stops polling, deletes the job on the server and leaves no output', async () => {
    await serve();
    const controller = new AbortController();
    const out = await outputDir();
    const separating = processors().separator.separate({
      ...run((f) => {
        if (f >= 0.3) controller.abort(new Error('cancelled by the user'));
      }, controller.signal),
      input,
      mode: 'TWOSTEMS',
      outputDir: out,
    });
    await expect(separating).rejects.toThrow('cancelled by the user');
    const job = [...server.jobs.values()][0]!;
    expect(job).toMatchObject({ deleted: true, status: 'cancelled' });
    expect(job.progress).toBeLessThan(1);
    expect(await readdir(out)).toEqual([]);
  });

  it('turns a job the server failed into a clear error, and still deletes it', async () => {
    await serve();
    server.failNextJob = 'CUDA out of memory';
    const out = await outputDir();
    const separating = processors().separator.separate({ ...run(), input, mode: 'TWOSTEMS', outputDir: out });
    await expect(separating).rejects.toThrow('The remote processor “test-gpu” failed the job: CUDA out of memory');
    await expect(separating).rejects.toBeInstanceOf(RemoteProcessorError);
    expect([...server.jobs.values()][0]!.deleted).toBe(true);
    expect(await readdir(out)).toEqual([]);
  });

  it('rides out two 503s on a poll (bounded retries)', async () => {
    await serve();
    server.faults = { path: /^\/v1\/jobs\/[^/]+$/, status: 503, count: 2, error: 'busy' };
    const result = await processors().voiceConverter.convert({
      ...run(),
      input,
      output: join(await outputDir(), 'v.wav'),
      voice: 'roberto',
      pitch: 0,
    });
    expect(result.engine.id).toBe('remote:test-gpu');
  });

  it('gives up after the configured attempts with the status and the server’s words', async () => {
    await serve();
    server.faults = { path: /^\/v1\/jobs\/[^/]+$/, status: 500, count: 99, error: 'database is locked' };
    const converting = processors({ attempts: 3 }).voiceConverter.convert({
      ...run(),
      input,
      output: join(await outputDir(), 'v.wav'),
      voice: 'roberto',
      pitch: 0,
    });
    await expect(converting).rejects.toThrow(
      /answered GET \/v1\/jobs\/job-1 with 500: database is locked \(after 3 attempts\)/,
    );
    expect(server.calls('GET', /^\/v1\/jobs\/job-1$/)).toBe(3);
    // The DELETE met the same 500: it is tried once (best effort; the server expires jobs anyway).
    expect(server.calls('DELETE', /^\/v1\/jobs\/job-1$/)).toBe(1);
  });

  it('does not retry a refused token', async () => {
    await serve();
    const converting = createRemoteProcessors({ url, token: 'wrong', retryBaseMs: 1 }).voiceConverter.convert({
      ...run(),
      input,
      output: join(await outputDir(), 'v.wav'),
      voice: 'roberto',
      pitch: 0,
    });
    await expect(converting).rejects.toThrow('The remote processor refused the token (401): unknown token');
    expect(server.calls('POST', /^\/v1\/jobs$/)).toBe(1);
  });

  it('repeats an upload whose answer was lost with the same key: one job on the server', async () => {
    await serve();
    server.loseNextUploadAnswer = true;
    await processors().separator.separate({ ...run(), input, mode: 'TWOSTEMS', outputDir: await outputDir() });
    expect(server.calls('POST', /^\/v1\/jobs$/)).toBe(2);
    expect(server.jobs.size).toBe(1);
  });

  it('times out a server that stops answering', async () => {
    await serve();
    server.hangPolls = true;
    const converting = processors({ requestTimeoutMs: 200, attempts: 2 }).voiceConverter.convert({
      ...run(),
      input,
      output: join(await outputDir(), 'v.wav'),
      voice: 'roberto',
      pitch: 0,
    });
    await expect(converting).rejects.toThrow('did not answer within 200 ms (after 2 attempts)');
    expect([...server.jobs.values()][0]!.deleted).toBe(true);
  });
});
