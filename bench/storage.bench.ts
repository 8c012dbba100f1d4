// Storage benchmarks, each against a baseline measured in the same run:
//  (a) a 1 GiB upload through the real client path (the web's upload engine → signed part URLs →
//      disk driver) vs `cp` of the same file on the same disk;
//  (b) processing an hour's WAV: see processing.bench.ts;
//  (c) listing a folder of 10,000 items and searching 100,000 items: p50/p99 over HTTP.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, openAsBlob, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { UploadTicket } from '@mixroom/contracts';
import { uploadFile } from '../apps/web/src/features/uploads/upload-engine';
import { groups, projects, versions } from '../apps/server/src/db/schema';
import { freePort } from '../apps/server/test/helpers/free-port';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { spawnServer } from '../apps/server/test/helpers/spawn-server';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { fillSignIn, launchBrowser } from '../e2e/helpers/browser';

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const time = async (fn: () => unknown) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

export async function benchUpload(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'mixroom-bench-upload-'));
  const dataDir = join(work, 'data');
  const source = join(work, 'one-gib.bin');
  for (let i = 0; i < 64; i++) writeFileSync(source, randomBytes(16 * 1024 * 1024), { flag: i === 0 ? 'w' : 'a' });
  const size = statSync(source).size;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' });
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, { timeoutMs: 60_000 });
    const client = storageClient(
      base,
      (await signInThroughOidc(base, { email: 'bench@upload.test', password: 'bench-password' })).access_token,
    );
    // Every measure starts from the same state: the source in the page cache, no writeback pending
    // (a gigabyte of dirty pages from the previous measure would throttle the next one).
    const settled = async <T>(measure: () => Promise<T>) => {
      execFileSync('sync');
      return measure();
    };
    const cpMs = await settled(() => time(() => execFileSync('cp', [source, join(work, 'copy.bin')])));
    const socketMs = await settled(() => rawSocketCopy(source, join(work, 'socket.bin')));
    const file = await openAsBlob(source);
    const ticket = await client.api<UploadTicket>('/api/projects/upload', {
      method: 'POST',
      body: { groupId: null, fileName: 'one-gib.bin', size },
    });
    const uploadMs = await settled(() => time(() => uploadFile({ api: client.api, ticket, file, concurrency: 4 })));
    const browserMs = await settled(() => uploadInChromium(base, source));
    const mbps = (ms: number) => (size / 1e6 / (ms / 1000)).toFixed(0);
    return [
      '### (a) 1 GiB upload vs cp',
      '',
      '| path | seconds | MB/s | throughput / cp |',
      '|---|---|---|---|',
      `| cp (same disk; an in-kernel copy_file_range) | ${seconds(cpMs)} | ${mbps(cpMs)} | 1.00 |`,
      `| raw TCP socket over loopback into a file (no HTTP; Node's floor for any network upload) | ${seconds(socketMs)} | ${mbps(socketMs)} | ${(cpMs / socketMs).toFixed(2)} |`,
      `| Mixroom upload from Chromium (the web app: file input → engine → signed part URLs) | ${seconds(browserMs)} | ${mbps(browserMs)} | **${(cpMs / browserMs).toFixed(2)}** |`,
      `| Mixroom upload from Node (same engine, Node fetch) | ${seconds(uploadMs)} | ${mbps(uploadMs)} | ${(cpMs / uploadMs).toFixed(2)} |`,
      '',
      'Goal: ≥ 0.7 of cp.',
    ].join('\n');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(work, { recursive: true, force: true });
  }
}

/** The bytes of `source` through one loopback TCP connection into `target`: no HTTP, no parsing. */
async function rawSocketCopy(source: string, target: string): Promise<number> {
  const received = new Promise<void>((resolve, reject) => {
    const server = createServer((socket) => {
      pipeline(socket, createWriteStream(target)).then(() => {
        server.close();
        resolve();
      }, reject);
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      started = performance.now();
      const socket = connect(port, '127.0.0.1', () => void pipeline(createReadStream(source), socket).catch(reject));
    });
  });
  let started = 0;
  await received;
  return performance.now() - started;
}

/** The real client: the web app in Chromium uploads through its file input; done at 'Finished'. */
async function uploadInChromium(base: string, source: string): Promise<number> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/public/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/oidc/interaction/**');
    await fillSignIn(page, { email: 'bench@upload.test', password: 'bench-password' });
    await page.waitForURL(`${base}/groups`);
    const started = performance.now();
    await page.locator('input[type="file"]:not([webkitdirectory])').setInputFiles(source);
    await page.locator('[data-testid="activity"]').getByText('Finished').waitFor({ timeout: 300_000 });
    return performance.now() - started;
  } finally {
    await browser.close();
  }
}

export async function benchListing(): Promise<string> {
  const server = await startTestServer();
  try {
    const { db } = server.context.database;
    const token = (await signInThroughOidc(server.url, { email: 'bench@list.test', password: 'bench-password' }))
      .access_token;
    const me = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    const words = [
      'kick',
      'snare',
      'vocal',
      'bass',
      'pad',
      'master',
      'mix',
      'stem',
      'bounce',
      'final',
      'rough',
      'edit',
    ];
    const name = (i: number) => `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`;

    const big = randomUUID();
    await db.insert(groups).values({ id: big, name: 'Ten thousand', path: [big], publisherId: me });
    const folderIds = Array.from({ length: 100 }, () => randomUUID());
    await db
      .insert(groups)
      .values(folderIds.map((id, i) => ({ id, name: `Folder ${i}`, path: [id], publisherId: me })));
    const seed = async (count: number, groupFor: (i: number) => string) => {
      for (let offset = 0; offset < count; offset += 2000) {
        const rows = Array.from({ length: Math.min(2000, count - offset) }, (_, k) => {
          const id = randomUUID();
          const gid = groupFor(offset + k);
          return {
            id,
            name: name(offset + k),
            type: 'AUDIO' as const,
            groupId: gid,
            path: [gid, id],
            publisherId: me,
            size: 1000,
            latestExtension: 'wav',
          };
        });
        await db.insert(projects).values(rows);
        await db.insert(versions).values(
          rows.map((r) => ({
            projectId: r.id,
            number: 1,
            name: r.name,
            fileName: `${r.name}.wav`,
            fileExtension: 'wav',
            fileSize: 1000,
            blobKey: `x/${r.id}`,
            status: 'ready' as const,
          })),
        );
      }
    };
    await seed(10_000, () => big);
    await seed(90_000, (i) => folderIds[i % folderIds.length]!);
    // What the hourly maintenance job does on PGlite, which has no autovacuum.
    await db.execute(sql`analyze`);

    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return response.json() as Promise<{ items: unknown[] }>;
    };
    const listed = await get(`/api/groups/${big}/items`);
    const listing: number[] = [];
    for (let i = 0; i < 30; i++) listing.push(await time(() => get(`/api/groups/${big}/items`)));
    const queries = [
      'kick',
      'vocal bass',
      'mast',
      'snare 12',
      'final',
      'stem 99',
      'rough',
      'ed',
      'pad kick 4',
      'bounce',
    ];
    const searching: number[] = [];
    for (let i = 0; i < 100; i++)
      searching.push(await time(() => get(`/api/search?q=${encodeURIComponent(queries[i % queries.length]!)}`)));
    const health: number[] = [];
    for (let i = 0; i < 30; i++) health.push(await time(() => fetch(`${server.url}/api/health`)));
    return [
      '### (c) listing 10,000 items and searching 100,000',
      '',
      `| request | items | p50 ms | p99 ms |`,
      '|---|---|---|---|',
      `| /api/health (baseline round trip) | — | ${percentile(health, 50).toFixed(1)} | ${percentile(health, 99).toFixed(1)} |`,
      `| GET /api/groups/{id}/items | ${listed.items.length} | ${percentile(listing, 50).toFixed(1)} | ${percentile(listing, 99).toFixed(1)} |`,
      `| GET /api/search (10 queries × 10, 100,000 items) | ≤ 20 | ${percentile(searching, 50).toFixed(1)} | ${percentile(searching, 99).toFixed(1)} |`,
      '',
      'Goals: listing p99 < 50 ms, search p99 < 100 ms (embedded PGlite, one connection).',
    ].join('\n');
  } finally {
    await server.close();
  }
}
