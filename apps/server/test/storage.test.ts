import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectItem, Version } from '@mixroom/contracts';
import { MESSAGES, STORAGE_MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { audioDir, makeAudio, referenceLoudness } from './helpers/audio';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let ana: ReturnType<typeof storageClient>;
let bob: ReturnType<typeof storageClient>;
let anaToken: string;
let bobToken: string;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  server = await startTestServer();
  anaToken = (await signInThroughOidc(server.url, { email: 'ana@storage.test', password: 'ana-password' }))
    .access_token;
  ana = storageClient(server.url, anaToken);
  bobToken = (await signInThroughOidc(server.url, { email: 'bob@storage.test', password: 'bob-password' }))
    .access_token;
  bob = storageClient(server.url, bobToken);
});
afterAll(() => server.close());

/** How long a version may take to process when a whole test run loads the machine. */
const PROCESSING_MS = 110_000;
/** Tests that wait for processing, once or twice. */
const WAITS_FOR_PROCESSING = { timeout: 2 * PROCESSING_MS + 30_000 };

async function processed(client: typeof ana, projectId: string): Promise<Version> {
  return waitFor(
    async () => {
      const { versions } = await client.project(projectId);
      // Ready comes first (waveform); progress 100 once loudness is measured too.
      const settled = versions.every((v) => (v.status === 'ready' && v.progress === 100) || v.status === 'corrupt');
      return settled ? versions[0] : undefined;
    },
    // The preview's encode runs at low priority: on a machine loaded by a whole test run it waits.
    { timeoutMs: PROCESSING_MS, what: 'processing' },
  );
}

describe('folders', () => {
  it('nests folders and shows the breadcrumb from the root', async () => {
    const mixes = await ana.createFolder('Mixes', null);
    const album = await ana.createFolder('Album', mixes.id);
    const singles = await ana.createFolder('Singles', album.id);
    const listing = await ana.list(singles.id);
    expect(listing.breadcrumb.map((c) => c.name)).toEqual(['Mixes', 'Album', 'Singles']);
    expect(listing.items).toEqual([]);
    expect((await ana.list(null)).items.map((i) => i.name)).toContain('Mixes');
  });

  it('validates names with the spec texts', async () => {
    await expect(ana.createFolder('   ', null)).rejects.toThrow('A name is required');
    await expect(ana.createFolder('x'.repeat(51), null)).rejects.toThrow('Use at most 50 characters.');
    const exact = await ana.createFolder('x'.repeat(50), null);
    expect(exact.name).toHaveLength(50);
    await expect(ana.api(`/api/groups/${exact.id}`, { method: 'PATCH', body: { name: '' } })).rejects.toThrow(
      'A folder name is required',
    );
  });

  it('keeps names with slashes, dots, quotes and emoji exactly', async () => {
    const name = `AC/DC – "Live" ..v2 🎸`;
    const folder = await ana.createFolder(name, null);
    const listing = await ana.list(null);
    expect(listing.items.find((i) => i.id === folder.id)?.name).toBe(name);
  });

  it('refuses to move a folder into itself or one of its children', async () => {
    const parent = await ana.createFolder('Parent', null);
    const child = await ana.createFolder('Child', parent.id);
    const grandchild = await ana.createFolder('Grandchild', child.id);
    await expect(
      ana.api(`/api/groups/${parent.id}`, { method: 'PATCH', body: { parentId: grandchild.id } }),
    ).rejects.toThrow(STORAGE_MESSAGES.moveIntoItself);
    await expect(
      ana.api(`/api/groups/${parent.id}`, { method: 'PATCH', body: { parentId: parent.id } }),
    ).rejects.toThrow(STORAGE_MESSAGES.moveIntoItself);

    const other = await ana.createFolder('Other', null);
    await ana.api(`/api/groups/${child.id}`, { method: 'PATCH', body: { parentId: other.id } });
    expect((await ana.list(grandchild.id)).breadcrumb.map((c) => c.name)).toEqual(['Other', 'Child', 'Grandchild']);
  });

  it('creates the missing folders of a dropped tree once', async () => {
    const root = await ana.createFolder('Drop', null);
    const first = await ana.api<{ folders: Record<string, string> }>('/api/groups/ensure', {
      method: 'POST',
      body: { parentId: root.id, paths: ['Live/Drums', 'Live/Keys', 'Stems'] },
    });
    const again = await ana.api<{ folders: Record<string, string> }>('/api/groups/ensure', {
      method: 'POST',
      body: { parentId: root.id, paths: ['Live/Drums'] },
    });
    expect(Object.keys(first.folders).sort()).toEqual(['Live', 'Live/Drums', 'Live/Keys', 'Stems']);
    expect(again.folders['Live/Drums']).toBe(first.folders['Live/Drums']);
    expect((await ana.list(first.folders.Live!)).items.map((i) => i.name)).toEqual(['Drums', 'Keys']);
  });

  it('keeps other users out', async () => {
    const secret = await ana.createFolder('Secret', null);
    await expect(bob.list(secret.id)).rejects.toThrow('You are not authorized to access this group');
    await expect(bob.createFolder('Intruder', secret.id)).rejects.toThrow(
      'You are not authorized to access this group',
    );
    expect((await bob.list(null)).items).toEqual([]);
  });
});

describe('audio projects and versions', WAITS_FOR_PROCESSING, () => {
  let folderId: string;
  let project: ProjectItem;
  let source: string;

  beforeAll(async () => {
    folderId = (await ana.createFolder('Session', null)).id;
    source = makeAudio('Final Mix.wav', { seconds: 4, codec: 'pcm_s24le', volume: 0.4 });
    const { ticket } = await ana.upload(source, folderId);
    project = ticket.project;
  });

  it('turns an uploaded file into an AUDIO project with probe, loudness, peaks and thumbnail', async () => {
    expect(project).toMatchObject({ name: 'Final Mix', type: 'AUDIO', tag: 'owner' });
    const version = await processed(ana, project.id);
    expect(version).toMatchObject({
      number: 1,
      name: 'Final Mix',
      fileName: 'Final Mix.wav',
      status: 'ready',
      hasThumbnail: true,
    });
    expect(version.media).toMatchObject({ channels: 2, sampleRate: 48000, bitDepth: 24, codec: 'pcm_s24le' });
    expect(version.durationSeconds).toBeCloseTo(4, 1);
    const reference = referenceLoudness(source);
    expect(Math.abs(version.loudness!.integrated! - reference.integrated)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(version.loudness!.truePeak! - reference.truePeak)).toBeLessThanOrEqual(0.1);

    const thumbnail = await fetch(`${server.url}/api/versions/${version.id}/thumbnail`, {
      headers: { authorization: `Bearer ${anaToken}` },
    });
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await thumbnail.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const peaks = (await (
      await fetch(`${server.url}/api/versions/${version.id}/peaks`, {
        headers: { authorization: `Bearer ${anaToken}` },
      })
    ).json()) as {
      levels: { samplesPerPeak: number; data: string }[];
    };
    expect(Buffer.from(peaks.levels[0]!.data, 'base64').length).toBe(400); // 100 peaks a second
  });

  it('downloads the original, byte for byte, under its name', async () => {
    const version = await processed(ana, project.id);
    const { url } = await ana.api<{ url: string }>(`/api/versions/${version.id}/download`);
    const response = await fetch(url);
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(readFileSync(source)));
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''Final%20Mix.wav");
    await expect(bob.api(`/api/versions/${version.id}/download`)).rejects.toThrow(
      'You are not authorized to access this project',
    );
  });

  it('numbers new versions and allows only the last version’s extension', async () => {
    const mp3 = makeAudio('Other.mp3', { seconds: 1 });
    await expect(ana.addVersion(project.id, mp3, 'Wrong format')).rejects.toThrow(
      'File extension is not supported for this version, please use .wav',
    );
    const second = await ana.addVersion(project.id, makeAudio('Final Mix v2.wav', { seconds: 2 }), 'Louder');
    expect(second.number).toBe(2);
    expect((await processed(ana, project.id)).number).toBe(2);
    await expect(
      ana.api(`/api/projects/${project.id}/versions`, {
        method: 'POST',
        body: { name: '', fileName: 'a.wav', size: 10 },
      }),
    ).rejects.toThrow('A version name is required');
  });

  it('refuses an empty file before anything is stored', async () => {
    await expect(
      ana.api('/api/projects/upload', { method: 'POST', body: { groupId: folderId, fileName: 'empty.wav', size: 0 } }),
    ).rejects.toThrow(STORAGE_MESSAGES.emptyFile);
  });

  it('marks a text file renamed .wav as a corrupt version, not a crash', async () => {
    const fake = join(audioDir, 'notes.wav');
    writeFileSync(fake, 'This is not audio at all, just words.\n'.repeat(50));
    const { ticket } = await ana.upload(fake, folderId);
    const version = await processed(ana, ticket.project.id);
    expect(version.status).toBe('corrupt');
    expect(version.error).toBeTruthy();
    expect((await call(server.url, '/api/health')).status).toBe(200);
  });

  it('stores other files as ANY projects without processing', async () => {
    const pdf = join(audioDir, 'lyrics.pdf');
    writeFileSync(pdf, '%PDF-1.4 fake but fine');
    const { ticket } = await ana.upload(pdf, folderId);
    expect(ticket.project.type).toBe('ANY');
    expect((await processed(ana, ticket.project.id)).status).toBe('ready');
    const audioOnly = await ana.list(folderId, '?kind=pdf');
    expect(audioOnly.items.map((i) => i.name)).toEqual(['lyrics']);
  });

  it('checks the storage limit of the plan before any byte moves', async () => {
    const result = await call(server.url, '/api/projects/upload', {
      method: 'POST',
      token: anaToken,
      body: { groupId: folderId, fileName: 'huge.wav', size: 15_000_000_001 },
    });
    expect(result.status).toBe(413);
    expect(result.body.error?.message).toBe(MESSAGES.storageLimit);
    expect((await ana.list(folderId)).items.some((i) => i.name === 'huge')).toBe(false);
  });

  it('cancels an upload and removes the new project', async () => {
    const ticket = await ana.api<{ version: { id: string }; project: { id: string } }>('/api/projects/upload', {
      method: 'POST',
      body: { groupId: folderId, fileName: 'cancel me.wav', size: 1000 },
    });
    await ana.api(`/api/versions/${ticket.version.id}/cancel`, { method: 'POST' });
    await expect(ana.project(ticket.project.id)).rejects.toThrow('This project does not exist.');
  });
});

describe('trash and search', WAITS_FOR_PROCESSING, () => {
  it('finds items anywhere the user can reach, case-insensitively, and only those', async () => {
    const deep = await ana.createFolder('Deep', null);
    const deeper = await ana.createFolder('Deeper', deep.id);
    await ana.upload(makeAudio('Needle In Haystack.mp3', { seconds: 1 }), deeper.id);
    const hits = await ana.api<{ items: { name: string; parentName: string | null }[] }>('/api/search?q=needle');
    expect(hits.items).toEqual([expect.objectContaining({ name: 'Needle In Haystack', parentName: 'Deeper' })]);
    expect((await bob.api<{ items: unknown[] }>('/api/search?q=needle')).items).toEqual([]);
    expect((await ana.api<{ items: unknown[] }>('/api/search?q=%25')).items).toEqual([]);
  });

  it('moves to trash, recovers, and deletes for good with the blobs', async () => {
    const folder = await ana.createFolder('To Trash', null);
    const { ticket } = await ana.upload(makeAudio('Gone.wav', { seconds: 1 }), folder.id);
    await processed(ana, ticket.project.id);
    const ref = { kind: 'group', id: folder.id };

    await ana.api('/api/items/trash', { method: 'POST', body: { items: [ref] } });
    expect((await ana.list(null)).items.some((i) => i.id === folder.id)).toBe(false);
    await expect(ana.list(folder.id)).rejects.toThrow(STORAGE_MESSAGES.inTrash);
    expect((await ana.api<{ items: unknown[] }>('/api/search?q=gone')).items).toEqual([]);
    const trash = await ana.api<{ items: { id: string }[] }>('/api/trash');
    expect(trash.items.map((i) => i.id)).toContain(folder.id);
    expect(trash.items.map((i) => i.id)).not.toContain(ticket.project.id);

    await ana.api('/api/items/recover', { method: 'POST', body: { items: [ref] } });
    expect((await ana.list(folder.id)).items.map((i) => i.name)).toEqual(['Gone']);

    await expect(ana.api('/api/items/delete', { method: 'POST', body: { items: [ref] } })).rejects.toThrow(
      STORAGE_MESSAGES.notInTrash,
    );
    await ana.api('/api/items/trash', { method: 'POST', body: { items: [ref] } });
    await expect(bob.api('/api/items/delete', { method: 'POST', body: { items: [ref] } })).rejects.toThrow();
    await ana.api('/api/trash/empty', { method: 'POST' });
    expect((await ana.api<{ items: unknown[] }>('/api/trash')).items).toEqual([]);
    expect(
      await server.context.blobs.head(`projects/${ticket.project.id}/${ticket.version.id}/original.wav`),
    ).toBeNull();
    expect(
      await server.context.blobs.head(`projects/${ticket.project.id}/${ticket.version.id}/waveform.png`),
    ).toBeNull();
    await expect(ana.project(ticket.project.id)).rejects.toThrow('This project does not exist.');
  });

  it('purges items trashed more than 30 days ago', async () => {
    const old = await ana.createFolder('Old', null);
    await ana.api('/api/items/trash', { method: 'POST', body: { items: [{ kind: 'group', id: old.id }] } });
    const trash = server.context.services.storage.trash;
    expect(await trash.purgeExpired(new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    expect(await trash.purgeExpired(new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThanOrEqual(1);
    await expect(ana.list(old.id)).rejects.toThrow('This folder does not exist.');
  });
});

describe('realtime in the storage area', () => {
  it('tells whoever follows a folder about changes, and refuses strangers', async () => {
    const folder = await ana.createFolder('Live Folder', null);
    const watcher = await connectRealtime(server.url);
    await watcher.auth(anaToken);
    expect(await watcher.subscribe(`group:${folder.id}`)).toMatchObject({ type: 'subscribed' });
    const stranger = await connectRealtime(server.url);
    await stranger.auth(bobToken);
    expect(await stranger.subscribe(`group:${folder.id}`)).toMatchObject({ type: 'denied' });

    const child = await ana.createFolder('Created Elsewhere', folder.id);
    await waitFor(() => watcher.events().find((e) => e.type === 'storage.changed' && e.data.itemId === child.id), {
      what: 'creation event',
    });
    await ana.api(`/api/groups/${child.id}`, { method: 'PATCH', body: { name: 'Renamed Elsewhere' } });
    await waitFor(
      () =>
        watcher
          .events()
          .find((e) => e.type === 'storage.changed' && e.data.itemId === child.id && e.data.action === 'updated'),
      { what: 'rename event' },
    );
    const { ticket } = await ana.upload(makeAudio('Watched.wav', { seconds: 2 }), folder.id);
    await waitFor(
      () =>
        watcher
          .events()
          .find(
            (e) => e.type === 'version.progress' && e.data.versionId === ticket.version.id && e.data.status === 'ready',
          ),
      {
        what: 'processing progress',
      },
    );
    watcher.close();
    stranger.close();
  });
});

describe('version menu and previews', WAITS_FOR_PROCESSING, () => {
  it('renames a version, deletes one, and deleting the only version deletes the project', async () => {
    const folder = await ana.createFolder('Versions', null);
    const { ticket } = await ana.upload(makeAudio('Song.wav', { seconds: 1 }), folder.id);
    const second = await ana.addVersion(ticket.project.id, makeAudio('Song v2.wav', { seconds: 1 }), 'Second');
    await processed(ana, ticket.project.id);

    await expect(ana.api(`/api/versions/${second.id}`, { method: 'PATCH', body: { name: '' } })).rejects.toThrow(
      'A version name is required',
    );
    await expect(bob.api(`/api/versions/${second.id}`, { method: 'PATCH', body: { name: 'Hijack' } })).rejects.toThrow(
      'You are not authorized to access this project',
    );
    const renamed = await ana.api<Version>(`/api/versions/${second.id}`, {
      method: 'PATCH',
      body: { name: 'Louder chorus' },
    });
    expect(renamed.name).toBe('Louder chorus');

    expect(await ana.api(`/api/versions/${second.id}`, { method: 'DELETE' })).toEqual({ projectDeleted: false });
    expect(await server.context.blobs.head(`projects/${ticket.project.id}/${second.id}/original.wav`)).toBeNull();
    const { versions } = await ana.project(ticket.project.id);
    expect(versions.map((v) => v.number)).toEqual([1]);

    expect(await ana.api(`/api/versions/${ticket.version.id}`, { method: 'DELETE' })).toEqual({ projectDeleted: true });
    await expect(ana.project(ticket.project.id)).rejects.toThrow('This project does not exist.');
  });

  it('gives an AIFF (which browsers cannot play) an AAC preview, and a WAV none', async () => {
    const folder = await ana.createFolder('Formats', null);
    const aiff = await ana.upload(makeAudio('Take.aiff', { seconds: 2 }), folder.id);
    const wav = await ana.upload(makeAudio('Take.wav', { seconds: 2 }), folder.id);
    await processed(ana, aiff.ticket.project.id);
    await processed(ana, wav.ticket.project.id);
    const preview = await fetch(`${server.url}/api/versions/${aiff.ticket.version.id}/preview`, {
      headers: { authorization: `Bearer ${anaToken}` },
    });
    const bytes = Buffer.from(await preview.arrayBuffer());
    expect(bytes.subarray(4, 8).toString()).toBe('ftyp'); // an MP4/M4A container
    const original = await fetch(`${server.url}/api/versions/${wav.ticket.version.id}/preview`, {
      headers: { authorization: `Bearer ${anaToken}` },
    });
    expect(
      Buffer.from(await original.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF'); // the WAV itself
  });
});
