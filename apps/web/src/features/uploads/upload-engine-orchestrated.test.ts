import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Version } from '@mixroom/contracts';
import { pendingStore } from './pending-uploads';
import type { ApiCall } from './upload-engine';
import { UploadOrchestrator } from './upload-orchestrator';
import { deferred, file, heldSend, setup, ticket, version } from './upload-orchestrator.fixtures';

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

  it("finishes and cancels an upload through its place's own calls (a transfer's file), the storage's otherwise", async () => {
    const completed: string[] = [];
    const cancelled: string[] = [];
    const scopeCalls = (scope: string) =>
      scope.startsWith('transfer:')
        ? {
            complete: async (versionId: string) => (completed.push(`${scope}|${versionId}`), version(versionId)),
            cancel: async (versionId: string) => void cancelled.push(`${scope}|${versionId}`),
          }
        : {};
    const held = heldSend();
    const { orchestrator, cancelOnServer, send } = setup({
      scopeCalls,
      send: async (o) => {
        if (!o.complete) return held.send(o);
        return o.complete(new AbortController().signal);
      },
    });
    const sent = await orchestrator.start({
      file: file('a.wav'),
      label: 'a.wav',
      scope: 'transfer:t1:f1',
      ticket: async () => ticket(1),
    }).done;
    expect(sent).toEqual({ status: 'completed', version: version('version-1') });
    expect(completed).toEqual(['transfer:t1:f1|version-1']);

    const storage = orchestrator.start({
      file: file('b.wav'),
      label: 'b.wav',
      scope: 'folder:root',
      ticket: async () => ticket(2),
    });
    const options = await held.started.promise;
    expect(options.complete).toBeUndefined();
    storage.cancel();
    await storage.done;
    expect(cancelOnServer).toHaveBeenCalledWith('version-2');

    const gate = deferred<Version>();
    send.mockImplementationOnce(() => gate.promise);
    const transfer = orchestrator.start({
      file: file('c.wav'),
      label: 'c.wav',
      scope: 'transfer:t1:f3',
      ticket: async () => ticket(3),
    });
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(3));
    transfer.cancel();
    gate.reject(new DOMException('Aborted', 'AbortError'));
    await expect(transfer.done).resolves.toEqual({ status: 'cancelled' });
    expect(cancelled).toEqual(['transfer:t1:f3|version-3']);
    expect(cancelOnServer).toHaveBeenCalledTimes(1);
  });
});
