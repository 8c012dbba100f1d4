import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskPartialPreview } from '@mixroom/contracts';
import { call } from './helpers/api';
import { HeldSeparator, useSeparator } from './helpers/held-separator';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';
import { shortMix, toolsClient } from './helpers/tools';
import { waitFor } from './helpers/wait-for';
import { connectRealtime } from './helpers/ws-client';

const RATE = 44_100;
/** Past this many finished frames the separator holds until the test lets it go on (helpers/held-separator.ts). */
const HOLD_AFTER = 6 * RATE;

let server: TestServer;
let alice: string;
let bob: string;
let aliceId: string;
let restore: (() => void) | undefined;
const dir = mkdtempSync(join(tmpdir(), 'mixroom-tools-preview-'));
// Nine chunks of 1 s: previews after the first (1 s) and the seventh (7 s), held there with two to go.
const song = shortMix(join(dir, 'long take.wav'), 8);

beforeAll(async () => {
  server = await startTestServer();
  const signIn = async (email: string) =>
    (await signInThroughOidc(server.url, { email, password: `${email}-password-long` })).access_token;
  alice = await signIn('alice@preview.test');
  bob = await signIn('bob@preview.test');
  aliceId = ((await call(server.url, '/api/me', { token: alice })).body as { id: string }).id;
}, 120_000);
afterAll(async () => {
  restore?.();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A FLAC file as stereo float channels, decoded by ffmpeg. */
function decode(path: string): Float32Array[] {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-ac', '2', '-'], {
    maxBuffer: 1 << 28,
  });
  const samples = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
  const frames = samples.length / 2;
  const channels = [new Float32Array(frames), new Float32Array(frames)];
  for (let i = 0; i < frames; i++) {
    channels[0]![i] = samples[2 * i]!;
    channels[1]![i] = samples[2 * i + 1]!;
  }
  return channels;
}

describe('the preview of a running separation', () => {
  it("plays the stems' finished start while the rest runs, to its owner alone, and goes when the task completes", async () => {
    const held = new HeldSeparator(HOLD_AFTER);
    restore = useSeparator(server, held);
    const tools = toolsClient(server.url, alice);
    const socket = await connectRealtime(server.url);
    await socket.auth(alice);
    await socket.subscribe(`user:${aliceId}`);

    const uploadId = await tools.upload(song);
    const created = await tools.api<Task>('/api/tools/tasks', {
      method: 'POST',
      body: { tool: 'stems', mode: 'TWOSTEMS', input: { uploadId } },
    });
    // Held mid-run with a preview of seven chunks; the task runs on nowhere meanwhile.
    const running = await waitFor(
      async () => {
        const task = await tools.task(created.id);
        return held.held && (task.sessions[0]!.preview?.seconds ?? 0) > 6 ? task : null;
      },
      { timeoutMs: 180_000, what: 'the separation to be held with its preview' },
    );
    expect(running.status).toBe('RUNNING');
    expect(running.sessions[0]!.preview!.kinds.sort()).toEqual(['no_vocals', 'vocals']);
    const seconds = running.sessions[0]!.preview!.seconds;
    expect(seconds).toBeLessThan(8);
    // The history heard it over realtime, with the seconds ready.
    const told = await waitFor(() =>
      socket
        .events()
        .find((e) => e.type === 'task.changed' && e.data.taskId === created.id && e.data.session?.previewSeconds),
    );
    expect(told.type === 'task.changed' && told.data.session?.previewSeconds).toBeGreaterThan(0);

    const preview = await tools.api<TaskPartialPreview>(`/api/tools/tasks/${created.id}/partial-preview`);
    expect(preview.sessionId).toBe(running.sessions[0]!.id);
    expect(preview.seconds).toBe(seconds);
    expect(preview.items.map((i) => i.fileName).sort()).toEqual([
      'long take_no_vocals_preview.flac',
      'long take_vocals_preview.flac',
    ]);
    // Someone else's task is not there for them; signed out is not signed in.
    const path = `/api/tools/tasks/${created.id}/partial-preview`;
    expect((await toolsClient(server.url, bob).raw(path)).status).toBe(404);
    expect((await call(server.url, path)).status).toBe(401);

    const files: Record<string, string> = {};
    for (const item of preview.items) {
      const response = await fetch(item.audioUrl);
      expect(response.status).toBe(200);
      files[item.kind] = join(dir, `${item.kind}.flac`);
      writeFileSync(files[item.kind]!, Buffer.from(await response.arrayBuffer()));
      // A player seeks with ranges.
      const part = await fetch(item.audioUrl, { headers: { range: 'bytes=0-99' } });
      expect(part.status).toBe(206);
      expect((await part.arrayBuffer()).byteLength).toBe(100);
    }

    held.release();
    const done = await tools.settled(created.id, 180_000);
    expect(done.status).toBe('COMPLETED');
    expect(done.sessions[0]!.preview).toBeNull();
    expect((await tools.api<TaskPartialPreview>(path)).items).toEqual([]);
    // The preview's files go with it (removed just after the completion is stored): their URLs
    // answer 404, never a server error, also while they are being removed.
    await expect.poll(async () => (await fetch(preview.items[0]!.audioUrl)).status, { timeout: 30_000 }).toBe(404);

    // The preview holds exactly the final stems' first seconds (16-bit: within half a step).
    for (const kind of ['vocals', 'no_vocals']) {
      const heard = decode(files[kind]!);
      const final = held.final[kind]!;
      expect(heard[0]!.length).toBe(Math.round(seconds * RATE));
      expect(heard[0]!.length).toBeLessThan(final[0]!.length);
      let worst = 0;
      for (let c = 0; c < 2; c++)
        for (let i = 0; i < heard[c]!.length; i++) worst = Math.max(worst, Math.abs(heard[c]![i]! - final[c]![i]!));
      expect(worst, kind).toBeLessThanOrEqual(0.5 / 32768 + 1e-7);
      // Not a trivially equal pair of silences.
      const peak = final[0]!.subarray(0, heard[0]!.length).reduce((most, v) => Math.max(most, Math.abs(v)), 0);
      expect(peak).toBeGreaterThan(0.01);
    }
    socket.close();
    // A ceiling for a machine loaded by other work (the separation and two previews), not a wait.
  }, 420_000);
});
