import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_TREE_LIMITS, FOLDER_TREE_MESSAGES, NAME_MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { transferForm } from './helpers/transfers';
import { waitFor } from './helpers/wait-for';
import { startTestServer, type TestServer } from './helpers/test-server';

/**
 * Bad input gets a clear 4xx with the reason, never a 500, and leaves nothing half written: one name
 * rule (controls, NUL, text-direction marks, separators, dot-only names) for every path that takes a
 * name, and no control characters in free text.
 */
let server: TestServer;
let token: string;
let versionId: string;
let folderId: string;

/** The error's message and every field message of a 400. */
const reasons = (body: { error?: { message: string; details?: { message: string }[] } }) => [
  body.error?.message,
  ...(body.error?.details ?? []).map((d) => d.message),
];
const count = async () => (await storageClient(server.url, token).list(null)).total;

beforeAll(async () => {
  server = await startTestServer();
  token = (await signInThroughOidc(server.url, { email: 'bad@input.test', password: 'bad-input-password' }))
    .access_token;
  const client = storageClient(server.url, token);
  folderId = (await client.createFolder('Inputs', null)).id;
  versionId = (await client.upload(makeAudio('Take.wav', { seconds: 1 }), folderId)).ticket.version.id;
}, 120_000);
afterAll(() => server?.close());

describe('names', () => {
  const cases: [string, string, string][] = [
    // Control characters are refused for every request before its schema, with the input rule's reason.
    ['NUL', 'Mix\u0000Down', NAME_MESSAGES.text],
    ['a right-to-left override', 'vaw.\u202Eexe', NAME_MESSAGES.direction],
    ['dots only', '..', NAME_MESSAGES.dots],
  ];
  it.each(cases)('refuses a folder name with %s, and creates nothing', async (_what, name, message) => {
    const before = await count();
    const answer = await call(server.url, '/api/groups', { method: 'POST', token, body: { name, parentId: null } });
    expect(answer.status).toBe(400);
    expect(reasons(answer.body)).toContain(message);
    expect(await count()).toBe(before);
  });

  it('refuses the same in file names, in dropped folder paths and in renames', async () => {
    const before = await count();
    for (const fileName of ['x\u0000.wav', 'vaw.\u202Eexe', '..', 'up/../x.wav']) {
      expect(
        (
          await call(server.url, '/api/projects/upload', {
            method: 'POST',
            token,
            body: { groupId: null, fileName, size: 10 },
          })
        ).status,
      ).toBe(400);
    }
    expect(
      (
        await call(server.url, '/api/groups/ensure', {
          method: 'POST',
          token,
          body: { parentId: null, paths: ['Live/\u0000Drums'] },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(server.url, '/api/groups/ensure', {
          method: 'POST',
          token,
          body: { parentId: null, paths: ['Live/..'] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(server.url, `/api/groups/${folderId}`, { method: 'PATCH', token, body: { name: 'x\u202Ey' } }))
        .status,
    ).toBe(400);
    expect(
      (await call(server.url, `/api/versions/${versionId}`, { method: 'PATCH', token, body: { name: 'v\u0000' } }))
        .status,
    ).toBe(400);
    expect(await count()).toBe(before);
  });

  it('takes an odd extension as data, not as part of a storage path', async () => {
    const answer = await call(server.url, '/api/projects/upload', {
      method: 'POST',
      token,
      body: { groupId: null, fileName: 'x.w%2e%2eav', size: 10 },
    });
    expect(answer.status).toBe(201);
    const { version } = answer.body as { version: { id: string; fileName: string } };
    expect(version.fileName).toBe('x.w%2e%2eav');
    expect((await call(server.url, `/api/versions/${version.id}/cancel`, { method: 'POST', token })).status).toBe(204);
  });
});

describe('free text', () => {
  it('refuses NUL in a comment and in notes, and stores nothing', async () => {
    const comment = await call(server.url, `/api/versions/${versionId}/comments`, {
      method: 'POST',
      token,
      body: { type: 'timestamp', startTime: 0.1, text: 'a\u0000b' },
    });
    expect(comment.status).toBe(400);
    expect(reasons(comment.body)).toContain(NAME_MESSAGES.text);
    expect(
      ((await call(server.url, `/api/versions/${versionId}/comments`, { token })).body as { comments: unknown[] })
        .comments,
    ).toHaveLength(0);
    const note = await call(server.url, `/api/versions/${versionId}/note`, {
      method: 'PUT',
      token,
      body: { html: '<p>a\u0000b</p>' },
    });
    expect(note.status).toBe(400);
    expect(((await call(server.url, `/api/versions/${versionId}/note`, { token })).body as { html: string }).html).toBe(
      '',
    );
    // Line breaks and tabs stay welcome.
    expect(
      (
        await call(server.url, `/api/versions/${versionId}/comments`, {
          method: 'POST',
          token,
          body: { type: 'timestamp', startTime: 0.1, text: 'bar 12:\n\tup' },
        })
      ).status,
    ).toBe(201);
  });
});

describe('control characters and broken text anywhere in a request', () => {
  const nul: [string, string, unknown?][] = [
    ['GET', '/api/search?q=%00'],
    ['GET', '/api/transfers?q=%00'],
    ['GET', '/api/admin/users?search=%00'],
    ['GET', '/api/admin/audit?actor=%00'],
    ['GET', '/api/join/group/00000000-0000-4000-8000-000000000000?invite=%00abc'],
    ['POST', '/api/join-requests', { invite: 'ab\u0000' }],
    ['GET', '/api/public/invitations/ab%00cd'],
    ['GET', '/j/ab%00cd'],
    ['GET', '/api/public/share?token=abcdefghijklmnopqrstuvwxyz%00'],
    ['GET', '/api/search?q=a%C2%85b'],
    ['POST', '/api/groups', { name: 'Mix\uD800', parentId: null }],
  ];
  it.each(nul)('answers %s %s with a 400 naming the rule, never a 500', async (method, path, body) => {
    const answer = await call(server.url, path, { method, token, body });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe('VALIDATION');
    expect(reasons(answer.body)).toContain(NAME_MESSAGES.text);
  });

  it('refuses NUL in an admin credit reason and impossible or far dates in a plan grant', async () => {
    const userId = ((await call(server.url, '/api/me', { token })).body as { id: string }).id;
    const credit = await call(server.url, `/api/admin/users/${userId}/credits`, {
      method: 'POST',
      token,
      body: { amount: 5, reason: 'gift\u0000' },
    });
    expect(credit.status).toBe(400);
    for (const endsAt of ['not-a-date', '+275760-09-13T00:00:00Z', '1970-01-01T00:00:00Z', '2026-02-30T00:00:00Z'])
      expect(
        (
          await call(server.url, `/api/admin/users/${userId}/plans`, {
            method: 'POST',
            token,
            body: { sku: 'STUDIO', endsAt },
          })
        ).status,
        endsAt,
      ).toBe(400);
  });

  it('keeps tabs and line breaks in free text, and answers a clean request as before', async () => {
    expect((await call(server.url, '/api/search?q=Take', { token })).status).toBe(200);
    const comment = await call(server.url, `/api/versions/${versionId}/comments`, {
      method: 'POST',
      token,
      body: { type: 'timestamp', startTime: 0.2, text: 'line one\n\tline two' },
    });
    expect(comment.status).toBe(201);
  });
});

describe('invisible and direction characters where others read them', () => {
  const tricks = ['ad\u200Bmin', 'Bob\u3164', 'Mix\u200F', 'a\u2067b'];

  it.each(tricks)('refuses %j in a display name, a transfer name and a transfer message', async (trick) => {
    expect((await call(server.url, '/api/me', { method: 'PATCH', token, body: { displayName: trick } })).status).toBe(
      400,
    );
    for (const form of [transferForm({ name: trick }), transferForm({ message: `Hi ${trick}` })])
      expect((await call(server.url, '/api/transfers', { method: 'POST', token, body: form })).status).toBe(400);
  });

  it("refuses them in a file request's message and its uploader's name", async () => {
    expect(
      (
        await call(server.url, '/api/file-requests', {
          method: 'POST',
          token,
          body: { message: 'Send \u202Ethe stems' },
        })
      ).status,
    ).toBe(400);
    const created = await call(server.url, '/api/file-requests', { method: 'POST', token, body: { message: 'Stems' } });
    expect(created.status).toBe(201);
    const link = (created.body as { link: string }).link;
    const requestToken = new URL(link).searchParams.get('requestId')!;
    const upload = await call(server.url, `/api/public/file-requests/${requestToken}/transfers`, {
      method: 'POST',
      body: { name: 'Ali\u200Bce', files: [{ path: '', fileName: 'a.wav', size: 10 }] },
    });
    expect(upload.status).toBe(400);
    expect(reasons(upload.body)).toContain(NAME_MESSAGES.invisible);
  });

  it('refuses a folder named with dots and spaces only', async () => {
    const answer = await call(server.url, '/api/groups', {
      method: 'POST',
      token,
      body: { name: '. .', parentId: null },
    });
    expect(answer.status).toBe(400);
    expect(reasons(answer.body)).toContain(NAME_MESSAGES.dots);
  });
});

describe('folder trees as deep and as large as one request may create', () => {
  const chain = (depth: number, prefix = 'f') => Array.from({ length: depth }, (_, i) => `${prefix}${i}`).join('/');
  /** The server answers its health check within a second. */
  const healthy = async () =>
    (await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(1000) })).status === 200;

  it('refuses 30 paths of 300 levels at once, quickly, and stays healthy', async () => {
    const before = await count();
    const paths = Array.from({ length: 30 }, (_, i) => chain(300, `p${i}-`)).map((p) => p.slice(0, 1000));
    const answer = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: null, paths },
    });
    expect(answer.status).toBe(400);
    expect(reasons(answer.body)).toContain(FOLDER_TREE_MESSAGES.tooDeep);
    expect(await healthy()).toBe(true);
    expect(await count()).toBe(before);
  });

  it('creates a tree as deep as the limit, and refuses one level more below it', async () => {
    const depth = FOLDER_TREE_LIMITS.depthMax;
    const made = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: null, paths: [chain(depth)] },
    });
    expect(made.status).toBe(200);
    const ids = (made.body as { folders: Record<string, string> }).folders;
    const deepest = ids[chain(depth)]!;
    // The deepest folder takes no sub-folder, dropped or created one by one.
    const below = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: deepest, paths: ['one more'] },
    });
    expect(below.status).toBe(400);
    expect(reasons(below.body)).toContain(FOLDER_TREE_MESSAGES.tooDeep);
    const single = await call(server.url, '/api/groups', {
      method: 'POST',
      token,
      body: { name: 'one more', parentId: deepest },
    });
    expect(single.status).toBe(400);
    // A drop that fits below a folder half-way down is fine, and reuses what exists.
    const again = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: null, paths: [chain(depth), chain(2)] },
    });
    expect(again.status).toBe(200);
    expect((again.body as { folders: Record<string, string> }).folders[chain(depth)]).toBe(deepest);
    expect(await healthy()).toBe(true);
  });

  it('refuses a move that would take a subtree past the depth limit, and allows one that fits', async () => {
    const made = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: null, paths: [chain(20, 'deep'), chain(13, 'tall')] },
    });
    expect(made.status).toBe(200);
    const ids = (made.body as { folders: Record<string, string> }).folders;
    const target = ids[chain(20, 'deep')]!;
    // 20 levels + a subtree of 13 = 33.
    const tooDeep = await call(server.url, `/api/groups/${ids['tall0']!}`, {
      method: 'PATCH',
      token,
      body: { parentId: target },
    });
    expect(tooDeep.status).toBe(400);
    expect(reasons(tooDeep.body)).toContain(FOLDER_TREE_MESSAGES.tooDeep);
    // Its sub-folder's subtree has 12 levels: 20 + 12 = 32 fits.
    const fits = await call(server.url, `/api/groups/${ids[chain(2, 'tall')]!}`, {
      method: 'PATCH',
      token,
      body: { parentId: target },
    });
    expect(fits.status).toBe(200);
  });

  it('answers other requests while a large drop is being created', async () => {
    const order: string[] = [];
    const paths = Array.from({ length: 4 }, (_, i) => chain(25, `busy${i}-`));
    const drop = call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: null, paths },
    }).then((answer) => (order.push('drop'), answer));
    // The drop's first folder exists: it is under way, and the health check must not wait for its end.
    await waitFor(async () =>
      (await storageClient(server.url, token).list(null)).items.some((item) => item.name === 'busy0-0'),
    );
    await fetch(`${server.url}/api/health`).then(() => order.push('health'));
    expect((await drop).status).toBe(200);
    expect(order).toEqual(['health', 'drop']);
  });

  it('refuses a drop naming more folders than one request may create', async () => {
    const paths = Array.from({ length: 2000 }, (_, i) => `wide${i}/inner`);
    const answer = await call(server.url, '/api/groups/ensure', {
      method: 'POST',
      token,
      body: { parentId: null, paths },
    });
    expect(answer.status).toBe(400);
    expect(reasons(answer.body)).toContain(FOLDER_TREE_MESSAGES.tooMany);
  });

  it('refuses a transfer of 18,000 nested folders with a 400, not a stack overflow', async () => {
    const files = Array.from({ length: 36 }, (_, i) => ({
      path: chain(500, `${i}`).slice(0, 1000),
      fileName: 'a.wav',
      size: 1,
    }));
    const deep = await call(server.url, '/api/transfers', { method: 'POST', token, body: transferForm({ files }) });
    expect(deep.status).toBe(400);
    expect(deep.body.error?.message).toBe(FOLDER_TREE_MESSAGES.tooDeep);
    const wide = Array.from({ length: 2100 }, (_, i) => ({ path: `d${i}`, fileName: 'a.wav', size: 1 }));
    const many = await call(server.url, '/api/transfers', {
      method: 'POST',
      token,
      body: transferForm({ files: wide }),
    });
    expect(many.status).toBe(400);
    expect(many.body.error?.message).toBe(FOLDER_TREE_MESSAGES.tooMany);
    expect(await healthy()).toBe(true);
  });
});
