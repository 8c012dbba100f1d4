import { vi } from 'vitest';
import type { UploadSession, Version } from '@mixroom/contracts';
import type { Activity } from './activities-store';
import { pendingStore, type Ticket } from './pending-uploads';
import type { ApiCall, UploadOptions } from './upload-engine';
import { UploadOrchestrator, type OrchestratorDeps, type TabClaims } from './upload-orchestrator';

/** Files, tickets and an orchestrator wired to recorded fakes of its server calls, for its unit tests. */

export const file = (name = 'kick.wav', size = 300, lastModified = 1_700_000_000_000) =>
  new File([new Uint8Array(size)], name, { lastModified });
export const ticket = (n: number, size = 300, partSize = 100): Ticket => ({
  upload: { id: `upload-${n}`, size, partSize, partCount: Math.ceil(size / partSize) },
  version: { id: `version-${n}` } as Ticket['version'],
});
export const version = (id: string) => ({ id, status: 'processing' }) as Version;

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** An orchestrator over fakes: an in-memory browser store, a recording Activities panel, a scripted server. */
export function setup(
  options: {
    sessions?: Record<string, Partial<UploadSession>>;
    send?: (o: UploadOptions) => Promise<Version>;
    tabs?: TabClaims;
    scopeCalls?: OrchestratorDeps['scopeCalls'];
  } = {},
) {
  const memory = new Map<string, string>();
  const pending = pendingStore(() => ({
    getItem: (k) => memory.get(k) ?? null,
    setItem: (k, v) => void memory.set(k, v),
  }));
  const activities = new Map<string, Activity>();
  const states: string[] = [];
  const sink = {
    add: (a: Activity) => (activities.set(a.id, a), states.push(`${a.state} ${a.percent}`)),
    update: (id: string, patch: Partial<Activity>) => {
      const next = { ...activities.get(id)!, ...patch };
      activities.set(id, next);
      states.push(`${next.state} ${next.percent}`);
    },
    remove: (id: string) => void activities.delete(id),
  };
  const calls: string[] = [];
  const api: ApiCall = async <T>(path: string) => {
    calls.push(path);
    const session = options.sessions?.[path.replace('/api/uploads/', '')];
    if (!session) throw new Error('No such upload.');
    return { size: 300, partSize: 100, partCount: 3, parts: [], status: 'open', ...session } as T;
  };
  const cancelOnServer = vi.fn(async (_versionId: string) => undefined);
  const send = vi.fn(
    options.send ??
      (async (o: UploadOptions) => {
        o.onProgress?.({ sentBytes: 0, totalBytes: 300 });
        o.onProgress?.({ sentBytes: 100, totalBytes: 300 });
        o.onProgress?.({ sentBytes: 300, totalBytes: 300 });
        return version(o.ticket.version.id);
      }),
  );
  let ids = 0;
  const orchestrator = new UploadOrchestrator({
    api,
    cancelOnServer,
    activities: sink,
    pending,
    send,
    newId: () => `activity-${++ids}`,
    ...(options.tabs ? { tabs: options.tabs } : {}),
    ...(options.scopeCalls ? { scopeCalls: options.scopeCalls } : {}),
  });
  return { orchestrator, pending, activities, states, calls, cancelOnServer, send };
}

/** A send that waits until the test lets it finish, and rejects when its signal aborts. */
export function heldSend() {
  const gate = deferred<void>();
  const started = deferred<UploadOptions>();
  const send = async (o: UploadOptions) => {
    started.resolve(o);
    o.onProgress?.({ sentBytes: 100, totalBytes: 300 });
    await Promise.race([
      gate.promise,
      new Promise((_, reject) =>
        o.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
      ),
    ]);
    return version(o.ticket.version.id);
  };
  return { send, gate, started };
}
