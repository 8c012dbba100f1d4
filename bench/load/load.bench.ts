// `npm run bench -- load`: the studio-network setup under load. Two API nodes and a worker on
// PostgreSQL and S3 behind a round-robin balancer; LOAD_USERS simulated users (default 200) for
// LOAD_MINUTES (default 10); an API node killed at 40% of the run, the worker at 60% (mid-processing),
// the database cut for 10 s at 80%. LOAD_LIVE_ROOMS (default 2) teams also hold a live room: the lead
// publishes a stereo tone, the other members listen (live-rooms.ts); the API node killed is the one
// holding the first room. Afterwards the data is checked: every acknowledged comment exists once,
// every completed upload's SHA-256 equals its source, no upload is left processing, and every live
// listener hears its host.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Comment, Version } from '@mixroom/contracts';
import { waitFor } from '../../apps/server/test/helpers/wait-for';
import { startCluster, type Cluster, type NodeName } from './load-cluster';
import { LiveRooms } from './live-rooms';
import { LoadMetrics } from './load-metrics';
import {
  followTeams,
  renewTokens,
  renewUser,
  sendAndFetchTransfer,
  sha256Of,
  signUpTeams,
  uploadBig,
  UploadGate,
  type Ledger,
  type SimUser,
  type SourceFile,
} from './load-users';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const MINUTES = Number(process.env.LOAD_MINUTES ?? 10);
const BIG_MB = (process.env.LOAD_BIG_MB ?? '20,50,100,200').split(',').map(Number);
const FAULTS = process.env.LOAD_FAULTS !== 'off';
const LIVE_ROOMS = Number(process.env.LOAD_LIVE_ROOMS ?? 2);
const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A 48 kHz stereo 16-bit WAV of `bytes` bytes of noise (noise: storage and codecs can't shortcut it). */
async function writeWav(path: string, bytes: number): Promise<SourceFile> {
  const dataBytes = bytes - 44;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(48_000, 24);
  header.writeUInt32LE(48_000 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  const out = createWriteStream(path);
  out.write(header);
  let seed = bytes;
  const chunk = Buffer.alloc(1 << 20);
  for (let written = 0; written < dataBytes; written += chunk.length) {
    for (let i = 0; i < chunk.length; i += 2) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      chunk.writeInt16LE(((seed >>> 16) & 0x3fff) - 0x2000, i);
    }
    const part = chunk.subarray(0, Math.min(chunk.length, dataBytes - written));
    if (!out.write(part)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return { path, size: bytes, sha256: await sha256Of(path) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function userLoop(
  user: SimUser,
  cluster: Cluster,
  sources: { transfer: SourceFile; big: SourceFile[] },
  gate: UploadGate,
  ledger: Ledger,
  metrics: LoadMetrics,
  until: number,
): Promise<void> {
  const { team } = user;
  while (performance.now() < until) {
    await pause(1500 + Math.random() * 3000);
    const roll = Math.random() * 100;
    const ignore = () => undefined;
    if (roll < 30) {
      await metrics
        .time('listing', async () => {
          await user.client.list(null);
          await user.client.list(team.folderId);
        })
        .catch(ignore);
    } else if (roll < 45) {
      await metrics
        .time('search', () => user.client.api(`/api/search?q=${encodeURIComponent(`Team ${team.index}`)}`))
        .catch(ignore);
    } else if (roll < 75) {
      await metrics
        .time('review', async () => {
          await user.client.project(team.projectId);
          await user.client.api(`/api/versions/${team.versionId}/comments`);
        })
        .catch(ignore);
    } else if (roll < 95) {
      const text = `${user.email} ${Math.random().toString(36).slice(2)}`;
      ledger.sentAt.set(text, performance.now());
      await metrics
        .time('comment', () =>
          user.client.api(`/api/versions/${team.versionId}/comments`, {
            method: 'POST',
            body: { type: 'timestamp', startTime: Math.random() * 2, text },
          }),
        )
        .then(() => ledger.comments.set(text, team.versionId), ignore);
    } else if (roll < 97.5) {
      if (!gate.tryEnter()) continue;
      const source = sources.big[Math.floor(Math.random() * sources.big.length)]!;
      await uploadBig(user, source, ledger, metrics)
        .catch(ignore)
        .finally(() => gate.leave());
    } else {
      await sendAndFetchTransfer(user, sources.transfer, cluster.url, ledger, metrics).catch(ignore);
    }
  }
}

function startSampler(cluster: Cluster, metrics: LoadMetrics): () => void {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  void admin.connect();
  const name = new URL(cluster.databaseUrl).pathname.slice(1);
  const sample = async () => {
    const at = metrics.elapsedS();
    for (const node of cluster.nodes) {
      const running = node.process.child.exitCode === null && node.process.child.signalCode === null;
      const health = await fetch(`http://127.0.0.1:${node.port}/api/health`, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.json() as Promise<{ process?: { rssBytes: number; eventLoopDelayMs: { p99: number } } }>)
        .catch(() => null);
      metrics.nodeSamples.push({
        at,
        node: node.name,
        running,
        up: health?.process !== undefined,
        rssMb: (health?.process?.rssBytes ?? 0) / 2 ** 20,
        loopP99Ms: health?.process?.eventLoopDelayMs.p99 ?? 0,
      });
    }
    const rows = await admin
      .query<{ count: string }>('select count(*) from pg_stat_activity where datname = $1', [name])
      .catch(() => null);
    if (rows) metrics.databaseConnections.push({ at, count: Number(rows.rows[0]!.count) });
  };
  const timer = setInterval(() => void sample(), 5000);
  return () => {
    clearInterval(timer);
    void admin.end();
  };
}

function scheduleFaults(
  cluster: Cluster,
  live: LiveRooms | null,
  durationMs: number,
  log: string[],
  metrics: LoadMetrics,
): Promise<void>[] {
  const at = (fraction: number, what: () => Promise<string>, fault: () => Promise<void>) =>
    pause(durationMs * fraction).then(async () => {
      const named = await what();
      const from = metrics.elapsedS();
      log.push(`${from.toFixed(0)} s: ${named}`);
      console.error(`[load] ${named}`);
      await fault();
      metrics.faults.push({ from, to: metrics.elapsedS() });
      log.push(`${metrics.elapsedS().toFixed(0)} s: ${named} — over`);
    });
  // The API nodes are alike but for the live rooms they hold: the one holding the first room dies,
  // so that room's publisher and listeners must find the other node (api-a without live rooms).
  let victim: NodeName = 'api-a';
  return [
    at(
      0.4,
      async () => {
        const holders = (await live?.holders(cluster.nodeAt).catch(() => null)) ?? [];
        victim = holders[0] === 'api-b' ? 'api-b' : 'api-a';
        live?.killed(victim, holders);
        return `kill -9 ${victim}${holders[0] ? ' (holding live room 0)' : ''} (restarted 30 s later)`;
      },
      async () => {
        await cluster.kill(victim);
        await pause(30_000);
        await cluster.start(victim);
      },
    ),
    at(
      0.6,
      async () => 'kill -9 the worker mid-processing (restarted 5 s later)',
      async () => {
        await cluster.kill('worker');
        await pause(5_000);
        await cluster.start('worker');
      },
    ),
    at(
      0.8,
      async () => 'database unreachable for 10 s',
      async () => {
        await cluster.link.cut();
        await pause(10_000);
        await cluster.link.restore();
      },
    ),
  ];
}

async function verify(cluster: Cluster, users: SimUser[], ledger: Ledger): Promise<string[]> {
  const lines: string[] = [];
  const lead = (versionId: string) => users.find((u) => u.team.versionId === versionId) ?? users[0]!;
  const counts = new Map<string, number>();
  for (const team of new Set(users.map((u) => u.team))) {
    const { comments } = await lead(team.versionId).client.api<{ comments: Comment[] }>(
      `/api/versions/${team.versionId}/comments`,
    );
    for (const comment of comments) counts.set(comment.text, (counts.get(comment.text) ?? 0) + 1);
  }
  const acked = [...ledger.comments.keys()];
  const missing = acked.filter((text) => !counts.has(text)).length;
  const doubled = [...counts.values()].filter((n) => n > 1).length;
  const unacked = [...counts.keys()].filter((text) => !ledger.comments.has(text)).length;
  lines.push(
    `comments acknowledged: ${acked.length}; missing: ${missing}; stored twice: ${doubled}; stored though the answer was lost: ${unacked}`,
  );

  const byId = async (upload: Ledger['uploads'][number]): Promise<Version | null> => {
    const project = await upload.user.client.project(upload.projectId).catch(() => null);
    return project?.versions.find((v) => v.id === upload.versionId) ?? null;
  };
  // How many are still processing, each minute of the wait: a backlog that shrinks is the worker's
  // pace; one that stands still is a stuck job.
  const waitStarted = performance.now();
  const pending: number[] = [];
  await waitFor(
    async () => {
      const left = (await Promise.all(ledger.uploads.map(byId))).filter(
        (v) => v === null || v.status === 'processing' || v.status === 'uploading',
      ).length;
      const minute = Math.floor((performance.now() - waitStarted) / 60_000);
      if (pending.length <= minute) pending.push(left);
      return left === 0;
    },
    { timeoutMs: 10 * 60_000, intervalMs: 2000, what: 'every upload processed' },
  ).catch(() => lines.push('NOT every upload left processing within 10 minutes of the end'));
  lines.push(`uploads still processing at each minute of the wait: ${pending.join(', ') || '0'}`);
  let equal = 0;
  const statuses = new Map<string, number>();
  for (const upload of ledger.uploads) {
    const version = await byId(upload);
    statuses.set(version?.status ?? 'gone', (statuses.get(version?.status ?? 'gone') ?? 0) + 1);
    const { url } = await upload.user.client.api<{ url: string }>(`/api/versions/${upload.versionId}/download`);
    const path = join(tmpdir(), `mixroom-load-check-${upload.versionId}`);
    const response = await fetch(new URL(url, cluster.url));
    const out = createWriteStream(path);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) out.write(chunk);
    await new Promise<void>((resolve) => out.end(() => resolve()));
    if ((await sha256Of(path)) === upload.source.sha256) equal++;
    rmSync(path, { force: true });
  }
  lines.push(
    `uploads completed: ${ledger.uploads.length}; SHA-256 equal to the source: ${equal}; states: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`,
  );
  lines.push(`transfers sent and downloaded intact: ${ledger.transfers}`);
  return lines;
}

export async function benchLoad(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-load-files-'));
  const metrics = new LoadMetrics();
  const small = await writeWav(join(dir, 'small.wav'), 48_000 * 4 * 2 + 44);
  const transfer = await writeWav(join(dir, 'transfer.wav'), 2 ** 20);
  const big = await Promise.all(BIG_MB.map((mb) => writeWav(join(dir, `big-${mb}.wav`), mb * 2 ** 20)));
  const progress = (what: string) => console.error(`[load ${metrics.elapsedS().toFixed(0)} s] ${what}`);
  const cluster = await startCluster(ADMIN_DATABASE_URL);
  progress(`cluster up behind ${cluster.url}`);
  const faultLog: string[] = [];
  let live: LiveRooms | null = null;
  try {
    const users = await signUpTeams(cluster.url, USERS, small, metrics);
    const ledger: Ledger = { comments: new Map(), sentAt: new Map(), uploads: [], transfers: 0 };
    progress(`${users.length} users signed up`);
    const teams = [...new Set(users.map((u) => u.team))];
    if (LIVE_ROOMS > 0) {
      live = await LiveRooms.start(cluster.url, cluster.databaseUrl, teams, LIVE_ROOMS, metrics);
      progress(
        `${live.rooms.length} live rooms on air${live.setupErrors.length ? `; not started: ${live.setupErrors.join('; ')}` : ''}`,
      );
    }
    const stopRenewal = renewTokens(cluster.url, users, metrics);
    followTeams(cluster.url, users, ledger, metrics);
    const stopSampler = startSampler(cluster, metrics);
    const durationMs = MINUTES * 60_000;
    const startedS = metrics.elapsedS();
    const until = performance.now() + durationMs;
    const cpuAtStart = { harness: process.cpuUsage(), services: await cluster.servicesCpuSeconds() };
    const faults = FAULTS ? scheduleFaults(cluster, live, durationMs, faultLog, metrics) : [];
    // Guests join while the load runs, within its first fifth (before the first fault).
    live?.scheduleJoins(durationMs * 0.2);
    const gate = new UploadGate(3);
    await Promise.all(users.map((user) => userLoop(user, cluster, { transfer, big }, gate, ledger, metrics, until)));
    await Promise.all(faults);
    const harnessCpu = process.cpuUsage(cpuAtStart.harness);
    const servicesCpuS = (await cluster.servicesCpuSeconds()) - cpuAtStart.services;
    const loadS = durationMs / 1000;
    const share = (seconds: number) => `${seconds.toFixed(0)} s, ${((100 * seconds) / loadS).toFixed(0)} % of a core`;
    const cpuLine = `CPU during the load: the harness's process (the users and the live rooms' libwebrtc peers) ${share((harnessCpu.user + harnessCpu.system) / 1e6)}; the services' process (s3rver, the database link, the balancer) ${share(servicesCpuS)}.`;
    const liveResult = live ? await live.finish() : { report: [], checks: [] };
    stopSampler();
    const reconnects = users.reduce((sum, u) => sum + (u.follower?.reconnects ?? 0), 0);
    for (const user of users) user.follower?.close();
    progress('load over; checking the data');
    // Fresh tokens for the check, ten users at a time; renewals go on while it waits for the worker's
    // backlog (minutes after 200 users' uploads: five-minute tokens expired there in a run).
    for (let i = 0; i < users.length; i += 10)
      await Promise.all(users.slice(i, i + 10).map((user) => renewUser(cluster.url, user, metrics)));
    const checks = [...liveResult.checks, ...(await verify(cluster, users, ledger).finally(stopRenewal))];
    const restarted = cluster.nodes
      .filter((n) => n.restarts > 0)
      .map((n) => `${n.name} ${n.restarts}×`)
      .join(', ');
    return [
      `### Load and soak: ${USERS} users (${live?.rooms.length ?? 0} live rooms), ${MINUTES} min, 2 API+SFU nodes + 1 worker on PostgreSQL and S3 (s3rver)`,
      '',
      `Load ran from ${startedS.toFixed(0)} s (after sign-up). Faults: ${faultLog.join('; ') || 'none'}.${restarted ? ` Nodes that exited while starting (the database away) and were started again, as a process manager would: ${restarted}.` : ''}`,
      '',
      metrics.familyTable(),
      '',
      `Errors by minute of the run: ${metrics.errorsByMinute()}.`,
      metrics.errorsOutsideFaults(),
      cpuLine,
      ...[...metrics.errors]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([what, n]) => `- ${n} × ${what}`),
      '',
      `Realtime comment delivery to the other team members: ${metrics.deliveryLine()}; socket reconnects: ${reconnects}; balancer failovers: ${await cluster.failovers()}; renewals without an answer, tried again: ${metrics.renewalsUnanswered}; users whose refresh was refused and who signed in again: ${metrics.signedOutAgain}.`,
      ...(liveResult.report.length ? ['', ...liveResult.report, ''] : []),
      `Uploads: ${(metrics.uploadedBytes / 2 ** 20).toFixed(0)} MB in ${ledger.uploads.length} files, ${(metrics.uploadedBytes / 2 ** 20 / Math.max(1, metrics.uploadMs / 1000)).toFixed(1)} MB/s per upload on average (3 at a time).`,
      '',
      metrics.nodeTable(),
      '',
      'Checked afterwards:',
      ...checks.map((line) => `- ${line}`),
    ].join('\n');
  } finally {
    await live?.close();
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
