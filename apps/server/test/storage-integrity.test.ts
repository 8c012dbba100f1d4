import { randomUUID } from 'node:crypto';
import { mkdtempSync, openAsBlob, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTicket } from '@mixroom/contracts';
import { MESSAGES } from '@mixroom/shared';
import { uploadFile } from '../../web/src/features/uploads/upload-engine';
import { groups, projects, versions } from '../src/db/schema';
import { processVersionJob } from '../src/modules/storage';
import { TestClock } from '../src/platform/clock/clock';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { inviteOf } from './helpers/invite';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * What keeps the storage area whole: quotas enforced on bytes under concurrency, uploads that never
 * finish swept away, stalled processing picked up again, and the transfer area's rows never showing
 * up in storage.
 */
let server: TestServer;
const clock = new TestClock();
let ana: string;
let ed: string;
const GB = 1_000_000_000;

const upload = (token: string, fileName: string, size: number, groupId: string | null = null) =>
  call(server.url, '/api/projects/upload', { method: 'POST', token, body: { groupId, fileName, size } });
const actorOf = (token: string) => ({
  userId: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string,
  isAdmin: false,
  email: '',
  displayName: '',
});
const usage = async (token: string) =>
  (await call(server.url, '/api/storage', { token })).body as { usedBytes: number; limitBytes: number };

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  ana = (await signInThroughOidc(server.url, { email: 'ana@integrity.test', password: 'ana-password-long' }))
    .access_token;
  ed = (await signInThroughOidc(server.url, { email: 'ed@integrity.test', password: 'ed-password-long' })).access_token;
}, 120_000);
afterAll(() => server?.close());

describe('quota', () => {
  it('20 parallel uploads that together exceed the quota: the ones over it are refused, and used storage never exceeds the limit', async () => {
    const { limitBytes } = await usage(ana);
    expect(limitBytes).toBe(15 * GB);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => upload(ana, `Take ${i}.wav`, GB)));
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 413);
    expect(accepted).toHaveLength(15);
    expect(refused).toHaveLength(5);
    for (const answer of refused) expect(answer.body.error?.message).toBe(MESSAGES.storageLimit);
    expect((await usage(ana)).usedBytes).toBe(15 * GB);
    // Refused uploads leave no tile behind.
    const root = await storageClient(server.url, ana).list(null);
    expect(root.items.filter((i) => i.name.startsWith('Take '))).toHaveLength(15);
    // The owner cancels them all: every reservation is released.
    for (const answer of accepted) {
      const { version } = answer.body as { version: { id: string } };
      expect(
        (await call(server.url, `/api/versions/${version.id}/cancel`, { method: 'POST', token: ana })).status,
      ).toBe(204);
    }
    expect((await usage(ana)).usedBytes).toBe(0);
  });

  it('refuses a part longer than the share of the declared size it was signed for', async () => {
    const ticket = (await upload(ana, 'One Byte.wav', 1)).body as { upload: { id: string }; version: { id: string } };
    const { url } = (
      await call(server.url, `/api/uploads/${ticket.upload.id}/parts/1/url`, { method: 'POST', token: ana })
    ).body as { url: string };
    const put = await fetch(url, { method: 'PUT', body: Buffer.alloc(50 * 1024 * 1024, 7) });
    expect(put.status).toBe(413);
    // The unread rest of the body is not waited for: the connection ends with the answer.
    expect(put.headers.get('connection')).toBe('close');
    expect(
      (await call(server.url, `/api/versions/${ticket.version.id}/complete`, { method: 'POST', token: ana })).status,
    ).toBe(409);
    expect((await usage(ana)).usedBytes).toBe(1);
    await call(server.url, `/api/versions/${ticket.version.id}/cancel`, { method: 'POST', token: ana });
  });

  it('lets a folder’s owner cancel a collaborator’s upload that holds her quota', async () => {
    const folder = await storageClient(server.url, ana).createFolder('Shared Inbox', null);
    const edClient = storageClient(server.url, ed);
    await edClient.api('/api/join-requests', {
      method: 'POST',
      body: {
        type: 'group',
        id: folder.id,
        invite: await inviteOf(storageClient(server.url, ana), 'group', folder.id),
      },
    });
    const edId = JSON.parse(Buffer.from(ed.split('.')[1]!, 'base64url').toString()).sub as string;
    await storageClient(server.url, ana).api(`/api/join-requests/${folder.id}/${edId}/approve`, { method: 'POST' });
    await storageClient(server.url, ana).api(`/api/share/group/${folder.id}/users/${edId}`, {
      method: 'PUT',
      body: { permission: 'EDITOR' },
    });
    const ticket = (await upload(ed, 'Huge Session.wav', 12 * GB, folder.id)).body as {
      upload: { partSize: number };
      version: { id: string };
    };
    // A collaborator's declared size costs the owner nothing before bytes arrive: one part in flight.
    expect((await usage(ana)).usedBytes).toBe(ticket.upload.partSize);
    const own = await upload(ana, 'My Own.wav', 4 * GB);
    expect(own.status).toBe(201);
    for (const id of [ticket.version.id, (own.body as { version: { id: string } }).version.id])
      expect((await call(server.url, `/api/versions/${id}/cancel`, { method: 'POST', token: ana })).status).toBe(204);
    expect((await usage(ana)).usedBytes).toBe(0);

    // Its whole size must still fit when it completes: the owner filled her storage meanwhile, so it is refused.
    const path = join(mkdtempSync(join(tmpdir(), 'mixroom-integrity-')), 'Late Stems.bin');
    writeFileSync(path, Buffer.alloc(40 * 1024 * 1024, 3));
    const late = (await upload(ed, 'Late Stems.bin', 40 * 1024 * 1024, folder.id)).body as UploadTicket;
    const full = await upload(ana, 'Everything Else.wav', 15 * GB - (await usage(ana)).usedBytes - 1000);
    expect(full.status).toBe(201);
    const sent = uploadFile({ api: edClient.api, ticket: late, file: await openAsBlob(path) });
    await expect(sent).rejects.toThrow(MESSAGES.storageLimit);
    expect((await usage(ana)).usedBytes).toBe(15 * GB - 1000 - late.upload.partSize);
    const { version } = full.body as { version: { id: string } };
    expect((await call(server.url, `/api/versions/${version.id}/cancel`, { method: 'POST', token: ana })).status).toBe(
      204,
    );
    expect((await usage(ana)).usedBytes).toBe(0);
  });
});

describe('areas: transfer rows never show in storage', () => {
  it('keeps TRANSFER folders and projects out of every storage query', async () => {
    const anaId = JSON.parse(Buffer.from(ana.split('.')[1]!, 'base64url').toString()).sub as string;
    const { db } = server.context.database;
    const folderId = randomUUID();
    const projectId = randomUUID();
    const trashedId = randomUUID();
    await db
      .insert(groups)
      .values({ id: folderId, name: 'Transfer_Secret', path: [folderId], publisherId: anaId, mode: 'TRANSFER' });
    await db.insert(projects).values({
      id: projectId,
      name: 'Transfer_Secret File',
      type: 'AUDIO',
      groupId: null,
      path: [projectId],
      publisherId: anaId,
      mode: 'TRANSFER',
    });
    await db.insert(projects).values({
      id: trashedId,
      name: 'Transfer_Secret Trashed',
      type: 'ANY',
      path: [trashedId],
      publisherId: anaId,
      mode: 'TRANSFER',
      flag: 'DELETE',
      deletedAt: new Date(),
    });
    const client = storageClient(server.url, ana);
    const names = (items: { name: string }[]) =>
      items.map((i) => i.name).filter((n) => n.startsWith('Transfer_Secret'));
    expect(names((await client.list(null)).items)).toEqual([]);
    expect(names((await client.api<{ items: { name: string }[] }>('/api/trash?sort=newest')).items)).toEqual([]);
    expect(names((await client.api<{ items: { name: string }[] }>('/api/search?q=Transfer_Secret')).items)).toEqual([]);
    expect((await call(server.url, `/api/groups/${folderId}/items`, { token: ana })).status).toBe(404);
    expect((await call(server.url, `/api/projects/${projectId}`, { token: ana })).status).toBe(404);
    expect(
      (
        await call(server.url, '/api/downloads/zip', {
          method: 'POST',
          token: ana,
          body: { items: [{ kind: 'project', id: projectId }] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(server.url, '/api/items/trash', {
          method: 'POST',
          token: ana,
          body: { items: [{ kind: 'group', id: folderId }] },
        })
      ).status,
    ).toBe(404);
    const folders = await client.api<{ folders: { id: string }[] }>('/api/folders');
    expect(folders.folders.map((f) => f.id)).not.toContain(folderId);
  });
});

describe('signed URLs (time moved through the clock seam)', () => {
  it('a file URL stops working minutes after it was handed out, whoever holds it', async () => {
    const { ticket } = await storageClient(server.url, ed).upload(makeAudio('Short Lived.wav', { seconds: 1 }), null);
    const { url } = (await call(server.url, `/api/versions/${ticket.version.id}/download`, { token: ed })).body as {
      url: string;
    };
    const absolute = url.startsWith('http') ? url : `${server.url}${url}`;
    expect((await fetch(absolute, { headers: { range: 'bytes=0-3' } })).status).toBe(206);
    clock.advance(6 * 60_000);
    expect((await fetch(absolute, { headers: { range: 'bytes=0-3' } })).status).toBe(403);
    clock.set(new Date());
  });
});

describe('the sweeper (time moved through the clock seam)', () => {
  it('removes an upload abandoned mid-way: no tile, no reservation', async () => {
    const answer = (await upload(ana, 'Abandoned.wav', 2 * GB)).body as { project: { id: string } };
    expect((await storageClient(server.url, ana).list(null)).items.map((i) => i.id)).toContain(answer.project.id);
    expect((await server.context.services.storage.sweeper.run()).dropped).toBe(0);
    clock.advance(25 * 3_600_000);
    expect((await server.context.services.storage.sweeper.run()).dropped).toBeGreaterThanOrEqual(1);
    // Asked through the services: a day later the test's access token has expired too.
    const { storage } = server.context.services;
    const root = await storage.groups.list(actorOf(ana), null, {
      offset: 0,
      limit: 200,
      sort: 'alphabetical',
      owner: 'all',
      kind: 'all',
    });
    expect(root.items.map((i) => i.id)).not.toContain(answer.project.id);
    expect((await storage.usage(actorOf(ana).userId)).usedBytes).toBe(0);
    clock.set(new Date());
  });

  it('a "Creating…" project deleted for good closes its upload: no part lands afterwards', async () => {
    const ticket = (await upload(ana, 'Half Sent.wav', 20 * 1024 * 1024)).body as {
      upload: { id: string };
      project: { id: string };
    };
    const { url } = (
      await call(server.url, `/api/uploads/${ticket.upload.id}/parts/1/url`, { method: 'POST', token: ana })
    ).body as { url: string };
    await call(server.url, '/api/items/trash', {
      method: 'POST',
      token: ana,
      body: { items: [{ kind: 'project', id: ticket.project.id }] },
    });
    expect(
      (
        await call(server.url, '/api/items/delete', {
          method: 'POST',
          token: ana,
          body: { items: [{ kind: 'project', id: ticket.project.id }] },
        })
      ).status,
    ).toBe(204);
    const late = await fetch(url, { method: 'PUT', body: Buffer.alloc(1024, 1) });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(
      (await call(server.url, `/api/uploads/${ticket.upload.id}/parts/1/url`, { method: 'POST', token: ana })).status,
    ).toBe(409);
    expect((await usage(ana)).usedBytes).toBe(0);
  });

  it('an aborted session does not leave its project "Creating…" holding quota: the next sweep removes it', async () => {
    const ticket = (await upload(ana, 'Aborted.wav', GB)).body as { upload: { id: string }; project: { id: string } };
    await server.context.services.uploads.abortSession(ticket.upload.id);
    expect((await usage(ana)).usedBytes).toBe(GB);
    expect((await server.context.services.storage.sweeper.run()).dropped).toBe(1);
    expect((await storageClient(server.url, ana).list(null)).items.map((i) => i.id)).not.toContain(ticket.project.id);
    expect((await usage(ana)).usedBytes).toBe(0);
  });

  it('runs a version stuck in processing again once its job stops beating, and it finishes', async () => {
    const { ticket } = await storageClient(server.url, ana).upload(makeAudio('Stuck.wav', { seconds: 1 }), null);
    await waitFor(
      async () => (await storageClient(server.url, ana).project(ticket.project.id)).versions[0]?.progress === 100,
      { what: 'first processing' },
    );
    // As a node that died mid-job leaves it: processing, 35%, its stage still running in pg-boss
    // (one job per version: its id comes from the version), its last heartbeat just now.
    const { db } = server.context.database;
    const { jobs } = server.context;
    const jobId = processVersionJob.jobIdOf({ versionId: ticket.version.id });
    await db.update(versions).set({ status: 'processing', progress: 35 }).where(eq(versions.id, ticket.version.id));
    await db.execute(
      sql`update pgboss.job set state = 'active', completed_on = null, heartbeat_on = now() where id = ${jobId}`,
    );
    // A slow job still beating is left alone.
    await jobs.supervise(processVersionJob.name);
    expect(await jobs.state(processVersionJob.name, jobId)).toBe('active');
    // Its heartbeat older than heartbeatSeconds: pg-boss fails the attempt and runs the job again.
    await db.execute(
      sql`update pgboss.job set heartbeat_on = now() - make_interval(secs => ${processVersionJob.heartbeatSeconds + 1}) where id = ${jobId}`,
    );
    await jobs.supervise(processVersionJob.name);
    await waitFor(
      async () => {
        const [row] = await db.select().from(versions).where(eq(versions.id, ticket.version.id));
        return row?.status === 'ready' && row.progress === 100;
      },
      { what: 'processing again' },
    );
    // The version is ready before its job's last step (the lossy preview) ends: the job then completes.
    await waitFor(async () => (await jobs.state(processVersionJob.name, jobId)) === 'completed', {
      what: 'the job completed',
    });
  });
});
