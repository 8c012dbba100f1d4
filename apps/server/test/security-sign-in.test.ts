import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPasswordStrength } from '@mixroom/shared';
import { shareLinks } from '../src/db/schema';
import { SIGN_UP_CHECK_MAIL, SIGN_UP_RULE } from '../src/modules/sign-in/sign-in.service';
import { INVITE_LOOKUP_RULE, TOO_MANY_INVITE_LOOKUPS } from '../src/modules/sharing/invite-lookups.service';
import { SIGN_IN_RULES, TOO_MANY_SIGN_IN_ATTEMPTS } from '../src/platform/security/attempt-limiter';
import { PASSWORD_TOO_COMMON } from '../src/platform/security/common-passwords';
import { call } from './helpers/api';
import { startClockedServer } from './helpers/clocked-server';
import { inviteCode } from './helpers/invite';
import { finish, startInteraction, submit } from './helpers/oidc-interaction';
import { storageClient } from './helpers/storage-client';
import { waitFor } from './helpers/wait-for';

let server: Awaited<ReturnType<typeof startClockedServer>>;
const victim = { displayName: 'Vic', email: 'vic@abuse.test', password: 'vic-real-password' };

beforeAll(async () => {
  // As behind a reverse proxy: each request's address comes from X-Forwarded-For, so a test can be two places.
  server = await startClockedServer({ TRUST_PROXY: 'true' });
  const interaction = await startInteraction(server.url);
  const created = await submit(interaction, 'signup', victim);
  await finish(interaction, created.redirectTo!);
});
afterAll(async () => {
  await server.close();
});

const ATTACKER = '203.0.113.66';
const VICTIM_HOME = '198.51.100.20';

describe('password guessing', () => {
  it('refuses after five wrong passwords from one address, with the clear message and Retry-After, for 30 tries', async () => {
    const interaction = await startInteraction(server.url);
    const answers = [];
    for (let i = 0; i < 30; i++)
      answers.push(await submit(interaction, 'login', { email: victim.email, password: `guess-${i}` }, ATTACKER));
    const allowance = SIGN_IN_RULES.accountAddress.allowance;
    expect(answers.slice(0, allowance).map((a) => a.status)).toEqual(Array(allowance).fill(401));
    expect(answers.slice(allowance).map((a) => a.status)).toEqual(Array(30 - allowance).fill(429));
    expect(answers[29]!.error).toEqual({ code: 'RATE_LIMITED', message: TOO_MANY_SIGN_IN_ATTEMPTS });
    expect(Number(answers[29]!.retryAfter)).toBeGreaterThan(0);
    // Even the right password is refused from the attacker's address while it is blocked.
    expect(
      (await submit(interaction, 'login', { email: victim.email, password: victim.password }, ATTACKER)).status,
    ).toBe(429);
  });

  it('still lets the owner sign in from another address', async () => {
    const interaction = await startInteraction(server.url);
    const answer = await submit(interaction, 'login', { email: victim.email, password: victim.password }, VICTIM_HOME);
    expect(answer.status).toBe(200);
    const tokens = await finish(interaction, answer.redirectTo!);
    expect((await call(server.url, '/api/me', { token: tokens.access_token })).body).toMatchObject({
      email: victim.email,
    });
  });

  it('slows down more with each failure after the block ends', async () => {
    const interaction = await startInteraction(server.url);
    server.clock.advance(SIGN_IN_RULES.accountAddress.baseBlockMs + 1000);
    const again = await submit(interaction, 'login', { email: victim.email, password: 'guess-again' }, ATTACKER);
    expect(again.status).toBe(401);
    const refused = await submit(interaction, 'login', { email: victim.email, password: 'guess-more' }, ATTACKER);
    expect(refused.status).toBe(429);
    // The sixth failure doubles the first block.
    expect(Number(refused.retryAfter)).toBe((2 * SIGN_IN_RULES.accountAddress.baseBlockMs) / 1000);
  });

  it('limits one address walking through many accounts', async () => {
    const interaction = await startInteraction(server.url);
    const sprayer = '192.0.2.77';
    const statuses = [];
    for (let i = 0; i < SIGN_IN_RULES.address.allowance + 1; i++) {
      statuses.push(
        (await submit(interaction, 'login', { email: `user${i}@abuse.test`, password: 'Winter2026!' }, sprayer)).status,
      );
    }
    expect(statuses.slice(0, SIGN_IN_RULES.address.allowance).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The owner elsewhere is not affected.
    expect(
      (await submit(interaction, 'login', { email: victim.email, password: victim.password }, VICTIM_HOME)).status,
    ).toBe(200);
  });

  it('keeps the counts in the database, where every node sees them', async () => {
    const rows = await server.context.database.db.query.attemptLimits.findMany();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.blockedUntil && r.blockedUntil > server.clock.now())).toBe(true);
    // Keys are hashes: the table holds neither e-mails nor addresses.
    expect(rows.every((r) => !r.key.includes('@') && !r.key.includes(ATTACKER))).toBe(true);
  });
});

describe('new passwords', () => {
  it('refuses a common password at sign-up with a clear message', async () => {
    const interaction = await startInteraction(server.url);
    const answer = await submit(interaction, 'signup', {
      displayName: 'Com',
      email: 'common@abuse.test',
      password: '12345678',
    });
    expect(answer.status).toBe(400);
    expect(answer.error).toEqual({ code: 'PASSWORD_TOO_COMMON', message: PASSWORD_TOO_COMMON });
    expect(
      (await submit(interaction, 'signup', { displayName: 'Com', email: 'common@abuse.test', password: 'Password1' }))
        .status,
    ).toBe(400);
  });

  it('refuses guessable passwords at sign-up, saying why', async () => {
    const interaction = await startInteraction(server.url);
    const account = { displayName: 'Rita Weak', email: 'rita@abuse.test' };
    const expectations: [string, string][] = [
      ['aaaaaaaaaaaa', 'repeated characters'],
      ['Mixroom123', 'the name Mixroom'],
      ['Rita-abuse-1234', 'parts of your name or e-mail address'],
    ];
    for (const [password, why] of expectations) {
      const answer = await submit(interaction, 'signup', { ...account, password });
      expect(answer.status, password).toBe(400);
      expect(answer.error?.code).toBe('PASSWORD_TOO_WEAK');
      expect(answer.error?.message).toContain(why);
    }
    const accepted = await submit(interaction, 'signup', { ...account, password: 'Rita-plays-cello-loud' });
    expect(accepted.status).toBe(200);
  });

  it('refuses a common password at reset, and the link still works for a better one', async () => {
    await server.context.services.signIn!.requestPasswordReset(victim.email);
    const outbox = join(server.dataDir, 'outbox');
    const token = await waitFor(
      () => {
        if (!existsSync(outbox)) return undefined;
        for (const name of readdirSync(outbox)) {
          const raw = readFileSync(join(outbox, name), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(raw);
          if (match?.[1]) return match[1];
        }
        return undefined;
      },
      { what: 'the reset mail' },
    );
    const weak = await call(server.url, '/api/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'qwertyuiop' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error?.message).toBe(PASSWORD_TOO_COMMON);
    // The account's own name and e-mail count for little, as on sign-up.
    const personal = await call(server.url, '/api/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'Vic-abuse-2222' },
    });
    expect(personal.status).toBe(400);
    expect(personal.body.error).toEqual({
      code: 'PASSWORD_TOO_WEAK',
      message: checkPasswordStrength('Vic-abuse-2222', victim).message,
    });
    expect(personal.body.error?.message).toContain('parts of your name or e-mail address');
    const strong = await call(server.url, '/api/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: 'vic-new-password' },
    });
    expect(strong.status).toBe(200);
    victim.password = 'vic-new-password';
  });
});

describe('sign-up with an address that has an account', () => {
  it('does not say the address is taken: it asks to check the mail, and the owner gets a message', async () => {
    const interaction = await startInteraction(server.url);
    const answer = await submit(
      interaction,
      'signup',
      { displayName: 'Mallory', email: 'VIC@abuse.test', password: 'mallory-password' },
      '198.51.100.99',
    );
    expect(answer.status).toBe(200);
    expect(answer).toMatchObject({ message: SIGN_UP_CHECK_MAIL });
    expect(JSON.stringify(answer)).not.toMatch(/EMAIL_TAKEN|already exists/);
    const mail = await waitFor(
      () => {
        const outbox = join(server.dataDir, 'outbox');
        return readdirSync(outbox)
          .map((name) => readFileSync(join(outbox, name), 'utf8'))
          .find((raw) => raw.includes('You already have a Mixroom account'));
      },
      { what: 'the notice to the owner' },
    );
    expect(mail).toContain('To: vic@abuse.test');
  });

  it('signs the owner in when the password is theirs', async () => {
    const interaction = await startInteraction(server.url);
    const answer = await submit(
      interaction,
      'signup',
      { displayName: 'Vic', email: victim.email, password: victim.password },
      VICTIM_HOME,
    );
    expect(answer.status).toBe(200);
    const tokens = await finish(interaction, answer.redirectTo!);
    expect((await call(server.url, '/api/me', { token: tokens.access_token })).body).toMatchObject({
      email: victim.email,
    });
  });
});

describe('limits per address on sign-up and invitation codes', () => {
  it('refuses a 21st new account from one address within the hour, the same for taken addresses, not elsewhere', async () => {
    const maker = '203.0.113.120';
    const interaction = await startInteraction(server.url);
    const signUp = (n: number, address = maker) =>
      submit(
        interaction,
        'signup',
        { displayName: `Bulk ${n}`, email: `bulk${n}@spam.test`, password: 'plays-the-oboe-softly' },
        address,
      );
    for (let n = 0; n < SIGN_UP_RULE.allowance; n++) expect((await signUp(n)).status, `sign-up ${n}`).toBe(200);
    const refused = await signUp(SIGN_UP_RULE.allowance);
    expect(refused.status).toBe(429);
    expect(refused.error).toEqual({ code: 'RATE_LIMITED', message: TOO_MANY_SIGN_IN_ATTEMPTS });
    expect(Number(refused.retryAfter)).toBe(SIGN_UP_RULE.baseBlockMs / 1000);
    // A taken address answers the same while the address is refused: nothing to tell them apart.
    const taken = await submit(
      interaction,
      'signup',
      { displayName: 'Bulk', email: victim.email, password: 'plays-the-oboe-softly' },
      maker,
    );
    expect(taken.status).toBe(429);
    expect((await signUp(100, '198.51.100.121')).status).toBe(200);
    server.clock.advance(SIGN_UP_RULE.baseBlockMs + 1000);
    expect((await signUp(101)).status).toBe(200);
    // Back to the present: the provider signs tokens by the wall clock, which the test can't move.
    server.clock.advance(-(SIGN_UP_RULE.baseBlockMs + 1000));
  });

  it('refuses an address that tries many wrong invitation codes; long new codes, and old short ones still work', async () => {
    const interaction = await startInteraction(server.url);
    const created = await submit(
      interaction,
      'signup',
      { displayName: 'Ines', email: 'ines@invites.test', password: 'ines-records-choirs' },
      '198.51.100.130',
    );
    const tokens = await finish(interaction, created.redirectTo!);
    const ines = storageClient(server.url, tokens.access_token);
    const folder = await ines.createFolder('Choir', null);
    const code = await inviteCode(server.url, tokens.access_token, 'group', folder.id);
    // 128 bits, where 48 were easy to walk through.
    expect(code.length).toBeGreaterThanOrEqual(22);
    const lookup = (path: string, address: string) =>
      fetch(`${server.url}${path}`, { redirect: 'manual', headers: { 'x-forwarded-for': address } });
    const guesser = '203.0.113.140';
    const statuses = [];
    for (let i = 0; i < INVITE_LOOKUP_RULE.allowance; i++)
      statuses.push((await lookup(i % 2 ? `/api/public/invitations/guess${i}` : `/j/guess${i}`, guesser)).status);
    // The short link sends a wrong code to the landing page; the preview says it does not exist.
    expect(statuses).toEqual(Array.from({ length: INVITE_LOOKUP_RULE.allowance }, (_, i) => (i % 2 ? 404 : 302)));
    const blocked = await lookup(`/api/public/invitations/${code}`, guesser);
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { error: { message: string } }).error.message).toBe(TOO_MANY_INVITE_LOOKUPS);
    expect(Number(blocked.headers.get('retry-after'))).toBe(INVITE_LOOKUP_RULE.baseBlockMs / 1000);
    expect((await lookup(`/j/${code}`, guesser)).status).toBe(429);
    // Someone else, elsewhere, opens the real link.
    expect((await lookup(`/api/public/invitations/${code}`, '198.51.100.141')).status).toBe(200);
    const link = await lookup(`/j/${code}`, '198.51.100.141');
    expect(link.headers.get('location')).toContain(`invite=${code}`);
    // A code made before codes grew (8 characters) still leads to its item.
    const older = await ines.createFolder('Choir 2019', null);
    await server.context.database.db
      .insert(shareLinks)
      .values({ token: 'Old8char', kind: 'invite', resourceId: older.id, resourceType: 'group', createdBy: null });
    expect((await lookup('/api/public/invitations/Old8char', '198.51.100.141')).status).toBe(200);
  });
});
