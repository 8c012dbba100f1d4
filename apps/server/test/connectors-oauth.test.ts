import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorTransfer } from '@mixroom/contracts';
import type { TestClock } from '../src/platform/clock/clock';
import { connectorAccounts, users } from '../src/db/schema';
import { call } from './helpers/api';
import { connectorSteps, oauthLinkSteps } from './helpers/connector-steps';
import { startClockedServer } from './helpers/clocked-server';
import type { LocalDropboxServer } from './helpers/fake-dropbox-server';
import type { LocalGoogleDriveServer } from './helpers/fake-google-drive-server';
import type { LocalOAuthServer } from './helpers/oauth-server';
import { oauthConnectorEnv, seedProviderFiles, startOAuthProviders } from './helpers/oauth-providers';
import { signInThroughOidc } from './helpers/oidc-flow';
import type { TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';

/**
 * Dropbox and Google Drive end to end through the HTTP API, against local servers that follow the
 * providers' documented endpoints (the real services are not reachable from CI) and OAuth 2.0
 * authorization servers that check PKCE, client authentication, single-use codes, refresh grants
 * and revocation. The server's clock is moved to expire states and tokens.
 */

let server: TestServer & { clock: TestClock };
let dropboxAuth: LocalOAuthServer;
let googleAuth: LocalOAuthServer;
let dropbox: LocalDropboxServer;
let google: LocalGoogleDriveServer;
let wav: Buffer;
let wavSha: string;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };
const accounts = {
  alice: { email: 'alice@example.com', password: 'correct horse battery 1' },
  bob: { email: 'bob@example.com', password: 'correct horse battery 2' },
};
const people = {
  'dbx-alice': { displayName: 'Alice Audio', email: 'alice@dropbox.example' },
  'g-alice': { displayName: 'Alice Audio', email: 'alice@gmail.example' },
  'g-bob': { displayName: 'Bob Bass', email: 'bob@gmail.example' },
};

beforeAll(async () => {
  const now = () => server?.clock.now().getTime() ?? Date.now();
  ({ dropboxAuth, googleAuth, dropbox, google } = await startOAuthProviders(now, people));
  server = await startClockedServer(oauthConnectorEnv({ dropboxAuth, googleAuth, dropbox, google }));
  ({ wav, wavSha } = await seedProviderFiles({ dropbox, google }));
  for (const who of ['alice', 'bob'] as const)
    tokens[who] = (await signInThroughOidc(server.url, accounts[who])).access_token;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await Promise.all([dropbox?.stop(), google?.stop(), dropboxAuth?.stop(), googleAuth?.stop()]);
});

/** One call as a user; an access token that expired because the clock moved is renewed by signing in. */
async function api(who: 'alice' | 'bob', path: string, init: { method?: string; body?: unknown } = {}) {
  const answer = await call(server.url, path, { ...init, token: tokens[who] });
  if (answer.status !== 401) return answer;
  tokens[who] = (await signInThroughOidc(server.url, accounts[who], 'signin')).access_token;
  return call(server.url, path, { ...init, token: tokens[who] });
}

const { authorize, linkAccount } = oauthLinkSteps(api);
const { newProject, finished, versionsOf, importReady, saveTo } = connectorSteps(api, 120_000);
const importAndCheck = (connector: string, path: string) => importReady('alice', connector, path, wavSha);

let dropboxId: string;
let googleId: string;
let exportable: string;

describe('linking with OAuth 2.0 and PKCE', () => {
  it('lists both kinds and sends the browser to the provider with a state and an S256 challenge', async () => {
    const listed = await api('alice', '/api/connectors');
    expect(listed.body).toEqual({ available: ['dropbox', 'gdrive'], linked: [] });
    const { authorizeUrl } = await authorize('alice', 'dropbox');
    const q = authorizeUrl.searchParams;
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${dropboxAuth.url}/authorize`);
    expect([
      q.get('client_id'),
      q.get('response_type'),
      q.get('code_challenge_method'),
      q.get('token_access_type'),
    ]).toEqual(['dbx-app', 'code', 'S256', 'offline']);
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(q.get('redirect_uri')).toMatch(/\/settings$/);
  });

  it('links Dropbox: the callback exchanges the code, Settings shows the account, no token reaches the browser', async () => {
    const { state, code } = await authorize('alice', 'dropbox');
    const done = await api('alice', '/api/connectors/oauth/callback', { method: 'POST', body: { state, code } });
    expect(done.status).toBe(201);
    dropboxId = done.body.id as string;
    const listed = await api('alice', '/api/connectors');
    expect(listed.body.linked).toEqual([
      expect.objectContaining({ kind: 'dropbox', accountName: 'alice@dropbox.example' }),
    ]);
    const seen = JSON.stringify([done.body, listed.body]);
    expect(dropboxAuth.issued.length).toBeGreaterThan(0);
    for (const token of dropboxAuth.issued) expect(seen).not.toContain(token);
  });

  it('refuses a reused state, an unknown state, an expired state and another user’s state', async () => {
    const first = await authorize('alice', 'gdrive');
    // Bob presents Alice's state: refused, and Alice's request stays usable.
    const stolen = await api('bob', '/api/connectors/oauth/callback', { method: 'POST', body: first });
    expect([stolen.status, stolen.body.error?.code]).toEqual([400, 'OAUTH_STATE']);
    const unknown = await api('alice', '/api/connectors/oauth/callback', {
      method: 'POST',
      body: { state: 'made-up', code: first.code },
    });
    expect([unknown.status, unknown.body.error?.code]).toEqual([400, 'OAUTH_STATE']);
    const linked = await api('alice', '/api/connectors/oauth/callback', {
      method: 'POST',
      body: { state: first.state, code: first.code },
    });
    expect(linked.status).toBe(201);
    googleId = linked.body.id as string;
    expect(linked.body.accountName).toBe('alice@gmail.example');
    const again = await api('alice', '/api/connectors/oauth/callback', {
      method: 'POST',
      body: { state: first.state, code: first.code },
    });
    expect([again.status, again.body.error?.code]).toEqual([400, 'OAUTH_STATE']);
    // Expiry is on the server clock: eleven minutes at the consent page is too long. (The request is
    // made with the clock set back, as user sessions are judged on the same clock and last 5 minutes.)
    server.clock.advance(-11 * 60 * 1000);
    const late = await authorize('bob', 'gdrive');
    server.clock.advance(11 * 60 * 1000);
    const expired = await api('bob', '/api/connectors/oauth/callback', { method: 'POST', body: late });
    expect([expired.status, expired.body.error?.code]).toEqual([400, 'OAUTH_STATE_EXPIRED']);
    expect((await api('bob', '/api/connectors')).body.linked).toEqual([]);
  });

  it('the provider checks PKCE: a code sent with another request’s verifier is refused', async () => {
    const a = await authorize('bob', 'gdrive');
    const b = await authorize('bob', 'gdrive');
    // b's state (and so b's verifier) with a's code: the challenge does not match the verifier.
    const crossed = await api('bob', '/api/connectors/oauth/callback', {
      method: 'POST',
      body: { state: b.state, code: a.code },
    });
    expect([crossed.status, crossed.body.error?.code]).toEqual([422, 'OAUTH_REFUSED']);
    const denied = await api('bob', '/api/connectors/oauth/callback', {
      method: 'POST',
      body: { state: a.state, error: 'access_denied' },
    });
    expect([denied.status, denied.body.error?.message]).toEqual([
      400,
      'Google Drive did not grant access, so nothing was linked.',
    ]);
  });
});

describe('browsing, importing and saving', () => {
  it('browses Dropbox (paged listing) and searches below a folder', async () => {
    const root = await api('alice', `/api/connectors/${dropboxId}/files?path=/`);
    expect((root.body.entries as { name: string }[]).map((e) => e.name)).toEqual(['Mixes', 'Stems']);
    expect(root.body.searchable).toBe(true);
    const mixes = await api('alice', `/api/connectors/${dropboxId}/files?path=/Mixes`);
    expect(mixes.body.entries).toEqual([
      expect.objectContaining({ name: 'Old', kind: 'folder' }),
      expect.objectContaining({ name: 'notes.txt', kind: 'file', size: 5 }),
      expect.objectContaining({ name: 'Take 1.wav', path: '/Mixes/Take 1.wav', size: wav.length }),
    ]);
    expect(dropbox.calls).toContain('files/list_folder/continue');
    const found = await api('alice', `/api/connectors/${dropboxId}/files?path=/&search=take`);
    expect((found.body.entries as { path: string }[]).map((e) => e.path)).toEqual([
      '/Mixes/Old/Take 0.wav',
      '/Mixes/Take 1.wav',
    ]);
  });

  it('browses Google Drive by path (paged files.list) and searches all of it by name', async () => {
    const sessions = await api('alice', `/api/connectors/${googleId}/files?path=/Sessions`);
    expect(sessions.body.entries).toEqual([
      expect.objectContaining({ name: "Bob's take.wav", size: 500 }),
      expect.objectContaining({ name: 'Lyrics', kind: 'file', size: null }),
      expect.objectContaining({ name: 'Rough.wav', size: 1000 }),
      expect.objectContaining({ name: 'Take 1.wav', size: wav.length }),
    ]);
    expect([sessions.body.searchable, sessions.body.scope]).toEqual([true, 'folder']);
    // From the root: the search covers the whole drive, each hit with its path.
    const found = await api('alice', `/api/connectors/${googleId}/files?path=/&search=take`);
    expect([found.body.scope, found.body.truncated]).toEqual(['account', false]);
    expect((found.body.entries as { path: string }[]).map((e) => e.path)).toEqual([
      "/Sessions/Bob's take.wav",
      '/Sessions/Take 1.wav',
    ]);
    const missing = await api('alice', `/api/connectors/${googleId}/files?path=/Nowhere`);
    expect([missing.status, missing.body.error?.code]).toEqual([404, 'DRIVE_NOT_FOUND']);
  });

  it('imports from Dropbox: the version holds the same bytes and is processed', async () => {
    exportable = (await importAndCheck(dropboxId, '/Mixes/Take 1.wav')).versionId;
  }, 240_000);

  it('imports from Google Drive the same way; a Google Doc (no bytes) is refused', async () => {
    await importAndCheck(googleId, '/Sessions/Take 1.wav');
    const projectId = await newProject('alice', 'Doc');
    const doc = await api('alice', `/api/connectors/${googleId}/imports`, {
      method: 'POST',
      body: { path: '/Sessions/Lyrics', projectId, versionName: 'Doc' },
    });
    expect([doc.status, doc.body.error?.code]).toEqual([422, 'SIZE_UNKNOWN']);
  }, 240_000);

  it('saves a version to Dropbox and to Google Drive (Save to…)', async () => {
    for (const [id, check] of [
      [dropboxId, () => dropbox.file('/Take 1.wav')],
      [googleId, () => google.file('/Take 1.wav')],
    ] as const) {
      const started = await saveTo('alice', id, exportable, '/');
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const transfer = await finished('alice', (started.body.transfer as ConnectorTransfer).id);
      expect(transfer.status, transfer.error ?? '').toBe('done');
      expect(
        createHash('sha256')
          .update(check() ?? Buffer.alloc(0))
          .digest('hex'),
      ).toBe(wavSha);
    }
  }, 120_000);
});

describe('tokens', () => {
  it('refreshes an access token past its expiry on the server clock, and after a 401', async () => {
    const before = dropboxAuth.refreshes;
    const gBefore = googleAuth.refreshes;
    // 90 s later the two-minute access tokens are within a minute of expiry: refreshed before the call.
    server.clock.advance(90 * 1000);
    expect((await api('alice', `/api/connectors/${dropboxId}/files?path=/`)).status).toBe(200);
    expect(dropboxAuth.refreshes).toBe(before + 1);
    expect((await api('alice', `/api/connectors/${googleId}/files?path=/`)).status).toBe(200);
    expect(googleAuth.refreshes).toBe(gBefore + 1);
    // The provider ends the access token early: the 401 refreshes and the call is tried again.
    googleAuth.expireAccessTokens();
    expect((await api('alice', `/api/connectors/${googleId}/files?path=/Sessions`)).status).toBe(200);
    expect(googleAuth.refreshes).toBe(gBefore + 2);
    // The refreshed pair was kept (sealed into the row): the next call needs no refresh.
    expect((await api('alice', `/api/connectors/${googleId}/files?path=/`)).status).toBe(200);
    expect(googleAuth.refreshes).toBe(gBefore + 2);
  });

  it('a link revoked at the provider gives a clear error', async () => {
    const bobGoogle = await (async () => {
      google.put('/Bob', null);
      googleAuth.consentAs = 'g-bob';
      try {
        return await linkAccount('bob', 'gdrive');
      } finally {
        googleAuth.consentAs = 'g-alice';
      }
    })();
    googleAuth.revokeAccount('g-bob');
    const refused = await api('bob', `/api/connectors/${bobGoogle}/files?path=/`);
    expect([refused.status, refused.body.error?.code]).toEqual([422, 'DRIVE_REVOKED']);
    expect(refused.body.error?.message).toMatch(/Unlink the account and link it again/);
  });
});

describe('failures leave nothing behind', () => {
  it('a provider that does not answer: a clear error, and an import that never gets its bytes is dropped', async () => {
    dropbox.hang = () => true;
    try {
      const browse = await api('alice', `/api/connectors/${dropboxId}/files?path=/`);
      expect([browse.status, browse.body.error?.code]).toEqual([502, 'DRIVE_UNREACHABLE']);
    } finally {
      dropbox.hang = null;
    }
    google.hang = (c) => c.endsWith('?alt=media');
    try {
      const projectId = await newProject('alice', 'Never arrives');
      const started = await api('alice', `/api/connectors/${googleId}/imports`, {
        method: 'POST',
        body: { path: '/Sessions/Rough.wav', projectId, versionName: 'Late' },
      });
      expect(started.status).toBe(202);
      const transfer = await finished('alice', (started.body.transfer as ConnectorTransfer).id);
      expect(transfer.status).toBe('failed');
      expect(transfer.error).toMatch(/did not answer|could not be reached/);
      // The version and its project (it had no other) are gone.
      expect(await versionsOf('alice', projectId)).toBeNull();
    } finally {
      google.hang = null;
    }
  }, 180_000);

  it('a save that times out mid-upload leaves no file at the provider', async () => {
    dropbox.hang = (route) => route === 'files/upload';
    try {
      dropbox.put('/Half', null);
      const started = await saveTo('alice', dropboxId, exportable, '/Half');
      expect(started.status).toBe(202);
      const transfer = await finished('alice', (started.body.transfer as ConnectorTransfer).id);
      expect(transfer.status).toBe('failed');
      expect(dropbox.file('/Half/Take 1.wav')).toBeNull();
    } finally {
      dropbox.hang = null;
    }
  }, 180_000);
});

describe('authorization', () => {
  it("another user can't browse, import from or unlink Alice's accounts", async () => {
    const projectId = await newProject('bob', 'Bob project');
    for (const id of [dropboxId, googleId]) {
      expect((await api('bob', `/api/connectors/${id}/files?path=/`)).status).toBe(404);
      const theft = await api('bob', `/api/connectors/${id}/imports`, {
        method: 'POST',
        body: { path: '/Mixes/Take 1.wav', projectId, versionName: 'Stolen' },
      });
      expect(theft.status).toBe(404);
      expect((await api('bob', `/api/connectors/${id}`, { method: 'DELETE' })).status).toBe(404);
    }
    expect((await api('alice', `/api/connectors/${dropboxId}/files?path=/`)).status).toBe(200);
  });

  it('anonymous callers can neither start nor finish a link', async () => {
    const start = await call(server.url, '/api/connectors/oauth/start', { method: 'POST', body: { kind: 'dropbox' } });
    const finish = await call(server.url, '/api/connectors/oauth/callback', {
      method: 'POST',
      body: { state: 'x', code: 'y' },
    });
    expect([start.status, finish.status]).toEqual([401, 401]);
  });
});

describe('unlinking', () => {
  it('revokes the tokens at Dropbox, then erases them', async () => {
    const revoked = dropboxAuth.revocations;
    const unlinked = await api('alice', `/api/connectors/${dropboxId}`, { method: 'DELETE' });
    expect([unlinked.status, unlinked.body]).toEqual([200, { providerRevoked: true }]);
    expect(dropboxAuth.revocations).toBe(revoked + 1);
    expect((await api('alice', `/api/connectors/${dropboxId}/files?path=/`)).status).toBe(404);
  });

  it('erases Google tokens even when Google cannot be asked to revoke them, and says so', async () => {
    googleAuth.failRevocation = true;
    try {
      const unlinked = await api('alice', `/api/connectors/${googleId}`, { method: 'DELETE' });
      expect([unlinked.status, unlinked.body]).toEqual([200, { providerRevoked: false }]);
    } finally {
      googleAuth.failRevocation = false;
    }
    expect((await api('alice', '/api/connectors')).body.linked).toEqual([]);
    // Linking again works, and this time Google revokes on unlink.
    const again = await linkAccount('alice', 'gdrive');
    const revoked = googleAuth.revocations;
    const unlinked = await api('alice', `/api/connectors/${again}`, { method: 'DELETE' });
    expect([unlinked.status, unlinked.body]).toEqual([200, { providerRevoked: true }]);
    expect(googleAuth.revocations).toBe(revoked + 1);
  });
});

describe('deleting the Mixroom account', () => {
  const erase = async (who: 'alice' | 'bob') => {
    const asked = await api(who, '/api/me/deletion', { method: 'POST', body: { email: accounts[who].email } });
    expect(asked.status).toBe(202);
    const { db } = server.context.database;
    await waitFor(
      async () => (await db.select().from(users).where(eq(users.email, accounts[who].email))).length === 0,
      {
        what: `${who}'s account erased`,
        timeoutMs: 30_000,
      },
    );
  };

  it('revokes its linked accounts’ tokens at the provider, and a provider that refuses does not stop it', async () => {
    await linkAccount('alice', 'dropbox');
    const revoked = dropboxAuth.revocations;
    await erase('alice');
    expect(dropboxAuth.revocations).toBe(revoked + 1);
    // Bob's Google grant was ended at Google earlier: the revocation is refused, the erasure goes on.
    const googleRevoked = googleAuth.revocations;
    await erase('bob');
    expect(googleAuth.revocations).toBe(googleRevoked);
    expect(await server.context.database.db.select().from(connectorAccounts)).toEqual([]);
  });
});
