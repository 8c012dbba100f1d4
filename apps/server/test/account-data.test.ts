import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTicket } from '@mixroom/contracts';
import { adminAudit, billingSubscriptions, memberships, planGrants, uploads, users } from '../src/db/schema';
import { DELETION_MESSAGES } from '../src/modules/users/account-deletion.service';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { startClockedServer } from './helpers/clocked-server';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startSmtp } from './helpers/smtp';
import { storageClient } from './helpers/storage-client';
import { sendTransfer, transferForm } from './helpers/transfers';
import type { TestServer } from './helpers/test-server';
import { unzip } from './helpers/unzip';
import { waitFor } from './helpers/wait-for';
import type { TestClock } from '../src/platform/clock/clock';

/**
 * The signed-in user's own account, over HTTP against one server with a real SMTP peer: display
 * name rules, profile picture, e-mail change, notification channels, "download my data" and deletion.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer & { clock: TestClock };

const HOUR = 3_600_000;

/** A link of a raw MIME message (quoted-printable soft breaks undone). */
function linkIn(raw: string, pattern: RegExp): string {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = pattern.exec(unfolded);
  if (!match?.[0]) throw new Error(`no link matching ${pattern} in the mail`);
  return match[0];
}
const mailTo = (address: string, subject: string) =>
  waitFor(() => smtp.inbox.find((m) => m.to.includes(address) && m.raw.includes(subject)), {
    what: `"${subject}" to ${address}`,
  });
const tokenOf = async (email: string, mode: 'signup' | 'signin' = 'signup', password = `${email}-password`) =>
  (await signInThroughOidc(server.url, { email, password, displayName: email.split('@')[0]! }, mode)).access_token;
const userIdOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startClockedServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Mixroom <mixroom@studio.test>' });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

describe('download my data', () => {
  it('a job builds a ZIP of projects, comments, notes, transfers and the profile, mailed as a signed expiring link', async () => {
    const token = await tokenOf('export@studio.test');
    const me = storageClient(server.url, token);
    const folder = await me.createFolder('Album', null);
    const audio = makeAudio('Song.wav', { seconds: 1 });
    const { ticket } = await me.upload(audio, folder.id);
    await waitFor(async () => (await me.project(ticket.project.id)).versions[0]?.status === 'ready', {
      what: 'processing',
      timeoutMs: 60_000,
    });
    await me.api(`/api/versions/${ticket.version.id}/comments`, {
      method: 'POST',
      body: { type: 'timestamp', startTime: 0.5, text: 'Kick too loud' },
    });
    await me.api(`/api/versions/${ticket.version.id}/note`, { method: 'PUT', body: { html: '<p>Mix notes</p>' } });
    const size = readFileSync(audio).length;
    await sendTransfer(
      server.url,
      token,
      transferForm({ name: 'Stems for Mia', files: [{ path: '', fileName: 'Song.wav', size }] }),
      [audio],
    );

    const started = await call(server.url, '/api/me/exports', { method: 'POST', token });
    expect(started.status).toBe(202);
    const twice = await call(server.url, '/api/me/exports', { method: 'POST', token });
    expect([202, 409]).toContain(twice.status);
    const ready = await waitFor(
      async () => {
        const list = await call(server.url, '/api/me/exports', { token });
        const found = (list.body.exports as { id: string; status: string; downloadUrl: string | null }[]).find(
          (e) => e.id === started.body.id,
        );
        return found?.status === 'ready' ? found : null;
      },
      { what: 'the archive', timeoutMs: 20_000 },
    );
    const mail = await mailTo('export@studio.test', 'Your Mixroom data is ready to download');
    const link = linkIn(mail.raw, /https?:\/\/[^\s"<>]+\/api\/exports\/[\w-]+\/download\?token=[\w.%-]+/);
    expect(ready.downloadUrl).toContain(`/api/exports/${started.body.id as string}/download?token=`);

    const zip = await fetch(link);
    expect(zip.status).toBe(200);
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()));
    expect(entries.get('projects/Album/Song/v1 Song.wav')?.equals(readFileSync(audio))).toBe(true);
    expect(entries.get('projects/Album/Song/v1 notes.html')?.toString()).toContain('Mix notes');
    const comments = JSON.parse(entries.get('comments.json')!.toString()) as { text: string; projectName: string }[];
    expect(comments).toEqual([expect.objectContaining({ text: 'Kick too loud', projectName: 'Song' })]);
    const profile = JSON.parse(entries.get('account/profile.json')!.toString()) as { email: string };
    expect(profile.email).toBe('export@studio.test');
    expect(JSON.parse(entries.get('projects.json')!.toString())).toHaveLength(1);
    // Transfers' metadata only: what was sent, to whom, and the checksums, not the files again.
    const sent = JSON.parse(entries.get('transfer-deliveries.json')!.toString()) as {
      name: string;
      files: { fileName: string; size: number; sha256: string | null }[];
    }[];
    expect(sent.map((t) => [t.name, t.files.map((f) => [f.fileName, f.size])])).toEqual([
      ['Stems for Mia', [['Song.wav', size]]],
    ]);

    server.clock.advance(8 * 24 * HOUR);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(410);
    server.clock.advance(-8 * 24 * HOUR);
    const forged = link.replace(/token=[^&]+/, 'token=forged.0123456789abcdef');
    expect((await fetch(forged, { redirect: 'manual' })).status).toBe(404);
  });
});

describe('delete account', () => {
  it('is refused with a wrong e-mail and while a paid subscription runs', async () => {
    const token = await tokenOf('subscriber@studio.test');
    const wrong = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'someone@studio.test' },
    });
    expect(wrong.status).toBe(400);
    await server.context.database.db.insert(billingSubscriptions).values({
      externalId: 'sub_delete_test',
      userId: userIdOf(token),
      shopSku: 'STUDIO',
      sku: 'STUDIO',
      interval: 'month',
      status: 'active',
      startsAt: server.clock.now(),
      endsAt: new Date(server.clock.now().getTime() + 30 * 24 * HOUR),
    });
    const refused = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'subscriber@studio.test' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toContain('active paid subscription');
    expect((await call(server.url, '/api/me', { token })).status).toBe(200);
    const anonymous = await call(server.url, '/api/me/deletion', { method: 'POST', body: { email: 'x@y.z' } });
    expect(anonymous.status).toBe(401);
  });

  it('signs out at once, removes rows and blobs, and tells the members of shared items', async () => {
    const token = await tokenOf('leaving@studio.test');
    const userId = userIdOf(token);
    const me = storageClient(server.url, token);
    const folder = await me.createFolder('Shared album', null);
    const { ticket } = await me.upload(makeAudio('Gone.wav', { seconds: 1 }), folder.id);
    await waitFor(async () => (await me.project(ticket.project.id)).versions[0]?.status === 'ready', {
      what: 'processing',
      timeoutMs: 60_000,
    });
    const friend = await tokenOf('friend@studio.test');
    const { db } = server.context.database;
    await db
      .insert(memberships)
      .values({ resourceId: folder.id, resourceType: 'group', userId: userIdOf(friend), permission: 'EDITOR' });
    const projectDir = join(server.dataDir, 'blobs', 'objects', 'projects', ticket.project.id);
    expect(existsSync(projectDir)).toBe(true);
    // An upload left halfway: its part is stored, but it is no blob yet, so no key prefix covers it.
    const half = await me.api<UploadTicket>('/api/projects/upload', {
      method: 'POST',
      body: { groupId: folder.id, fileName: 'Half.wav', size: 2_000 },
    });
    const { url } = await me.api<{ url: string }>(`/api/uploads/${half.upload.id}/parts/1/url`, { method: 'POST' });
    expect((await fetch(new URL(url, server.url), { method: 'PUT', body: Buffer.alloc(2_000, 7) })).ok).toBe(true);
    const [open] = await db.select().from(uploads).where(eq(uploads.id, half.upload.id));
    const partDir = join(server.dataDir, 'blobs', 'multipart', open!.driverUploadId);
    expect(existsSync(partDir)).toBe(true);

    const deleted = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'Leaving@Studio.test' },
    });
    expect(deleted.status).toBe(202);
    expect((await call(server.url, '/api/me', { token })).status).toBe(401);

    await waitFor(async () => (await db.select().from(users).where(eq(users.id, userId))).length === 0, {
      what: 'the user row gone',
      timeoutMs: 20_000,
    });
    expect(existsSync(projectDir)).toBe(false);
    expect(existsSync(partDir)).toBe(false);
    expect(await db.select().from(memberships).where(eq(memberships.resourceId, folder.id))).toEqual([]);
    const listing = await call(server.url, '/api/groups/root/items', { token: friend });
    expect(JSON.stringify(listing.body)).not.toContain('Shared album');
    const notice = await mailTo('friend@studio.test', 'Shared items removed');
    expect(notice.raw.replace(/=\r?\n/g, '')).toContain('leaving deleted their account');
    await mailTo('leaving@studio.test', 'Your Mixroom account was deleted');
    await expect(tokenOf('leaving@studio.test', 'signin')).rejects.toThrow();
  });

  it('asks again while a plan given by an administrator runs, and leaves the operator an audit entry without the e-mail or name', async () => {
    const token = await tokenOf('granted@studio.test');
    const userId = userIdOf(token);
    const { db } = server.context.database;
    const now = server.clock.now();
    await db.insert(planGrants).values({
      userId,
      sku: 'STUDIO',
      startsAt: new Date(now.getTime() - HOUR),
      endsAt: new Date(now.getTime() + 30 * 24 * HOUR),
    });
    // What the admin area wrote when the plan was given: it names the account by its e-mail.
    await db.insert(adminAudit).values({
      actorLabel: 'admin@studio.test',
      targetUserId: userId,
      targetLabel: 'granted@studio.test',
      action: 'plan.granted',
      after: { sku: 'STUDIO' },
    });
    const first = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'granted@studio.test' },
    });
    expect(first.status).toBe(409);
    expect(first.body.error).toEqual({ code: 'PLAN_GRANTED', message: DELETION_MESSAGES.planGranted('Studio') });
    expect((await call(server.url, '/api/me', { token })).status).toBe(200);
    expect(await db.select().from(adminAudit).where(eq(adminAudit.actorId, userId))).toEqual([]);

    const confirmed = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'granted@studio.test', endGrantedPlans: true },
    });
    expect(confirmed.status).toBe(202);
    expect(confirmed.body.message).toBe(DELETION_MESSAGES.started);
    await waitFor(async () => (await db.select().from(users).where(eq(users.id, userId))).length === 0, {
      what: 'the user row gone',
      timeoutMs: 20_000,
    });
    const entries = await db.select().from(adminAudit).where(eq(adminAudit.targetLabel, userId));
    expect(entries.map((e) => e.action).sort()).toEqual(['account.deleted', 'plan.granted']);
    const deletion = entries.find((e) => e.action === 'account.deleted')!;
    expect(deletion).toMatchObject({
      actorLabel: userId,
      targetLabel: userId,
      after: { note: 'Deleted by its owner', endedGrantedPlans: ['Studio'] },
    });
    expect(JSON.stringify(entries)).not.toContain('granted@studio.test');
  });

  it('removes the "download my data" archives (copies of the files) with the account', async () => {
    const token = await tokenOf('archived@studio.test');
    const userId = userIdOf(token);
    await storageClient(server.url, token).upload(makeAudio('Copied.wav', { seconds: 1 }), null);
    const started = await call(server.url, '/api/me/exports', { method: 'POST', token });
    expect(started.status).toBe(202);
    await waitFor(
      async () =>
        ((await call(server.url, '/api/me/exports', { token })).body.exports as { status: string }[]).some(
          (e) => e.status === 'ready',
        ),
      { what: 'the archive', timeoutMs: 20_000 },
    );
    const archives = join(server.dataDir, 'blobs', 'objects', 'exports', userId);
    expect(readdirSync(archives)).toHaveLength(1);

    const deleted = await call(server.url, '/api/me/deletion', {
      method: 'POST',
      token,
      body: { email: 'archived@studio.test' },
    });
    expect(deleted.status).toBe(202);
    const { db } = server.context.database;
    await waitFor(async () => (await db.select().from(users).where(eq(users.id, userId))).length === 0, {
      what: 'the user row gone',
      timeoutMs: 20_000,
    });
    expect(existsSync(archives)).toBe(false);
  });
});
