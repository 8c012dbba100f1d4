import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '@mixroom/contracts';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { inviteOf } from './helpers/invite';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let ana: ReturnType<typeof storageClient>;
let bob: ReturnType<typeof storageClient>;
let bobToken: string;
let versionId: string;
let projectId: string;

beforeAll(async () => {
  server = await startTestServer();
  ana = storageClient(
    server.url,
    (await signInThroughOidc(server.url, { email: 'ana@comments.test', password: 'ana-password', displayName: 'Ana' }))
      .access_token,
  );
  bobToken = (
    await signInThroughOidc(server.url, { email: 'bob@comments.test', password: 'bob-password', displayName: 'Bob' })
  ).access_token;
  bob = storageClient(server.url, bobToken);
  const folder = await ana.createFolder('Review', null);
  const { ticket } = await ana.upload(makeAudio('Mix.wav', { seconds: 20 }), folder.id);
  versionId = ticket.version.id;
  projectId = ticket.project.id;
  await waitFor(async () => (await ana.project(projectId)).versions[0]?.status === 'ready', { what: 'processing' });
  await bob.api('/api/join-requests', {
    method: 'POST',
    body: { type: 'group', id: folder.id, invite: await inviteOf(ana, 'group', folder.id) },
  });
  const bobId = JSON.parse(Buffer.from(bobToken.split('.')[1]!, 'base64url').toString()).sub as string;
  await ana.api(`/api/join-requests/${folder.id}/${bobId}/approve`, { method: 'POST' });
});
afterAll(() => server.close());

const list = (client: typeof ana) =>
  client.api<{ comments: Comment[] }>(`/api/versions/${versionId}/comments`).then((r) => r.comments);

describe('timed comments', () => {
  it('posts timestamp and range comments to the hundredth, newest first, and a collaborator sees them live', async () => {
    const watcher = await connectRealtime(server.url);
    await watcher.auth(bobToken);
    expect(await watcher.subscribe(`project:${projectId}`)).toMatchObject({ type: 'subscribed' });

    await ana.api(`/api/versions/${versionId}/comments`, {
      method: 'POST',
      body: { type: 'timestamp', startTime: 3.14159, text: 'Kick too loud here' },
    });
    await ana.api(`/api/versions/${versionId}/comments`, {
      method: 'POST',
      body: { type: 'range', startTime: 5, endTime: 15, text: 'Love this section' },
    });
    await waitFor(() => watcher.events().filter((e) => e.type === 'comment.changed').length >= 2, {
      what: 'two live events',
    });
    // New comments travel whole, as non-authors see them: no edit, no delete.
    expect(watcher.events().find((e) => e.type === 'comment.changed')?.data.comment).toMatchObject({
      type: 'timestamp',
      startTime: 3.14,
      text: 'Kick too loud here',
      user: { displayName: 'Ana' },
      capabilities: { canEdit: false, canDelete: false, canResolve: false },
      replies: [],
    });

    const comments = await list(bob);
    expect(comments.map((c) => [c.type, c.startTime, c.endTime, c.text, c.user.displayName])).toEqual([
      ['range', 5, 15, 'Love this section', 'Ana'],
      ['timestamp', 3.14, null, 'Kick too loud here', 'Ana'],
    ]);
    expect(comments[0]!.capabilities).toEqual({ canEdit: false, canDelete: false, canResolve: false });
    watcher.close();
  });

  it('lets any member reply; only authors edit and delete; deleting a comment removes its replies', async () => {
    const [first] = await list(ana);
    const reply = await bob.api<{ id: string }>(`/api/comments/${first!.id}/replies`, {
      method: 'POST',
      body: { text: 'Agreed' },
    });
    await expect(
      bob.api(`/api/comments/${first!.id}`, { method: 'PATCH', body: { text: 'Hijacked' } }),
    ).rejects.toThrow('Only the author can change this comment.');
    await expect(ana.api(`/api/comments/${reply.id}`, { method: 'DELETE' })).rejects.toThrow(
      'Only the author can change this comment.',
    );
    await bob.api(`/api/comments/${reply.id}`, { method: 'PATCH', body: { text: 'Agreed, 2 dB' } });
    expect((await list(ana))[0]!.replies.map((r) => [r.user.displayName, r.text])).toEqual([['Bob', 'Agreed, 2 dB']]);
    await ana.api(`/api/comments/${first!.id}`, { method: 'DELETE' });
    expect((await list(ana)).map((c) => c.text)).toEqual(['Kick too loud here']);
    await expect(bob.api(`/api/comments/${reply.id}`, { method: 'PATCH', body: { text: 'ghost' } })).rejects.toThrow(
      'No such comment.',
    );
  });

  it('posts the longest comment in a wide script; its event then carries ids only', async () => {
    const watcher = await connectRealtime(server.url);
    await watcher.auth(bobToken);
    await watcher.subscribe(`project:${projectId}`);
    const text = '🎛'.repeat(2000);
    const { id } = await ana.api<{ id: string }>(`/api/versions/${versionId}/comments`, {
      method: 'POST',
      body: { type: 'timestamp', startTime: 1, text },
    });
    const event = await waitFor(
      () => watcher.events().find((e) => e.type === 'comment.changed' && e.data.action === 'created'),
      { what: 'event' },
    );
    expect(event.type === 'comment.changed' && event.data.comment).toBeFalsy();
    expect((await list(bob)).find((c) => c.id === id)?.text).toBe(text);
    await ana.api(`/api/comments/${id}`, { method: 'DELETE' });
    watcher.close();
  });

  it('rejects bad input with clear errors', async () => {
    const post = (body: unknown) =>
      call(server.url, `/api/versions/${versionId}/comments`, { method: 'POST', token: bobToken, body });
    expect((await post({ type: 'timestamp', startTime: 1, text: '   ' })).body.error?.message).toBe(
      'Please add some text to your comment',
    );
    expect((await post({ type: 'timestamp', startTime: 1, text: 'x'.repeat(2001) })).body.error?.message).toBe(
      'Comments are limited to 2000 characters.',
    );
    expect((await post({ type: 'range', startTime: 8, endTime: 4, text: 'backwards' })).body.error?.message).toBe(
      'A range must end after it starts.',
    );
    expect((await post({ type: 'timestamp', startTime: 25, text: 'after the end' })).body.error?.message).toBe(
      'The comment is past the end of the version.',
    );
    expect((await post({ type: 'range', startTime: 15, endTime: 21, text: 'runs past the end' })).status).toBe(400);
    expect((await post({ type: 'timestamp', startTime: -1, text: 'negative' })).status).toBe(400);
    const stranger = (await signInThroughOidc(server.url, { email: 'eve@comments.test', password: 'eve-password' }))
      .access_token;
    const denied = await call(server.url, `/api/versions/${versionId}/comments`, {
      method: 'POST',
      token: stranger,
      body: { type: 'timestamp', startTime: 1, text: 'let me in' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error?.message).toBe('You are not authorized to access this project');
  });
});
