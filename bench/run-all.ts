import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchAdminUsers } from './admin-users.bench';
import { benchCompare } from './compare.bench';
import { benchConnectors } from './connectors.bench';
import { benchHttp, benchHttpCpu } from './http.bench';
import { benchReview } from './review.bench';
import { benchProcessing } from './processing.bench';
import { benchListing, benchUpload } from './storage.bench';
import { benchTransfers } from './transfers.bench';
import { benchSeparation } from './separation.bench';
import { benchSfu } from './sfu.bench';

/** `npm run bench` runs all; `npm run bench -- http listing` picks some. */
const all = {
  http: benchHttpTable,
  httpcpu: benchHttpCpuTable,
  upload: benchUpload,
  processing: benchProcessing,
  listing: benchListing,
  review: benchReview,
  compare: benchCompare,
  admin: benchAdminTable,
  transfers: benchTransfers,
  connectors: benchConnectors,
  separation: benchSeparation,
  sfu: benchSfu,
  latency: async () => (await import('./live-latency.bench')).benchLiveLatency(),
  broadcast: async () => (await import('./broadcast.bench')).benchBroadcast(),
  // Not part of the default run: it takes LOAD_MINUTES (10) and loads the machine fully.
  load: async () => (await import('./load/load.bench')).benchLoad(),
} as const;
const picked = process.argv.slice(2).filter((name): name is keyof typeof all => name in all);

async function benchHttpTable(): Promise<string> {
  const figures = await benchHttp();
  // Each /api/me row is read against the health row of its own server (PGlite, then PostgreSQL).
  const baselineOf = (index: number) => figures[index - (index % 2)]!;
  return [
    '### API throughput (32 connections, 10 s each)',
    '',
    '| endpoint | requests/s | p50 ms | p99 ms | errors | throughput vs /api/health |',
    '|---|---|---|---|---|---|',
    ...figures.map(
      (f, i) =>
        `| ${f.endpoint} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors} | ${(f.requestsPerSecond / baselineOf(i).requestsPerSecond).toFixed(2)} |`,
    ),
  ].join('\n');
}

async function benchHttpCpuTable(): Promise<string> {
  const [health, me, healthAgain] = await benchHttpCpu();
  const healthMs = (health!.cpuMsPerRequest + healthAgain!.cpuMsPerRequest) / 2;
  return [
    '### Server CPU per request (in process, PGlite, sequential)',
    '',
    '| endpoint | CPU ms / request | requests per CPU-second vs /api/health |',
    '|---|---|---|',
    `| /api/health (mean of before and after /api/me) | ${healthMs.toFixed(3)} | 1.00 |`,
    `| /api/me | ${me!.cpuMsPerRequest.toFixed(3)} | ${(healthMs / me!.cpuMsPerRequest).toFixed(2)} |`,
  ].join('\n');
}

async function benchAdminTable(): Promise<string> {
  const figures = await benchAdminUsers();
  const baseline = figures[0]!;
  return [
    '### Admin grid over 10,001 accounts (4 connections, 10 s each)',
    '',
    '| request | requests/s | p50 ms | p99 ms | errors | p99 vs /api/health | throughput vs /api/health |',
    '|---|---|---|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.label} (\`${f.path.replace(/search=[0-9a-f-]{36}/, 'search={uid}')}\`) | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors} | ${(f.p99Ms / Math.max(1, baseline.p99Ms)).toFixed(2)} | ${(f.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} |`,
    ),
  ].join('\n');
}

console.log(`Mixroom benchmarks — ${cpus().length} cores, Node ${process.version}\n`);
const sections: string[] = [];
const everyDefault = (Object.keys(all) as (keyof typeof all)[]).filter((name) => name !== 'load');
for (const name of picked.length ? picked : everyDefault) {
  const section = await all[name]();
  console.log(`${section}\n`);
  sections.push(section);
}
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', `run-${Date.now()}.md`), sections.join('\n\n'));
// The headless WebRTC peers (@roamhq/wrtc) keep native threads that hold the process open after
// they are closed: once the figures are printed and saved, nothing is left to wait for.
process.exit(0);
