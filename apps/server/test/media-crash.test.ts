import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeAudio } from './helpers/audio';
import { seedEmbeddedDatabase } from './helpers/embedded-database-template';
import { freePort } from './helpers/free-port';
import { signInThroughOidc } from './helpers/oidc-flow';
import { SPAWNED_TIMEOUT_MS, spawnServer, type Spawned } from './helpers/spawn-server';
import { storageClient } from './helpers/storage-client';
import { waitFor } from './helpers/wait-for';

const dirs: string[] = [];
const servers: Spawned[] = [];
afterAll(async () => {
  // A failed test must not leave its server running.
  for (const server of servers)
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

/** Every process on the machine, read from /proc (the ones that vanish while reading are skipped). */
function processes(): ProcessInfo[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      return [{ pid: Number(entry), ppid: Number(ppid), state: state ?? '', command }];
    } catch {
      return [];
    }
  });
}

/** Gone, or a zombie waiting to be reaped: either way it runs no more. */
const stopped = (pid: number) => {
  const found = processes().find((p) => p.pid === pid);
  return !found || found.state === 'Z';
};

// Two starts, an upload and its processing twice: a ceiling for a loaded machine, not a wait.
describe('a server killed during media processing', { timeout: 3 * SPAWNED_TIMEOUT_MS }, () => {
  it('takes its ffmpeg children with it, keeps temp files in the data dir, and resumes the job at restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mixroom-media-crash-'));
    dirs.push(dataDir);
    await seedEmbeddedDatabase(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' };
    const start = async (): Promise<Spawned> => {
      const spawned = spawnServer(env);
      servers.push(spawned);
      await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok, {
        timeoutMs: 120_000,
        what: 'server start',
      });
      return spawned;
    };
    const tempRoot = join(dataDir, 'tmp');

    let server = await start();
    const { access_token: token } = await signInThroughOidc(base, {
      email: 'kim@crash.test',
      password: 'orphaned-encoder-7',
    });
    const client = storageClient(base, token);
    // Long enough that ffmpeg is caught encoding its playback preview, short enough to redo quickly.
    const { ticket, version } = await client.upload(makeAudio('long-take.wav', { seconds: 90 }), null);
    const progress = async () =>
      (await client.project(ticket.project.id)).versions.find((v) => v.id === version.id)?.progress ?? 0;

    // The playback preview is being encoded (the version shows ready at 95): ffmpeg writes it in the data dir.
    const encoding = await waitFor(
      () => {
        const pid = server.child.pid;
        const tools = processes().filter((p) => p.ppid === pid && p.command.includes('ffmpeg'));
        return tools.some((p) => p.command.includes(join(tempRoot, ''))) ? tools : null;
      },
      { timeoutMs: 90_000, intervalMs: 10, what: 'ffmpeg writing the preview under DATA_DIR/tmp' },
    );
    const leftBehind = readdirSync(tempRoot);
    expect(leftBehind).toHaveLength(1);
    server.child.kill('SIGKILL');
    await server.exited;

    // The kernel ends the tools with their parent: none runs on under PID 1.
    await waitFor(() => encoding.every((tool) => stopped(tool.pid)), { timeoutMs: 5_000, what: 'ffmpeg to die' });
    const workFolders = readdirSync(join(tempRoot, leftBehind[0]!));
    expect(workFolders.some((name) => name.startsWith(`media-${version.id}-`))).toBe(true);

    server = await start();
    // The dead process's folder is swept at start, and the job it was running is queued again at
    // once (the sweeper would wait minutes for the heartbeat to go stale).
    expect(existsSync(join(tempRoot, leftBehind[0]!))).toBe(false);
    expect(server.output()).toContain('processing interrupted by a restart: queued again');
    await waitFor(async () => (await progress()) === 100, {
      timeoutMs: 120_000,
      what: `processing to finish; the server said:\n${server.output().slice(-2000)}`,
    });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // A clean stop with nothing under way leaves no temp files.
    expect(readdirSync(tempRoot)).toEqual([]);
  });
});
