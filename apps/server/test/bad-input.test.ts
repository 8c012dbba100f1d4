import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
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
    ['NUL', 'Mix\u0000Down', NAME_MESSAGES.control],
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
