// Connectors: a file imported from a linked account (WebDAV, S3) into Mixroom's blob store on the
// server, against `curl` copying the same file from the same server into a file in the same run.
// Mixroom runs as a separate process (as `npm start` does); its resident memory is read from
// /proc every 100 ms during the copy, so the figure is the server's alone. The providers run in a
// process of their own (`connectors-providers.ts`), and each import sits between two curl copies
// of the same file: the ratio is against their mean, so a provider that sped up or slowed down
// between measures shows as two different curl times rather than as Mixroom's.
import { execFile, execFileSync, fork, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ConnectorTransfer, Version } from '@mixroom/contracts';
import { signV4, UNSIGNED_PAYLOAD } from '../apps/server/src/platform/drives/sigv4';
import { call } from '../apps/server/test/helpers/api';
import { freePort } from '../apps/server/test/helpers/free-port';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { spawnServer, SPAWNED_TIMEOUT_MS } from '../apps/server/test/helpers/spawn-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import type { ProvidersReady } from './connectors-providers';

const MiB = 1024 * 1024;
const run = promisify(execFile);

/** `node -e` body: GET argv[1] with the headers in argv[3] into the file argv[2]; prints the ms it took. */
const NODE_GET = `
const [url, target, headers] = process.argv.slice(1);
const started = performance.now();
require('node:http').get(url, { headers: JSON.parse(headers) }, (response) =>
  require('node:stream/promises')
    .pipeline(response, require('node:fs').createWriteStream(target))
    .then(() => process.stdout.write(String(performance.now() - started))),
);`;

interface Measure {
  kind: 'webdav' | 's3';
  round: number;
  /** curl's copy just before and just after Mixroom's. */
  curlMs: [number, number];
  nodeMs: number;
  mixroomMs: number;
  rssBefore: number;
  rssPeak: number;
  serverCpuMs: number;
  sha256Equal: boolean;
}

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}

/** CPU time a process has used so far, user + system, in ms (clock ticks are 1/100 s on Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Whether a process has child processes running (the server's ffmpeg for a media job). tsx's
 * esbuild service, which stays beside a server started from files it had not compiled before, is
 * not work.
 */
function hasChildren(pid: number): boolean {
  const names = spawnSync('pgrep', ['-l', '-P', String(pid)], { encoding: 'utf8' }).stdout.split('\n');
  return names.some((line) => line.trim() !== '' && !/\sesbuild$/.test(line.trim()));
}

/**
 * Waits until the server has no ffmpeg running and has used less than a tenth of a core for a
 * second: the imported WAV's media job is done and will not slow the next measure.
 */
async function serverIdle(pid: number): Promise<void> {
  await waitFor(
    async () => {
      if (hasChildren(pid)) return false;
      const before = cpuMsOf(pid);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return cpuMsOf(pid) - before < 100 && !hasChildren(pid);
    },
    { timeoutMs: 900_000, intervalMs: 500, what: 'the server to be idle' },
  );
}

export async function benchConnectors(): Promise<string> {
  const asked = Number(process.env.BENCH_CONNECTOR_MB ?? 1024) * MiB;
  // Several rounds in one run show how much the ratio moves with the machine's load alone.
  const rounds = Math.max(1, Number(process.env.BENCH_CONNECTOR_ROUNDS ?? 3));
  const work = mkdtempSync(join(tmpdir(), 'mixroom-bench-connectors-'));
  const providers = fork(fileURLToPath(new URL('./connectors-providers.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_CONNECTOR_BYTES: String(asked) },
  });
  const ready = new Promise<ProvidersReady>((resolve, reject) => {
    providers.once('message', (message) => resolve(message as ProvidersReady));
    providers.once('exit', (code) => reject(new Error(`the providers' process ended (${code})`)));
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnServer({
    DATA_DIR: join(work, 'data'),
    PORT: String(port),
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    CONNECTORS_ENABLED: 'webdav,s3',
    CONNECTORS_ALLOW_HOSTS: '127.0.0.1',
    // For profiling the server during the copy, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'.
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  const pid = server.child.pid!;
  try {
    const { dav, s3, fileName, size, sha256 } = await ready;
    await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
      timeoutMs: SPAWNED_TIMEOUT_MS,
      what: 'the Mixroom server',
    });

    await serverIdle(pid);
    const loadBefore = loadavg();
    const measures: Measure[] = [];
    const plan = Array.from({ length: rounds }, (_, i) =>
      (['webdav', 's3'] as const).map((kind) => ({ kind, round: i + 1 })),
    );
    for (const { kind, round } of plan.flat()) {
      const token = (
        await signInThroughOidc(base, {
          email: `bench-${kind}-${round}@connectors.test`,
          password: 'correct horse battery 1',
        })
      ).access_token;
      const link = kind === 'webdav' ? { kind, ...dav } : { ...s3 };
      const linked = await call(base, '/api/connectors', { method: 'POST', token, body: link });
      if (linked.status !== 201) throw new Error(`link ${kind}: ${linked.status} ${JSON.stringify(linked.body)}`);
      const connectorId = linked.body.id as string;

      // Baseline: curl fetches the same file from the same server into a file on the same disk
      // (with the same credentials), before and after Mixroom's copy. Node's own floor, once: a
      // bare http.get piped into a file, in its own process, which tells Node's HTTP client apart
      // from what Mixroom adds.
      const get =
        kind === 'webdav'
          ? {
              url: `${dav.url}${fileName}`,
              headers: { authorization: `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}` },
            }
          : signedS3Get(s3, fileName);
      const target = join(work, `baseline-${kind}.bin`);
      const timedCurl = async () => {
        execFileSync('sync');
        const started = performance.now();
        await run('curl', [
          '-sSf',
          '-o',
          target,
          ...Object.entries(get.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
          get.url,
        ]);
        const ms = performance.now() - started;
        if (statSync(target).size !== size) throw new Error(`curl ${kind}: wrong size`);
        rmSync(target);
        return ms;
      };
      execFileSync('sync');
      const nodeMs = Number(
        (await run(process.execPath, ['-e', NODE_GET, get.url, target, JSON.stringify(get.headers)])).stdout,
      );
      if (statSync(target).size !== size) throw new Error(`node http.get ${kind}: wrong size`);
      rmSync(target);
      const curlBefore = await timedCurl();

      // Mixroom: the web app's calls (a project, then "import this file as its version"), then the
      // Activities panel's poll of the copy until it is done.
      const project = await call(base, '/api/projects', { method: 'POST', token, body: { name: kind, groupId: null } });
      execFileSync('sync');
      const rssBefore = rssOf(pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 100);
      const cpuBefore = cpuMsOf(pid);
      const started = performance.now();
      const answer = await call(base, `/api/connectors/${connectorId}/imports`, {
        method: 'POST',
        token,
        body: { path: `/${fileName}`, projectId: project.body.id, versionName: 'Bench' },
      });
      if (answer.status !== 202) throw new Error(`import ${kind}: ${answer.status} ${JSON.stringify(answer.body)}`);
      const transferId = (answer.body.transfer as ConnectorTransfer).id;
      const transfer = await waitFor(
        async () => {
          const { body } = await call(base, '/api/connectors/transfers', { token });
          const found = (body.transfers as ConnectorTransfer[]).find((t) => t.id === transferId);
          return found && found.status !== 'running' ? found : null;
        },
        { timeoutMs: 1_800_000, intervalMs: 100, what: `the ${kind} import` },
      );
      const mixroomMs = performance.now() - started;
      const serverCpuMs = cpuMsOf(pid) - cpuBefore;
      clearInterval(sampler);
      if (transfer.status !== 'done') throw new Error(`import ${kind} failed: ${transfer.error}`);
      // The imported WAV's media job (peaks, loudness) runs next: curl's second copy waits for it.
      await serverIdle(pid);
      const curlAfter = await timedCurl();
      const stored = await sha256OfVersion(base, token, (answer.body.version as Version).id);
      measures.push({
        kind,
        round,
        curlMs: [curlBefore, curlAfter],
        nodeMs,
        mixroomMs,
        rssBefore,
        rssPeak,
        serverCpuMs,
        sha256Equal: stored === sha256,
      });
      // Each row as it is measured: a long run stopped early still tells what it measured.
      console.error(row(size, measures.at(-1)!));
    }
    return table(size, measures, loadBefore, loadavg());
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    if (providers.connected) providers.send('stop');
    await new Promise((resolve) => (providers.exitCode === null ? providers.once('exit', resolve) : resolve(null)));
    rmSync(work, { recursive: true, force: true });
  }
}

/** A GET of the file signed like Mixroom's own (SigV4 headers, unsigned payload). */
function signedS3Get(s3: ProvidersReady['s3'], fileName: string): { url: string; headers: Record<string, string> } {
  const url = new URL(`${s3.endpoint}/${s3.bucket}/${fileName}`);
  const headers = signV4(
    { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region, service: 's3' },
    { method: 'GET', url, headers: {}, payloadHash: UNSIGNED_PAYLOAD },
    new Date(),
  );
  delete headers.host;
  return { url: url.toString(), headers };
}

/** The stored blob's SHA-256, read back through the version's download link. */
async function sha256OfVersion(base: string, token: string, versionId: string): Promise<string> {
  const { body } = await call(base, `/api/versions/${versionId}/download`, { token });
  const response = await fetch(String(body.url));
  const hash = createHash('sha256');
  for await (const chunk of Readable.fromWeb(response.body as never)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** curl's time for a measure: the mean of its copies before and after Mixroom's. */
const curlMean = (m: Measure) => (m.curlMs[0] + m.curlMs[1]) / 2;
const ratioOf = (m: Measure) => curlMean(m) / m.mixroomMs;

/** One measure as a row of the table. */
function row(size: number, m: Measure): string {
  const mbps = (ms: number) => size / 1e6 / (ms / 1000);
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  const curl = m.curlMs.map((ms) => mbps(ms).toFixed(0)).join(' / ');
  return `| ${m.round} | ${m.kind} | ${curl} | ${mbps(m.nodeMs).toFixed(0)} | ${(m.mixroomMs / 1000).toFixed(2)} | ${mbps(m.mixroomMs).toFixed(0)} | **${ratioOf(m).toFixed(2)}** | ${(m.serverCpuMs / 1000).toFixed(1)} | ${mb(m.rssBefore)} | ${mb(m.rssPeak - m.rssBefore)} | ${m.sha256Equal ? 'yes' : '**NO**'} |`;
}

/** Per provider: the median ratio, its range, and how many measures reached the goal. */
function summary(measures: Measure[]): string[] {
  return (['webdav', 's3'] as const).map((kind) => {
    const ratios = measures
      .filter((m) => m.kind === kind)
      .map(ratioOf)
      .sort((a, b) => a - b);
    const median = ratios[Math.floor((ratios.length - 1) / 2)]! / 2 + ratios[Math.ceil((ratios.length - 1) / 2)]! / 2;
    const met = ratios.filter((r) => r >= 0.8).length;
    return `- ${kind}: Mixroom / curl median **${median.toFixed(2)}** (${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}), ${met} of ${ratios.length} measures ≥ 0.8.`;
  });
}

function table(size: number, measures: Measure[], loadBefore: number[], loadAfter: number[]): string {
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(', ');
  return [
    `### Connectors: import of ${(size / MiB).toFixed(0)} MiB vs curl`,
    '',
    '| round | provider | curl MB/s (before / after) | node http.get → file MB/s | Mixroom s | Mixroom MB/s | Mixroom / curl (mean of both) | server CPU s | server RSS before MB | RSS peak − before MB | SHA-256 equal |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...measures.map((m) => row(size, m)),
    '',
    ...summary(measures),
    '',
    `Goals: Mixroom / curl ≥ 0.8; RSS growth < 100 MB for 1 GiB. Load average (1, 5, 15 min) before: ${load(loadBefore)}; after: ${load(loadAfter)}.`,
  ].join('\n');
}
