import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadSession, Version } from '@mixroom/contracts';
import type { Activity } from './activities-store';
import { fingerprint, pendingStore, type Ticket } from './pending-uploads';
import type { ApiCall, UploadOptions } from './upload-engine';
import { UPLOAD_MESSAGES, UploadOrchestrator, type TabClaims } from './upload-orchestrator';

const file = (name = 'kick.wav', size = 300, lastModified = 1_700_000_000_000) =>
  new File([new Uint8Array(size)], name, { lastModified });
const ticket = (n: number, size = 300, partSize = 100): Ticket => ({
  upload: { id: `upload-${n}`, size, partSize, partCount: Math.ceil(size / partSize) },
  version: { id: `version-${n}` } as Ticket['version'],
});
const version = (id: string) => ({ id, status: 'processing' }) as Version;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** An orchestrator over fakes: an in-memory browser store, a recording Activities panel, a scripted server. */
function setup(
  options: {
    sessions?: Record<string, Partial<UploadSession>>;
    send?: (o: UploadOptions) => Promise<Version>;
    tabs?: TabClaims;
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
  });
  return { orchestrator, pending, activities, states, calls, cancelOnServer, send };
}

/** A send that waits until the test lets it finish, and rejects when its signal aborts. */
function heldSend() {
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

describe('the upload orchestrator', () => {
  it('asks its ticket source, reports Started, In Progress with percents and Finished, and forgets the ticket once done', async () => {
    const { orchestrator, pending, states, send } = setup();
    const source = vi.fn(async () => ticket(1));
    const onTicket = vi.fn();
    const seen: number[] = [];
    const handle = orchestrator.start({
      file: file(),
      label: 'Drums/kick.wav',
      scope: 'folder:root',
      ticket: source,
      onTicket,
      onProgress: (p) => seen.push(p),
    });
    await expect(handle.done).resolves.toEqual({ status: 'completed', version: version('version-1') });
    expect(source).toHaveBeenCalledTimes(1);
    expect(onTicket).toHaveBeenCalledWith(ticket(1));
    expect(send.mock.calls[0]![0].ticket).toEqual(ticket(1));
    expect(states).toEqual(['Started 0', 'In Progress 0', 'In Progress 33', 'In Progress 100', 'Finished 100']);
    expect(seen).toEqual([0, 33, 100]);
    expect(pending.all()).toEqual([]);
  });

  it('keeps the ticket while the bytes travel, so a reload can resume', async () => {
    const held = heldSend();
    const { orchestrator, pending } = setup({ send: held.send });
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'version:p1',
      ticket: async () => ticket(1),
    });
    await held.started.promise;
    expect(pending.find(fingerprint(file(), 'version:p1'))).toMatchObject({
      scope: 'version:p1',
      label: 'kick.wav',
      fileName: 'kick.wav',
      size: 300,
      ticket: ticket(1),
    });
    held.gate.resolve();
    await handle.done;
    expect(pending.all()).toEqual([]);
  });

  it('resumes the same file sent to the same place with the saved ticket while its session is open', async () => {
    const { orchestrator, pending, send } = setup({
      sessions: { 'upload-7': { status: 'open', parts: [{ partNumber: 1, etag: 'a', size: 100 }] } },
    });
    pending.save({
      fingerprint: fingerprint(file(), 'folder:g1'),
      scope: 'folder:g1',
      label: 'kick.wav',
      fileName: 'kick.wav',
      size: 300,
      ticket: ticket(7),
    });
    const source = vi.fn(async () => ticket(8));
    await orchestrator.start({ file: file(), label: 'kick.wav', scope: 'folder:g1', ticket: source }).done;
    expect(source).not.toHaveBeenCalled();
    expect(send.mock.calls[0]![0].ticket).toEqual(ticket(7));
  });

  it('starts over when the saved session was closed, or when the file goes elsewhere', async () => {
    const { orchestrator, pending, send } = setup({ sessions: { 'upload-7': { status: 'aborted' } } });
    pending.save({
      fingerprint: fingerprint(file(), 'folder:g1'),
      scope: 'folder:g1',
      label: 'kick.wav',
      fileName: 'kick.wav',
      size: 300,
      ticket: ticket(7),
    });
    await orchestrator.start({ file: file(), label: 'kick.wav', scope: 'folder:g1', ticket: async () => ticket(8) })
      .done;
    await orchestrator.start({ file: file(), label: 'kick.wav', scope: 'folder:g2', ticket: async () => ticket(9) })
      .done;
    expect(send.mock.calls.map((c) => c[0].ticket.upload.id)).toEqual(['upload-8', 'upload-9']);
  });

  it('cancels: stops the parts, calls the server cancel, drops the activity and the saved ticket', async () => {
    const held = heldSend();
    const { orchestrator, pending, activities, cancelOnServer } = setup({ send: held.send });
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'folder:root',
      ticket: async () => ticket(1),
    });
    const options = await held.started.promise;
    activities.get(handle.id)!.cancel!();
    await expect(handle.done).resolves.toEqual({ status: 'cancelled' });
    expect(options.signal?.aborted).toBe(true);
    expect(cancelOnServer).toHaveBeenCalledWith('version-1');
    expect(activities.size).toBe(0);
    expect(pending.all()).toEqual([]);
  });

  it('cancelled before the server answered with a ticket: cancels that version as soon as it exists, sends nothing', async () => {
    const { orchestrator, cancelOnServer, send } = setup();
    const answer = deferred<Ticket>();
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'folder:root',
      ticket: () => answer.promise,
    });
    handle.cancel();
    answer.resolve(ticket(3));
    await expect(handle.done).resolves.toEqual({ status: 'cancelled' });
    expect(cancelOnServer).toHaveBeenCalledWith('version-3');
    expect(send).not.toHaveBeenCalled();
  });

  it('shows a failure as Error with its message, rejects, and keeps the ticket for a retry', async () => {
    const { orchestrator, pending, activities } = setup({
      send: async () => Promise.reject(new Error('The storage answered 500')),
    });
    const handle = orchestrator.start({
      file: file(),
      label: 'kick.wav',
      scope: 'folder:root',
      ticket: async () => ticket(1),
    });
    await expect(handle.done).rejects.toThrow('The storage answered 500');
    expect(activities.get(handle.id)).toMatchObject({
      state: 'Error',
      error: 'The storage answered 500',
      cancel: undefined,
    });
    expect(pending.all()).toHaveLength(1);
  });

  it('does not send the same file to the same place twice at once', async () => {
    const held = heldSend();
    const { orchestrator } = setup({ send: held.send });
    const request = { file: file(), label: 'kick.wav', scope: 'folder:root', ticket: async () => ticket(1) };
    const first = orchestrator.start(request);
    expect(orchestrator.start(request)).toBe(first);
    held.gate.resolve();
    await first.done;
  });
});

describe('resuming after a reload', () => {
  const save = (s: ReturnType<typeof setup>, n: number, name: string) =>
    s.pending.save({
      fingerprint: fingerprint(file(name), 'folder:g1'),
      scope: 'folder:g1',
      label: `Live/${name}`,
      fileName: name,
      size: 300,
      ticket: ticket(n),
    });

  it('lists interrupted uploads with how far they got, forgets closed ones and leaves those another tab runs', async () => {
    const tabs: TabClaims = {
      hold: () => () => undefined,
      held: async () => new Set([fingerprint(file('c.wav'), 'folder:g1')]),
    };
    const s = setup({
      tabs,
      sessions: {
        'upload-1': { parts: [{ partNumber: 1, etag: 'x', size: 100 }] },
        'upload-2': { status: 'completed' },
        'upload-3': {},
      },
    });
    save(s, 1, 'a.wav');
    save(s, 2, 'b.wav');
    save(s, 3, 'c.wav');
    await s.orchestrator.restore();
    await s.orchestrator.restore();
    expect([...s.activities.values()]).toEqual([
      expect.objectContaining({
        name: 'Live/a.wav',
        state: 'Error',
        percent: 33,
        error: UPLOAD_MESSAGES.interrupted('a.wav'),
      }),
    ]);
    expect(s.pending.all().map((p) => p.fileName)).toEqual(['a.wav', 'c.wav']);
  });

  it('resumes with the saved ticket once the same file is chosen, and refuses another file', async () => {
    const s = setup({ sessions: { 'upload-1': {} } });
    save(s, 1, 'a.wav');
    const settled = vi.fn();
    await s.orchestrator.restore(settled);
    const interrupted = [...s.activities.values()][0]!;
    interrupted.resume!(file('other.wav'));
    expect(s.activities.get(interrupted.id)?.error).toBe(UPLOAD_MESSAGES.otherFile('a.wav'));
    expect(s.send).not.toHaveBeenCalled();
    interrupted.resume!(file('a.wav'));
    await vi.waitFor(() => expect(settled).toHaveBeenCalled());
    expect(s.send.mock.calls[0]![0].ticket).toEqual(ticket(1));
    expect(s.activities.has(interrupted.id)).toBe(false);
    expect([...s.activities.values()].map((a) => a.state)).toEqual(['Finished']);
    expect(s.pending.all()).toEqual([]);
  });

  it('cancels an interrupted upload on the server', async () => {
    const s = setup({ sessions: { 'upload-1': {} } });
    save(s, 1, 'a.wav');
    await s.orchestrator.restore();
    [...s.activities.values()][0]!.cancel!();
    expect(s.cancelOnServer).toHaveBeenCalledWith('version-1');
    expect(s.activities.size).toBe(0);
    expect(s.pending.all()).toEqual([]);
  });

  it('drops the interrupted entry when the same file is sent to the same place again', async () => {
    const s = setup({ sessions: { 'upload-1': {} } });
    save(s, 1, 'a.wav');
    await s.orchestrator.restore();
    await s.orchestrator.start({
      file: file('a.wav'),
      label: 'Live/a.wav',
      scope: 'folder:g1',
      ticket: async () => ticket(5),
    }).done;
    expect([...s.activities.values()].map((a) => a.state)).toEqual(['Finished']);
    expect(s.send.mock.calls[0]![0].ticket).toEqual(ticket(1));
  });
});

describe('the upload engine under the orchestrator', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends only the parts the server does not hold, in parallel, then completes the version', async () => {
    const puts: string[] = [];
    let inFlight = 0;
    let most = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        puts.push(url);
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return new Response(null, { status: 200, headers: { etag: `"${url}"` } });
      }),
    );
    const recorded: string[] = [];
    const api: ApiCall = async <T>(path: string, init?: { method?: string; body?: unknown }) => {
      if (path === '/api/uploads/upload-1')
        return {
          id: 'upload-1',
          size: 400,
          partSize: 100,
          partCount: 4,
          status: 'open',
          parts: [{ partNumber: 2, etag: 'b', size: 100 }],
        } as T;
      if (path.endsWith('/url')) return { url: `https://store.test/${path.split('/')[5]}` } as T;
      if (init?.method === 'PUT')
        return void recorded.push(`${path.split('/')[5]}:${(init.body as { size: number }).size}`) as T;
      if (path === '/api/versions/version-1/complete') return version('version-1') as T;
      throw new Error(`unexpected ${path}`);
    };
    const memory = new Map<string, string>();
    const orchestrator = new UploadOrchestrator({
      api,
      cancelOnServer: async () => undefined,
      activities: { add: () => undefined, update: () => undefined, remove: () => undefined },
      pending: pendingStore(() => ({
        getItem: (k) => memory.get(k) ?? null,
        setItem: (k, v) => void memory.set(k, v),
      })),
    });
    const outcome = await orchestrator.start({
      file: file('mix.wav', 400),
      label: 'mix.wav',
      scope: 'folder:root',
      ticket: async () => ticket(1, 400),
    }).done;
    expect(outcome).toEqual({ status: 'completed', version: version('version-1') });
    expect(puts.sort()).toEqual(['https://store.test/1', 'https://store.test/3', 'https://store.test/4']);
    expect(most).toBeGreaterThan(1);
    expect(recorded.sort()).toEqual(['1:100', '3:100', '4:100']);
  });
});
