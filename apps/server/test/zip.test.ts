import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { unzip } from './helpers/unzip';
import { makeAudio } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let token: string;
let client: ReturnType<typeof storageClient>;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  server = await startTestServer();
  token = (await signInThroughOidc(server.url, { email: 'zip@studio.test', password: 'zip-password' })).access_token;
  client = storageClient(server.url, token);
});
afterAll(() => server.close());

describe('ZIP downloads', () => {
  it('streams a folder tree as one ZIP whose entries are the uploaded files, with progress', async () => {
    const album = await client.createFolder('Album', null);
    const drums = await client.createFolder('Drums', album.id);
    const kick = makeAudio('kick.wav', { seconds: 1 });
    const lead = makeAudio('lead.mp3', { seconds: 2 });
    const gone = makeAudio('gone.wav', { seconds: 1 });
    await client.upload(kick, drums.id);
    await client.upload(lead, album.id);
    const { ticket } = await client.upload(gone, album.id);
    await client.api('/api/items/trash', {
      method: 'POST',
      body: { items: [{ kind: 'project', id: ticket.project.id }] },
    });

    const listener = await connectRealtime(server.url);
    await listener.auth(token);
    const me = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    await listener.subscribe(`user:${me}`);

    const prepared = await client.api<{ url: string; downloadId: string; fileName: string }>('/api/downloads/zip', {
      method: 'POST',
      body: { items: [{ kind: 'group', id: album.id }] },
    });
    const response = await fetch(`${server.url}${prepared.url}`);
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    expect(response.headers.get('content-disposition')).toContain('.zip');

    const entries = await unzip(body);
    expect([...entries.keys()].sort()).toEqual(['Album/Drums/kick.wav', 'Album/lead.mp3']);
    expect(sha256(entries.get('Album/Drums/kick.wav')!)).toBe(sha256(readFileSync(kick)));
    expect(sha256(entries.get('Album/lead.mp3')!)).toBe(sha256(readFileSync(lead)));
    await waitFor(
      () =>
        listener
          .events()
          .find(
            (e) =>
              e.type === 'download.progress' && e.data.downloadId === prepared.downloadId && e.data.percent === 100,
          ),
      {
        what: '100 %',
      },
    );
    listener.close();
  });

  it('refuses a forged or foreign request', async () => {
    const other = storageClient(
      server.url,
      (await signInThroughOidc(server.url, { email: 'other@studio.test', password: 'other-password' })).access_token,
    );
    const mine = await client.createFolder('Private', null);
    await expect(
      other.api('/api/downloads/zip', { method: 'POST', body: { items: [{ kind: 'group', id: mine.id }] } }),
    ).rejects.toThrow('You are not authorized to access this group');
    const prepared = await client.api<{ url: string }>('/api/downloads/zip', {
      method: 'POST',
      body: { items: [{ kind: 'group', id: mine.id }] },
    });
    const tampered = prepared.url.replace(/t=([^.]+)\./, (_, body: string) => `t=${body.slice(0, -2)}xx.`);
    expect((await fetch(`${server.url}${tampered}`)).status).toBe(403);
    expect((await call(server.url, prepared.url)).status).toBe(404);
  });
});
