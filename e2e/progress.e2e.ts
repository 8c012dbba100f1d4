import { mkdtempSync, openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTicket } from '@mixroom/contracts';
import { uploadFile } from '../apps/web/src/features/uploads/upload-engine';
import { generateAudio, makeAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { storageClient } from '../apps/server/test/helpers/storage-client';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, screenshot, signInAt } from './helpers/browser';

const FOLDERS = 175;
const READY = 20;
const PROCESSING = 5;
const account = { email: 'ana@progress.example.com', password: 'ana-password-1', displayName: 'Ana Mixer' };

let server: TestServer;
let browser: Browser;
let viewer: Page;
let api: ReturnType<typeof storageClient>;
let folderId: string;
let longTake: string;

/** What the viewing browser asked for and heard, from playwright's request and WebSocket events. */
const seen = {
  thumbnails: new Map<string, number>(),
  listingGets: 0,
  events: new Map<string, number>(),
  ready: new Set<string>(),
};

async function runAll<T>(items: T[], atOnce: number, work: (item: T) => Promise<unknown>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
    }),
  );
}

const listing = () => api.list(folderId, '?limit=500');

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-progress-'));
  const shortTake = makeAudio('take.wav', { dir, seconds: 0.5, sampleRate: 8000 });
  // Long enough to be decoded for a few seconds: its processing reports progress along the way.
  longTake = generateAudio(join(dir, 'long take.flac'), 'sine=frequency=220:sample_rate=44100:duration=90');
  server = await startTestServer();
  api = storageClient(server.url, (await signInThroughOidc(server.url, account)).access_token);
  folderId = (await api.createFolder('Big Session', null)).id;
  const paths = Array.from({ length: FOLDERS }, (_, i) => `Folder ${String(i + 1).padStart(3, '0')}`);
  await api.api('/api/groups/ensure', { method: 'POST', body: { parentId: folderId, paths } });
  const names = Array.from({ length: READY }, (_, i) => `Take ${String(i + 1).padStart(3, '0')}.wav`);
  await runAll(names, 6, (fileName) => api.upload(shortTake, folderId, { fileName }));
  await waitFor(
    async () => {
      const items = (await listing()).items;
      return (
        items.length === FOLDERS + READY && items.every((i) => i.kind === 'group' || i.latestVersion?.thumbnailUrl)
      );
    },
    { what: 'the seeded takes to be processed', timeoutMs: 90_000, intervalMs: 250 },
  );

  browser = await launchBrowser();
  viewer = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
  viewer.on('request', (request) => {
    const url = new URL(request.url());
    const key = url.searchParams.get('k');
    if (key?.endsWith('/waveform.png')) seen.thumbnails.set(key, (seen.thumbnails.get(key) ?? 0) + 1);
    if (request.method() === 'GET' && url.pathname === `/api/groups/${folderId}/items`) seen.listingGets++;
  });
  viewer.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as {
        type: string;
        event?: { type: string; data: { versionId?: string; status?: string } };
      };
      if (message.type !== 'event' || !message.event) return;
      const { type, data } = message.event;
      seen.events.set(type, (seen.events.get(type) ?? 0) + 1);
      if (type === 'version.progress' && data.status === 'ready' && data.versionId) seen.ready.add(data.versionId);
    }),
  );
  await signInAt(viewer, server.url, `/groups/${folderId}`, account);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const thumbnailsShown = (page: Page) =>
  page
    .locator('[data-testid="tile"] img')
    .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete).length);

describe('processing progress in a folder of 200 items', () => {
  it('shows five files processing without refetching the listing per tick, and downloads each thumbnail once', async () => {
    await expect.poll(() => thumbnailsShown(viewer), { timeout: 90_000 }).toBe(READY);
    const listingGetsBefore = seen.listingGets;
    const eventsBefore = new Map(seen.events);
    const since = (type: string) => (seen.events.get(type) ?? 0) - (eventsBefore.get(type) ?? 0);

    // Five long takes go in through the API, as another member's browser would send them.
    const file = await openAsBlob(longTake);
    const versions = await Promise.all(
      Array.from({ length: PROCESSING }, async (_, i) => {
        const ticket = await api.api<UploadTicket>('/api/projects/upload', {
          method: 'POST',
          body: { groupId: folderId, fileName: `Long Take ${i + 1}.flac`, size: file.size },
        });
        return uploadFile({ api: api.api, ticket, file });
      }),
    );
    await viewer.locator('[data-testid="tile"]', { hasText: 'Processing' }).first().waitFor({ timeout: 90_000 });
    await screenshot(viewer, 'progress-processing');
    await waitFor(() => versions.every((v) => seen.ready.has(v.id)), {
      what: 'the five takes to be ready',
      timeoutMs: 180_000,
      intervalMs: 100,
    });
    await expect.poll(() => thumbnailsShown(viewer), { timeout: 90_000 }).toBe(READY + PROCESSING);
    await expect.poll(() => viewer.locator('[data-testid="tile"]').count()).toBe(FOLDERS + READY + PROCESSING);
    await screenshot(viewer, 'progress-ready');

    const ticks = since('version.progress');
    const changes = since('storage.changed');
    const refetches = seen.listingGets - listingGetsBefore;
    console.info(
      `progress events ${ticks}, storage changes ${changes}, listing GETs ${refetches}, thumbnail requests ${[...seen.thumbnails.values()].reduce((a, b) => a + b, 0)}`,
    );
    // Every file reports at least "ready" (its thumbnail is in); a few seconds of decoding add ticks.
    expect(ticks).toBeGreaterThan(PROCESSING);
    // The listing is fetched again for items that appear (storage changes), never for a tick.
    expect(refetches).toBeLessThanOrEqual(changes);
    expect(refetches).toBeLessThan(ticks);
    expect(seen.thumbnails.size).toBe(READY + PROCESSING);
    expect([...seen.thumbnails.entries()].filter(([, count]) => count !== 1)).toEqual([]);
  }, 300_000);
});
