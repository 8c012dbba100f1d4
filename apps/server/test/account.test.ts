import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_MESSAGES } from '@mixroom/shared';
import { users } from '../src/db/schema';
import { WRONG_CURRENT_PASSWORD } from '../src/modules/sign-in/sign-in.service';
import { EMAIL_CHANGE_RULE, TOO_MANY_EMAIL_CHANGES } from '../src/modules/users/profile.service';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startSmtp } from './helpers/smtp';
import { storageClient } from './helpers/storage-client';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import type { TestClock } from '../src/platform/clock/clock';

/**
 * The signed-in user's own account, over HTTP against one server with a real SMTP peer: display
 * name rules, profile picture, e-mail change, notification channels, "download my data" and deletion.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer & { clock: TestClock };
const scratch = mkdtempSync(join(tmpdir(), 'mixroom-account-'));
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

describe('display name', () => {
  it('follows the shared name rules and is trimmed', async () => {
    const token = await tokenOf('names@studio.test');
    const empty = await call(server.url, '/api/me', { method: 'PATCH', token, body: { displayName: '   ' } });
    expect(empty.status).toBe(400);
    const reversed = await call(server.url, '/api/me', {
      method: 'PATCH',
      token,
      body: { displayName: 'Ana \u202Eevil' },
    });
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body)).toContain(NAME_MESSAGES.direction);
    const long = await call(server.url, '/api/me', { method: 'PATCH', token, body: { displayName: 'x'.repeat(81) } });
    expect(long.status).toBe(400);
    const ok = await call(server.url, '/api/me', { method: 'PATCH', token, body: { displayName: '  Ana Lee ' } });
    expect(ok.status).toBe(200);
    expect(ok.body.displayName).toBe('Ana Lee');
    expect((await call(server.url, '/api/me', { token })).body.displayName).toBe('Ana Lee');
  });
});

describe('profile picture', () => {
  it('stores a 256×256 JPEG behind a signed URL, replaces it, and refuses what is not a picture', async () => {
    const token = await tokenOf('picture@studio.test');
    const png = join(scratch, 'wide.png');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=s=640x480', '-frames:v', '1', '-y', png]);
    const set = await call(server.url, '/api/me/photo', {
      method: 'PUT',
      token,
      body: { image: readFileSync(png).toString('base64') },
    });
    expect(set.status).toBe(200);
    const photoUrl = set.body.photoUrl as string;
    expect(photoUrl).toMatch(/^\/api\/avatars\/[\w-]+$/);

    // Anyone shown the avatar (an <img>, no token) is redirected to the image's signed URL.
    const redirect = await fetch(`${server.url}${photoUrl}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const image = await fetch(new URL(redirect.headers.get('location')!, server.url));
    expect(image.status).toBe(200);
    const stored = join(scratch, 'avatar.jpg');
    writeFileSync(stored, Buffer.from(await image.arrayBuffer()));
    const probed = execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,width,height',
      '-of',
      'csv=p=0',
      stored,
    ]).toString();
    expect(probed.trim()).toBe('mjpeg,256,256');

    const notPicture = await call(server.url, '/api/me/photo', {
      method: 'PUT',
      token,
      body: { image: Buffer.from('#!/bin/sh\necho not an image\n').toString('base64') },
    });
    expect(notPicture.status).toBe(400);
    expect(notPicture.body.error?.message).toBe('Please choose a PNG, JPEG or WebP picture.');

    const removed = await call(server.url, '/api/me/photo', { method: 'DELETE', token });
    expect(removed.body.photoUrl).toBeNull();
    expect((await fetch(`${server.url}${photoUrl}`, { redirect: 'manual' })).status).toBe(404);
    const [row] = await server.context.database.db
      .select()
      .from(users)
      .where(eq(users.id, userIdOf(token)));
    expect(row?.photoKey).toBeNull();
    expect(existsSync(join(server.dataDir, 'blobs', 'objects', 'avatars'))).toBe(true);
    expect(readdirSync(join(server.dataDir, 'blobs', 'objects', 'avatars')).filter((f) => f.endsWith('.jpg'))).toEqual(
      [],
    );
  });
});

describe('e-mail change', () => {
  it('changes the address only after the click in the mail to the new one, tells the old one, and signs in with the new', async () => {
    const token = await tokenOf('old@studio.test');
    const asked = await call(server.url, '/api/me/email', {
      method: 'POST',
      token,
      body: { email: 'New@Studio.test', currentPassword: 'old@studio.test-password' },
    });
    expect(asked.status).toBe(202);
    const first = await mailTo('new@studio.test', 'Confirm your new Mixroom e-mail address');
    const me = await call(server.url, '/api/me', { token });
    expect(me.body.email).toBe('old@studio.test');
    expect(me.body.pendingEmail).toBe('new@studio.test');

    // The link lives a day, by the server's clock.
    server.clock.advance(25 * HOUR);
    const stale = linkIn(first.raw, /confirm-email\?token=[\w-]+/).split('token=')[1]!;
    const expired = await call(server.url, '/api/email-change/confirm', { method: 'POST', body: { token: stale } });
    expect(expired.status).toBe(400);
    // Back to the present: the provider signs tokens by the wall clock, which the test can't move.
    server.clock.advance(-25 * HOUR);
    expect((await call(server.url, '/api/me', { token })).body.email).toBe('old@studio.test');

    const fresh = await tokenOf('old@studio.test', 'signin');
    await call(server.url, '/api/me/email', {
      method: 'POST',
      token: fresh,
      body: { email: 'new@studio.test', currentPassword: 'old@studio.test-password' },
    });
    const second = await waitFor(
      () => smtp.inbox.filter((m) => m.to.includes('new@studio.test')).find((m) => m !== first),
      { what: 'the second confirmation' },
    );
    const token2 = linkIn(second.raw, /confirm-email\?token=[\w-]+/).split('token=')[1]!;
    const confirmed = await call(server.url, '/api/email-change/confirm', { method: 'POST', body: { token: token2 } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.email).toBe('new@studio.test');
    await mailTo('old@studio.test', 'Your Mixroom e-mail address was changed');
    const again = await call(server.url, '/api/email-change/confirm', { method: 'POST', body: { token: token2 } });
    expect(again.status).toBe(400);

    const signedIn = await tokenOf('new@studio.test', 'signin', 'old@studio.test-password');
    expect(userIdOf(signedIn)).toBe(userIdOf(token));
    expect((await call(server.url, '/api/me', { token: signedIn })).body.email).toBe('new@studio.test');
    await expect(tokenOf('old@studio.test', 'signin')).rejects.toThrow(/401/);
  });

  it('answers an address another account has like any other, and mails nothing there', async () => {
    const token = await tokenOf('taken-a@studio.test');
    await tokenOf('taken-b@studio.test');
    const ask = (email: string) =>
      call(server.url, '/api/me/email', {
        method: 'POST',
        token,
        body: { email, currentPassword: 'taken-a@studio.test-password' },
      });
    const taken = await ask('taken-b@studio.test');
    const free = await ask('free-c@studio.test');
    expect(taken.status).toBe(202);
    expect(free.status).toBe(202);
    expect(taken.body.message).toBe(free.body.message);
    await mailTo('free-c@studio.test', 'Confirm your new Mixroom e-mail address');
    // The free address's mail was sent after the taken one's would have been: none went there.
    expect(smtp.inbox.filter((m) => m.to.includes('taken-b@studio.test'))).toEqual([]);
  });

  it('asks for the current password, and sends at most 5 links an hour', async () => {
    const token = await tokenOf('mover@studio.test');
    const ask = (email: string, currentPassword: string) =>
      fetch(`${server.url}/api/me/email`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, currentPassword }),
      });
    expect(
      (await call(server.url, '/api/me/email', { method: 'POST', token, body: { email: 'x@studio.test' } })).status,
    ).toBe(400);
    const wrong = await ask('target-x@studio.test', 'not-my-password');
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'WRONG_PASSWORD',
      message: WRONG_CURRENT_PASSWORD,
    });
    const statuses = [];
    for (let i = 0; i < EMAIL_CHANGE_RULE.allowance + 3; i++)
      statuses.push((await ask(`target-${i}@studio.test`, 'mover@studio.test-password')).status);
    expect(statuses).toEqual([...Array(EMAIL_CHANGE_RULE.allowance).fill(202), 429, 429, 429]);
    const refused = await ask('target-9@studio.test', 'mover@studio.test-password');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(TOO_MANY_EMAIL_CHANGES);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await mailTo(`target-${EMAIL_CHANGE_RULE.allowance - 1}@studio.test`, 'Confirm your new Mixroom e-mail address');
    expect(smtp.inbox.filter((m) => m.to.some((to) => /^target-\d@studio\.test$/.test(to))).length).toBe(
      EMAIL_CHANGE_RULE.allowance,
    );
  });
});

describe('notification preferences', () => {
  it('are stored per user, and an invitation mail is not sent to an address that turned e-mail off', async () => {
    const quiet = await tokenOf('quiet@studio.test');
    const saved = await call(server.url, '/api/me/notifications', {
      method: 'PUT',
      token: quiet,
      body: { email: false, push: false, inApp: true },
    });
    expect(saved.body).toEqual({ email: false, push: false, inApp: true });
    expect((await call(server.url, '/api/me', { token: quiet })).body.notifications).toEqual(saved.body);
    const otherDefaults = await call(server.url, '/api/me/notifications', { token: await tokenOf('loud@studio.test') });
    expect(otherDefaults.body).toEqual({ email: true, push: true, inApp: true });

    const owner = storageClient(server.url, await tokenOf('inviter@studio.test'));
    const folder = await owner.createFolder('Invites', null);
    // One queue sends mails in order: once the second has arrived, the first was decided.
    await owner.api(`/api/share/group/${folder.id}/invitations`, {
      method: 'POST',
      body: { emails: ['quiet@studio.test'] },
    });
    await owner.api(`/api/share/group/${folder.id}/invitations`, {
      method: 'POST',
      body: { emails: ['loud@studio.test'] },
    });
    await mailTo('loud@studio.test', 'Invites');
    expect(smtp.inbox.filter((m) => m.to.includes('quiet@studio.test'))).toEqual([]);
  });
});
