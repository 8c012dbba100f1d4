import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startSmtp } from './helpers/smtp';
import { unzip } from './helpers/unzip';
import { inviteOf } from './helpers/invite';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let server: TestServer;
const token = new Map<string, string>();
const client = (who: string) => storageClient(server.url, token.get(who)!);
const idOf = (who: string) =>
  JSON.parse(Buffer.from(token.get(who)!.split('.')[1]!, 'base64url').toString()).sub as string;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url });
  for (const who of ['ana', 'bob', 'cid', 'dee'])
    token.set(
      who,
      (
        await signInThroughOidc(server.url, {
          email: `${who}@share.test`,
          password: `${who}-password`,
          displayName: who.toUpperCase(),
        })
      ).access_token,
    );
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

describe('join requests', () => {
  it('lets an invited user ask, notifies the publisher live, and gives access only after approval', async () => {
    const folder = await client('ana').createFolder('Band', null);
    await client('ana').upload(makeAudio('Demo.wav', { seconds: 1 }), folder.id);
    const info = await client('ana').api<{ inviteUrl: string }>(`/api/share/group/${folder.id}`);
    const redirect = await fetch(info.inviteUrl, { redirect: 'manual' });
    const code = info.inviteUrl.slice(info.inviteUrl.lastIndexOf('/j/') + 3);
    expect(redirect.headers.get('location')).toBe(`/join?id=${folder.id}&type=group&t=1&invite=${code}`);

    const publisherSocket = await connectRealtime(server.url);
    await publisherSocket.auth(token.get('ana')!);
    await publisherSocket.subscribe(`user:${idOf('ana')}`);

    // The id alone names nothing: only the invitation's code (or access) does.
    await expect(client('bob').api(`/api/join/group/${folder.id}`)).rejects.toThrow(
      'There was an error retrieving the group',
    );
    await expect(client('bob').api(`/api/join/group/${folder.id}?invite=not-the-code`)).rejects.toThrow(
      'There was an error retrieving the group',
    );
    await expect(
      client('bob').api('/api/join-requests', { method: 'POST', body: { type: 'group', id: folder.id } }),
    ).rejects.toThrow('There was an error retrieving the group');
    const invite = await inviteOf(client('ana'), 'group', folder.id);
    expect(await client('bob').api(`/api/join/group/${folder.id}?invite=${invite}`)).toEqual({
      type: 'group',
      id: folder.id,
      name: 'Band',
      isMember: false,
      request: null,
    });
    await expect(client('bob').list(folder.id)).rejects.toThrow('You are not authorized to access this group');
    await client('bob').api('/api/join-requests', {
      method: 'POST',
      body: { type: 'group', id: folder.id, invite: await inviteOf(client('ana'), 'group', folder.id) },
    });
    await waitFor(
      () => publisherSocket.events().find((e) => e.type === 'join.requested' && e.data.userId === idOf('bob')),
      { what: 'join.requested' },
    );
    expect(
      (await client('bob').api<{ request: string }>(`/api/join/group/${folder.id}?invite=${invite}`)).request,
    ).toBe('pending');
    await expect(client('bob').list(folder.id)).rejects.toThrow('You are not authorized to access this group');

    await expect(
      client('cid').api(`/api/join-requests/${folder.id}/${idOf('bob')}/approve`, { method: 'POST' }),
    ).rejects.toThrow('No such request.');
    await client('ana').api(`/api/join-requests/${folder.id}/${idOf('bob')}/approve`, { method: 'POST' });
    const listing = await client('bob').list(folder.id);
    expect(listing.items.map((i) => [i.name, i.tag])).toEqual([['Demo', 'viewer']]);
    expect(listing.items[0]!.capabilities).toMatchObject({ canView: true, canEdit: false, canDownload: false });
    await expect(
      client('ana').api(`/api/join-requests/${folder.id}/${idOf('bob')}/reject`, { method: 'POST' }),
    ).rejects.toThrow('This request was already answered.');
    publisherSocket.close();
  });

  it('records a rejection and keeps the requester out', async () => {
    const folder = await client('ana').createFolder('Private Band', null);
    await client('cid').api('/api/join-requests', {
      method: 'POST',
      body: { type: 'group', id: folder.id, invite: await inviteOf(client('ana'), 'group', folder.id) },
    });
    await client('ana').api(`/api/join-requests/${folder.id}/${idOf('cid')}/reject`, { method: 'POST' });
    const { outgoing } = await client('cid').api<{ outgoing: { resourceName: string; status: string }[] }>(
      '/api/join-requests',
    );
    expect(outgoing).toContainEqual(expect.objectContaining({ resourceName: 'Private Band', status: 'rejected' }));
    await expect(client('cid').list(folder.id)).rejects.toThrow('You are not authorized to access this group');
  });

  it('refuses a request from someone who already has access', async () => {
    const folder = await client('ana').createFolder('Mine', null);
    await expect(
      client('ana').api('/api/join-requests', { method: 'POST', body: { type: 'group', id: folder.id } }),
    ).rejects.toThrow('You already have access.');
  });
});

describe('collaborators', () => {
  it('lets only the publisher change permissions; an editor then edits, a viewer does not', async () => {
    const folder = await client('ana').createFolder('Roles', null);
    for (const who of ['bob', 'cid']) {
      await client(who).api('/api/join-requests', {
        method: 'POST',
        body: { type: 'group', id: folder.id, invite: await inviteOf(client('ana'), 'group', folder.id) },
      });
      await client('ana').api(`/api/join-requests/${folder.id}/${idOf(who)}/approve`, { method: 'POST' });
    }
    await expect(
      client('bob').api(`/api/share/group/${folder.id}/users/${idOf('cid')}`, {
        method: 'PUT',
        body: { permission: 'EDITOR' },
      }),
    ).rejects.toThrow('Only the publisher can change permissions.');
    await client('ana').api(`/api/share/group/${folder.id}/users/${idOf('bob')}`, {
      method: 'PUT',
      body: { permission: 'EDITOR' },
    });
    await client('bob').createFolder('By Bob', folder.id);
    await expect(client('cid').createFolder('By Cid', folder.id)).rejects.toThrow();

    const info = await client('ana').api<{ users: { displayName: string; role: string; canRemove: boolean }[] }>(
      `/api/share/group/${folder.id}`,
    );
    expect(info.users.map((u) => [u.displayName, u.role])).toEqual([
      ['ANA', 'PUBLISHER'],
      ['BOB', 'EDITOR'],
      ['CID', 'VIEWER'],
    ]);
    // Access reaches what is created inside later: Bob's folder is visible to Cid.
    expect((await client('cid').list(folder.id)).items.map((i) => i.name)).toContain('By Bob');
  });

  it('lets a user leave a group, and only the publisher remove others', async () => {
    const folder = await client('ana').createFolder('Leaving', null);
    for (const who of ['bob', 'cid']) {
      await client(who).api('/api/join-requests', {
        method: 'POST',
        body: { type: 'group', id: folder.id, invite: await inviteOf(client('ana'), 'group', folder.id) },
      });
      await client('ana').api(`/api/join-requests/${folder.id}/${idOf(who)}/approve`, { method: 'POST' });
    }
    await expect(
      client('bob').api(`/api/share/group/${folder.id}/users/${idOf('cid')}`, { method: 'DELETE' }),
    ).rejects.toThrow();
    await client('bob').api(`/api/share/group/${folder.id}/users/${idOf('bob')}`, { method: 'DELETE' });
    await expect(client('bob').list(folder.id)).rejects.toThrow('You are not authorized to access this group');
    await client('ana').api(`/api/share/group/${folder.id}/users/${idOf('cid')}`, { method: 'DELETE' });
    await expect(client('cid').list(folder.id)).rejects.toThrow('You are not authorized to access this group');
    await expect(
      client('ana').api(`/api/share/group/${folder.id}/users/${idOf('ana')}`, { method: 'DELETE' }),
    ).rejects.toThrow('The publisher cannot be removed.');
  });
});

describe('invitations by e-mail', () => {
  it('sends the invitation link to each address through SMTP, and limits the rate', async () => {
    const folder = await client('ana').createFolder('Invited', null);
    await expect(
      client('ana').api(`/api/share/group/${folder.id}/invitations`, {
        method: 'POST',
        body: { emails: ['not-an-address'] },
      }),
    ).rejects.toThrow('Please add a valid email');
    const sent = await client('ana').api<{ sent: number }>(`/api/share/group/${folder.id}/invitations`, {
      method: 'POST',
      body: { emails: ['one@guest.test', 'two@guest.test', 'ONE@guest.test'] },
    });
    expect(sent.sent).toBe(2);
    const mail = await waitFor(() => smtp.inbox.find((m) => m.to.includes('two@guest.test')), { what: 'invitation' });
    expect(mail.raw).toContain('Invited');
    expect(mail.raw.replace(/=\r?\n/g, '')).toMatch(/\/j\/[A-Za-z0-9_-]+/);

    let refused = 0;
    for (let i = 0; i < 3; i++) {
      const result = await call(server.url, `/api/share/group/${folder.id}/invitations`, {
        method: 'POST',
        token: token.get('ana')!,
        body: { emails: Array.from({ length: 20 }, (_, k) => `bulk${i}-${k}@guest.test`) },
      });
      if (result.status === 429) refused++;
    }
    expect(refused).toBe(1); // 2 + 20 + 20 fit in 50 an hour; the third batch does not
  });

  it('limits join requests per user', async () => {
    const folders = await Promise.all(
      Array.from({ length: 21 }, (_, i) => client('ana').createFolder(`Spam ${i}`, null)),
    );
    const statuses: number[] = [];
    for (const f of folders)
      statuses.push(
        (
          await call(server.url, '/api/join-requests', {
            method: 'POST',
            token: token.get('dee')!,
            body: { type: 'group', id: f.id, invite: await inviteOf(client('ana'), 'group', f.id) },
          })
        ).status,
      );
    expect(statuses.filter((s) => s === 204)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('public links', () => {
  it('shows the shared subtree to anyone, downloads inside it, and nothing after revoking', async () => {
    const folder = await client('ana').createFolder('Public EP', null);
    const inner = await client('ana').createFolder('Bonus', folder.id);
    const { ticket } = await client('ana').upload(makeAudio('Single.wav', { seconds: 1 }), inner.id);
    const link = await client('ana').api<{ url: string }>(`/api/share/group/${folder.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const shared = new URL(link.url).searchParams.get('shared_group')!;
    expect(Buffer.from(shared, 'base64url').length).toBeGreaterThanOrEqual(16);

    const root = await call(server.url, `/api/public/share?token=${shared}`);
    expect(root.body).toMatchObject({ title: 'Public EP', items: [{ kind: 'group', name: 'Bonus' }] });
    const sub = await call(server.url, `/api/public/share?token=${shared}&folder=${inner.id}`);
    expect((sub.body.breadcrumb as { name: string }[]).map((c) => c.name)).toEqual(['Public EP', 'Bonus']);
    // The original leaves through a link only where its publisher turned downloads on.
    expect((await call(server.url, `/api/public/versions/${ticket.version.id}/download?token=${shared}`)).status).toBe(
      403,
    );
    await client('ana').api(`/api/projects/${ticket.project.id}`, { method: 'PATCH', body: { enableDownload: true } });
    const download = await call(server.url, `/api/public/versions/${ticket.version.id}/download?token=${shared}`);
    expect(download.status).toBe(200);
    expect((await fetch(String(download.body.url))).status).toBe(200);

    await client('ana').api(`/api/share/group/${folder.id}/public-link`, { method: 'PUT', body: { isActive: false } });
    const gone = await call(server.url, `/api/public/share?token=${shared}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error?.message).toBe('Oooops, nothing here!');
    expect((await call(server.url, `/api/public/versions/${ticket.version.id}/download?token=${shared}`)).status).toBe(
      404,
    );
  });

  it('blocks sharing of items in the trash', async () => {
    const folder = await client('ana').createFolder('Binned', null);
    await client('ana').api('/api/items/trash', {
      method: 'POST',
      body: { items: [{ kind: 'group', id: folder.id }] },
    });
    await expect(
      client('ana').api(`/api/share/group/${folder.id}/public-link`, { method: 'PUT', body: { isActive: true } }),
    ).rejects.toThrow('This item is in the trash.');
  });
});

describe('public "Download all"', () => {
  it('zips the shared folder for a visitor, and stops when the link is revoked', async () => {
    const folder = await client('ana').createFolder('Zip EP', null);
    const source = makeAudio('Track One.wav', { seconds: 1 });
    const { ticket } = await client('ana').upload(source, folder.id);
    await client('ana').api(`/api/projects/${ticket.project.id}`, { method: 'PATCH', body: { enableDownload: true } });
    const link = await client('ana').api<{ url: string }>(`/api/share/group/${folder.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const shared = new URL(link.url).searchParams.get('shared_group')!;
    const prepared = await call(server.url, '/api/public/zip', { method: 'POST', body: { token: shared } });
    expect(prepared.status).toBe(200);
    const response = await fetch(`${server.url}${String(prepared.body.url)}`);
    const entries = await unzip(Buffer.from(await response.arrayBuffer()));
    expect([...entries.keys()]).toEqual(['Zip EP/Track One.wav']);
    expect(entries.get('Zip EP/Track One.wav')!.equals(readFileSync(source))).toBe(true);

    await client('ana').api(`/api/share/group/${folder.id}/public-link`, { method: 'PUT', body: { isActive: false } });
    expect((await fetch(`${server.url}${String(prepared.body.url)}`)).status).toBe(404);
    expect((await call(server.url, '/api/public/zip', { method: 'POST', body: { token: shared } })).status).toBe(404);
  });
});

describe('a public link to one project', () => {
  it('shows that project only; other projects of the same publisher stay out of reach', async () => {
    const { ticket } = await client('ana').upload(makeAudio('Solo.wav', { seconds: 1 }), null);
    const other = await client('ana').upload(makeAudio('Other.wav', { seconds: 1 }), null);
    const link = await client('ana').api<{ url: string }>(`/api/share/project/${ticket.project.id}/public-link`, {
      method: 'PUT',
      body: { isActive: true },
    });
    const shared = new URL(link.url).searchParams.get('shared_project')!;
    const listing = await call(server.url, `/api/public/share?token=${shared}`);
    expect(listing.body).toMatchObject({
      title: 'Solo',
      root: { type: 'project' },
      items: [{ kind: 'project', name: 'Solo' }],
    });
    // Downloads are off: the visitor plays the lossy preview, once it is made (409 'being prepared' until then).
    const preview = () => call(server.url, `/api/public/versions/${ticket.version.id}/preview?token=${shared}`);
    expect([200, 409]).toContain((await preview()).status);
    await waitFor(async () => (await preview()).status === 200, { what: 'the lossy preview' });
    expect(
      (await call(server.url, `/api/public/versions/${other.ticket.version.id}/download?token=${shared}`)).status,
    ).toBe(404);
  });
});
