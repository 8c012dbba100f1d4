import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchHttp } from './http.bench';

const figures = await benchHttp();
const [baseline, ...rest] = figures;
console.log(
  `\nMixroom API benchmark — ${cpus().length} cores, Node ${process.version}, embedded PGlite, ${process.env.BENCH_DURATION ?? 10} s per endpoint, 32 connections\n`,
);
console.log('| endpoint | requests/s | p50 ms | p99 ms | errors | throughput vs /api/health |');
console.log('|---|---|---|---|---|---|');
for (const f of figures) {
  const ratio = baseline ? (f.requestsPerSecond / baseline.requestsPerSecond).toFixed(2) : '—';
  console.log(`| ${f.endpoint} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors} | ${ratio} |`);
}
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'http.json'), JSON.stringify({ at: new Date().toISOString(), figures, rest }, null, 2));
