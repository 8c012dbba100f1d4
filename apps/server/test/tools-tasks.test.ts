import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditsResponse, Task } from '@mixroom/contracts';
import { TOOLS_MESSAGES } from '@mixroom/shared';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';
import { longSilence, probeFile, shortMix, toolsClient } from './helpers/tools';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

let server: TestServer;
let admin: string;
let alice: string;
let bob: string;
let aliceId: string;
const dir = mkdtempSync(join(tmpdir(), 'mixroom-tools-'));
const song = shortMix(join(dir, 'song.wav'), 2.5);

const signIn = async (email: string) =>
  (await signInThroughOidc(server.url, { email, password: `${email}-password-long` })).access_token;
const idOf = async (token: string) => ((await call(server.url, '/api/me', { token })).body as { id: string }).id;
const spendsOf = async (token: string, taskId: string) =>
  ((await call(server.url, '/api/credits', { token })).body as unknown as CreditsResponse).entries.filter(
    (e) => e.ref === `task:${taskId}`,
  );

beforeAll(async () => {
  server = await startTestServer();
  admin = await signIn('admin@tools.test');
  alice = await signIn('alice@tools.test');
  bob = await signIn('bob@tools.test');
  aliceId = await idOf(alice);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a stem separation task', () => {
  let task: Task;

  it('runs PENDING → RUNNING → COMPLETED over realtime, refuses a second task meanwhile, charges 5 once', async () => {
    const tools = toolsClient(server.url, alice);
    const socket = await connectRealtime(server.url);
    await socket.auth(alice);
    await socket.subscribe(`user:${aliceId}`);
    const before = (await tools.api<{ credits: { remaining: number } }>('/api/tools')).credits.remaining;

    const uploadId = await tools.upload(song);
    const created = await tools.raw('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'TWOSTEMS', input: { uploadId } },
    });
    expect(created.status).toBe(201);
    task = created.body as unknown as Task;
    expect(task).toMatchObject({
      name: 'Stemseparation Task - TWOSTEMS - song.wav',
      type: 'STEMSEPARATION',
      status: 'PENDING',
      sessions: [{ type: 'STEMSEPARATION', status: 'PENDING', progress: -1 }],
    });
    expect(task.figures.inputDurationSeconds).toBeCloseTo(2.5, 1);

    const second = await tools.raw('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'EVERYTHING', input: { uploadId } },
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'TASKS_RUNNING', message: TOOLS_MESSAGES.busy });

    task = await tools.settled(task.id);
    expect(task.status).toBe('COMPLETED');
    expect(task.creditsCharged).toBe(5);
    expect(task.outputs.map((o) => o.fileName).sort()).toEqual(['song_no_vocals.m4a', 'song_vocals.m4a']);
    expect(task.outputs.every((o) => o.engine.label.length > 0)).toBe(true);
    expect(task.figures.processingSeconds).toBeGreaterThanOrEqual(0);

    const statuses = await waitFor(() => {
      const seen = socket
        .events()
        .flatMap((e) => (e.type === 'task.changed' && e.data.taskId === task.id ? [e.data.status] : []));
      return seen.at(-1) === 'COMPLETED' ? seen : null;
    });
    expect(statuses[0]).toBe('PENDING');
    expect(statuses).toContain('RUNNING');
    expect(statuses.indexOf('RUNNING')).toBeLessThan(statuses.lastIndexOf('COMPLETED'));
    socket.close();

    const spends = await spendsOf(alice, task.id);
    expect(spends).toHaveLength(1);
    expect(spends[0]).toMatchObject({ kind: 'spend', amount: -5 });
    const after = (await tools.api<{ credits: { remaining: number } }>('/api/tools')).credits.remaining;
    expect(after).toBe(before - 5);
  });

  it('hands out the stems under the spec names, playable, with previews and peaks', async () => {
    const tools = toolsClient(server.url, alice);
    const { files } = await tools.api<{ files: { fileName: string; url: string }[] }>(
      `/api/tools/tasks/${task.id}/downloads`,
    );
    expect(files.map((f) => f.fileName).sort()).toEqual(['song_no_vocals.m4a', 'song_vocals.m4a']);
    for (const file of files) {
      const response = await fetch(file.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain(file.fileName);
      const path = join(dir, file.fileName);
      writeFileSync(path, Buffer.from(await response.arrayBuffer()));
      const facts = probeFile(path);
      expect(facts.codec).toBe('aac');
      expect(facts.seconds).toBeGreaterThan(2.2);
    }
    const previews = await tools.api<{ items: { audioUrl: string; peaksUrl: string | null }[] }>(
      `/api/tools/tasks/${task.id}/previews`,
    );
    expect(previews.items).toHaveLength(2);
    const peaks = (await (await fetch(previews.items[0]!.peaksUrl!)).json()) as { version: number; levels: unknown[] };
    expect(peaks.version).toBe(1);
    expect(peaks.levels.length).toBeGreaterThan(0);
  });

  it("is its owner's alone: another user can't read, preview, download or delete it", async () => {
    const stranger = toolsClient(server.url, bob);
    for (const [method, path] of [
      ['GET', `/api/tools/tasks/${task.id}`],
      ['GET', `/api/tools/tasks/${task.id}/downloads`],
      ['GET', `/api/tools/tasks/${task.id}/previews`],
      ['POST', `/api/tools/tasks/${task.id}/save`],
      ['DELETE', `/api/tools/tasks/${task.id}`],
    ] as const) {
      const answer = await stranger.raw(path, {
        method,
        ...(method === 'POST' ? { body: { as: 'attachments' } } : {}),
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect((await call(server.url, path, { method })).status, `signed out ${method} ${path}`).toBe(401);
    }
    expect((await stranger.api<{ items: Task[] }>('/api/tools/tasks')).items).toHaveLength(0);
    expect((await stranger.raw('/api/admin/tools/tasks')).status).toBe(403);
    const queue = await call(server.url, '/api/admin/tools/tasks?status=all', { token: admin });
    expect(queue.status).toBe(200);
  });
});

describe('a Revoice task from the library', () => {
  it('chains separation, voice and effects, and downloads one song named after the task', async () => {
    const tools = toolsClient(server.url, alice);
    const { version } = await tools.storage.upload(song, null, { fileName: 'take.wav' });
    expect(
      (
        await toolsClient(server.url, bob).raw('/api/tools/tasks', {
          method: 'POST',
          body: { tool: 'revoice', voice: 'susy', input: { versionId: version.id } },
        })
      ).status,
    ).toBe(403);
    const created = await tools.api<Task>('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'revoice', voice: 'susy', input: { versionId: version.id } },
    });
    expect(created.name).toBe('Revoice Task - Susy - take.wav');
    expect(created.type).toBe('REVOICE');
    expect(created.sessions.map((s) => s.type)).toEqual(['STEMSEPARATION', 'VC', 'VST']);
    const task = await tools.settled(created.id, 90_000);
    expect(task.status, JSON.stringify(task.sessions)).toBe('COMPLETED');
    expect(task.input).toMatchObject({ source: 'version', versionId: version.id });
    expect(task.capabilities.canSaveToLibrary).toBe(true);
    expect(new Set(task.outputs.map((o) => o.engine.id)).size).toBeGreaterThan(1);
    const { files } = await tools.api<{ files: { fileName: string; url: string }[] }>(
      `/api/tools/tasks/${task.id}/downloads`,
    );
    expect(files.map((f) => f.fileName)).toEqual(['Revoice Task - Susy - take.wav.m4a']);
    const path = join(dir, 'revoice.m4a');
    writeFileSync(path, Buffer.from(await (await fetch(files[0]!.url)).arrayBuffer()));
    expect(probeFile(path).codec).toBe('aac');
    expect(await spendsOf(alice, task.id)).toHaveLength(1);

    const saved = await tools.api<{ attachmentIds: string[] }>(`/api/tools/tasks/${task.id}/save`, {
      method: 'POST',
      body: { as: 'attachments' },
    });
    expect(saved.attachmentIds).toHaveLength(1);
    const attachments = await tools.api<{ items: { id: string; name: string }[] }>(
      `/api/projects/${version.projectId}/attachments`,
    );
    expect(attachments.items.map((a) => a.id)).toEqual(saved.attachmentIds);
    expect(attachments.items[0]!.name).toBe('Revoice Task - Susy - take.wav');
    // Saved like any upload: the media job makes it playable (a measured duration).
    await waitFor(
      async () => {
        const listed = await tools.api<{
          items: { latestVersion: { status: string; durationSeconds: number | null } | null }[];
        }>(`/api/projects/${version.projectId}/attachments`);
        const saved = listed.items[0]?.latestVersion;
        return saved?.status === 'ready' && (saved.durationSeconds ?? 0) > 0 ? true : (saved ?? null);
      },
      { what: 'the saved attachment processed' },
    );

    const listed = await tools.api<{ items: Task[] }>('/api/tools/tasks?q=revoice');
    expect(listed.items.map((t) => t.id)).toEqual([task.id]);
    expect((await tools.raw(`/api/tools/tasks/${task.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await tools.raw(`/api/tools/tasks/${task.id}`)).status).toBe(404);
    expect((await fetch(files[0]!.url)).status).toBeGreaterThanOrEqual(400);
  }, 120_000);
});

describe('what a task is refused', () => {
  it('too-long audio, an unknown extension, too few credits, and links that are not public', async () => {
    const carol = await signIn('carol@tools.test');
    const tools = toolsClient(server.url, carol);
    const start = (body: unknown) => tools.raw('/api/tools/tasks', { method: 'POST', body });

    const voiceTooLong = await tools.upload(longSilence(join(dir, 'long601.flac'), 601));
    const refused = await start({ tool: 'revoice', voice: 'roberto', input: { uploadId: voiceTooLong } });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.message).toBe('The audio file is too long. Please use a file shorter than 10 minutes.');
    const stemsTooLong = await tools.upload(longSilence(join(dir, 'long1801.flac'), 1801));
    const refused30 = await start({ tool: 'stems', mode: 'TWOSTEMS', input: { uploadId: stemsTooLong } });
    expect(refused30.body.error?.message).toBe(
      'The audio file is too long. Please use a file shorter than 30 minutes.',
    );

    const aiff = await tools.raw('/api/tools/uploads', { method: 'POST', body: { fileName: 'take.aiff', size: 1000 } });
    expect(aiff.status).toBe(400);
    expect(aiff.body.error?.message).toBe(TOOLS_MESSAGES.extension());

    for (const [url, status, message] of [
      ['', 400, TOOLS_MESSAGES.urlRequired],
      ['file:///etc/passwd', 400, TOOLS_MESSAGES.urlInvalid],
      ['http://localhost/song.wav', 422, TOOLS_MESSAGES.linkFailed],
      ['http://127.0.0.1:9/song.wav', 422, TOOLS_MESSAGES.linkFailed],
      ['http://10.1.2.3/song.wav', 422, TOOLS_MESSAGES.linkFailed],
    ] as const) {
      const answer = await start({ tool: 'stems', mode: 'TWOSTEMS', input: { url } });
      expect(answer.status, url).toBe(status);
      expect(JSON.stringify(answer.body.error), url).toContain(message);
    }

    const carolId = await idOf(carol);
    const balance = (await tools.api<{ credits: { remaining: number } }>('/api/tools')).credits.remaining;
    const adjusted = await call(server.url, `/api/admin/users/${carolId}/credits`, {
      method: 'POST',
      token: admin,
      body: { amount: 4 - balance, reason: 'test: leave 4' },
    });
    expect(adjusted.status).toBeLessThan(300);
    const poor = await start({ tool: 'stems', mode: 'TWOSTEMS', input: { uploadId: voiceTooLong } });
    expect(poor.status).toBe(402);
    expect(poor.body.error).toMatchObject({ code: 'NOT_ENOUGH_CREDITS', message: TOOLS_MESSAGES.noCredits });
    expect((await tools.api<{ items: Task[] }>('/api/tools/tasks')).items).toHaveLength(0);
  }, 60_000);

  it('starts one task of several sent at once, and charges it once', async () => {
    const dave = await signIn('dave@tools.test');
    const tools = toolsClient(server.url, dave);
    const { version } = await tools.storage.upload(song, null, { fileName: 'race.wav' });
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        tools.raw('/api/tools/tasks', {
          method: 'POST',
          body: { tool: 'stems', mode: 'TWOSTEMS', input: { versionId: version.id } },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    const started = answers.find((a) => a.status === 201)!.body as unknown as Task;
    expect((await tools.settled(started.id)).status).toBe('COMPLETED');
    expect((await tools.api<{ items: Task[] }>('/api/tools/tasks')).items).toHaveLength(1);
    expect(await spendsOf(dave, started.id)).toHaveLength(1);
  }, 60_000);

  it('lets an administrator see the queue and cancel a task: it fails, nothing is charged', async () => {
    const erin = await signIn('erin@tools.test');
    const tools = toolsClient(server.url, erin);
    const uploadId = await tools.upload(shortMix(join(dir, 'long-song.wav'), 30));
    const task = await tools.api<Task>('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'EVERYTHING', input: { uploadId } },
    });
    const queue = await call(server.url, '/api/admin/tools/tasks', { token: admin });
    expect((queue.body.items as { id: string }[]).map((t) => t.id)).toContain(task.id);
    const cancelled = await call(server.url, `/api/admin/tools/tasks/${task.id}/cancel`, {
      method: 'POST',
      token: admin,
    });
    expect(cancelled.status).toBe(200);
    const after = await tools.task(task.id);
    expect(after.status).toBe('FAILED');
    expect(after.sessions[0]!.message).toBe('Cancelled by an administrator.');
    expect(await spendsOf(erin, task.id)).toHaveLength(0);
    expect((await tools.api<{ busy: boolean }>('/api/tools')).busy).toBe(false);
  });

  it('lists the six voices, Roberto first', async () => {
    const { voices } = await toolsClient(server.url, bob).api<{ voices: { name: string; isDefault: boolean }[] }>(
      '/api/tools/voices',
    );
    expect(voices.map((v) => v.name)).toEqual(['Roberto', 'Susy', 'Nausicaa', 'Chris', 'Ponyo', 'Lilly']);
    expect(voices[0]!.isDefault).toBe(true);
  });
});
