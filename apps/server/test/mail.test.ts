import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startSmtp } from './helpers/smtp';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/** The reset link from a raw MIME message (quoted-printable soft breaks undone). */
function resetToken(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(unfolded);
  if (!match?.[1]) throw new Error('no reset link in the mail');
  return match[1];
}

describe('password reset by e-mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Mixroom <mixroom@studio.test>' });
    await signInThroughOidc(server.url, { email: 'ana@studio.test', password: 'old-password', displayName: 'Ana' });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it('delivers a reset link to the SMTP peer; the new password works and the old one no longer does', async () => {
    const asked = await call(server.url, '/api/auth/password-reset', {
      method: 'POST',
      body: { email: 'ANA@studio.test' },
    });
    expect(asked.status).toBe(202);
    const mail = await waitFor(() => smtp.inbox.find((m) => m.to.includes('ana@studio.test')), {
      what: 'the reset mail',
    });
    expect(mail.from).toBe('mixroom@studio.test');
    expect(mail.raw).toContain('Subject: Reset your Mixroom password');

    const token = resetToken(mail.raw);
    const confirmed = await call(server.url, '/api/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'new-password' },
    });
    expect(confirmed.status).toBe(200);
    await expect(
      signInThroughOidc(server.url, { email: 'ana@studio.test', password: 'new-password' }, 'signin'),
    ).resolves.toHaveProperty('access_token');
    await expect(
      signInThroughOidc(server.url, { email: 'ana@studio.test', password: 'old-password' }, 'signin'),
    ).rejects.toThrow(/401/);

    const reused = await call(server.url, '/api/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'third-password' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error?.message).toBe('This reset link is invalid or has expired. Ask for a new one.');
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const before = smtp.inbox.length;
    const asked = await call(server.url, '/api/auth/password-reset', {
      method: 'POST',
      body: { email: 'nobody@studio.test' },
    });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe('If an account exists for this e-mail, a reset link is on its way.');
    // A known address asked right after proves the queue is running: the unknown one was not sent.
    await call(server.url, '/api/auth/password-reset', { method: 'POST', body: { email: 'ana@studio.test' } });
    await waitFor(() => smtp.inbox.length > before, { what: 'the second reset mail' });
    expect(smtp.inbox.slice(before).every((m) => m.to.includes('ana@studio.test'))).toBe(true);
  });

  it('limits reset mails to three an hour per account', async () => {
    for (let i = 0; i < 5; i++)
      await call(server.url, '/api/auth/password-reset', { method: 'POST', body: { email: 'ana@studio.test' } });
    await waitFor(() => smtp.inbox.filter((m) => m.to.includes('ana@studio.test')).length >= 3, {
      what: 'three reset mails',
    });
    const resets = await server.context.database.db.query.passwordResets.findMany();
    expect(resets.length).toBe(3);
  });
});

describe('mail without SMTP', () => {
  it('writes the message to the outbox folder', async () => {
    const server = await startTestServer();
    try {
      await signInThroughOidc(server.url, { email: 'leo@studio.test', password: 'leo-password' });
      await call(server.url, '/api/auth/password-reset', { method: 'POST', body: { email: 'leo@studio.test' } });
      const outbox = join(server.dataDir, 'outbox');
      const file = await waitFor(
        () => readdirSync(outbox, { withFileTypes: true }).find((f) => f.name.endsWith('.eml')),
        { what: 'an .eml in the outbox' },
      );
      const raw = readFileSync(join(outbox, file.name), 'utf8');
      expect(raw).toContain('To: leo@studio.test');
      expect(resetToken(raw).length).toBeGreaterThan(20);
    } finally {
      await server.close();
    }
  });
});
