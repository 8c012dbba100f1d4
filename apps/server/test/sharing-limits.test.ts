import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { inviteCode } from './helpers/invite';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('group size', () => {
  it('holds at most 10 users: the publisher and 9 collaborators', async () => {
    const anaToken = (await signInThroughOidc(server.url, { email: 'ana@limits.test', password: 'ana-password' }))
      .access_token;
    const ana = storageClient(server.url, anaToken);
    const folder = await ana.createFolder('Big Band', null);
    const invite = await inviteCode(server.url, anaToken, 'group', folder.id);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const token = (
        await signInThroughOidc(server.url, { email: `player${i}@limits.test`, password: 'player-password' })
      ).access_token;
      ids.push(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string);
      await storageClient(server.url, token).api('/api/join-requests', {
        method: 'POST',
        body: { type: 'group', id: folder.id, invite },
      });
    }
    for (const id of ids.slice(0, 9))
      await ana.api(`/api/join-requests/${folder.id}/${id}/approve`, { method: 'POST' });
    await expect(ana.api(`/api/join-requests/${folder.id}/${ids[9]}/approve`, { method: 'POST' })).rejects.toThrow(
      'A group can have at most 10 users.',
    );
    const info = await ana.api<{ users: unknown[] }>(`/api/share/group/${folder.id}`);
    expect(info.users).toHaveLength(10);
  });
});
