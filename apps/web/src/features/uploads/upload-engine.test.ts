import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadFile, type ApiCall } from './upload-engine';
import { deferred, file, ticket, version } from './upload-orchestrator.fixtures';

const session = { id: 'upload-1', size: 300, partSize: 100, partCount: 3, status: 'open', parts: [] };

/** A fake server that logs each call in order; `record` decides how recording part N answers. */
function server(record: (partNumber: number) => Promise<void> = async () => undefined) {
  const log: string[] = [];
  const api: ApiCall = async <T>(path: string, init?: { method?: string }) => {
    const part = path.split('/')[5];
    if (path === '/api/uploads/upload-1') return session as T;
    if (path.endsWith('/url')) return (log.push(`url ${part}`), { url: `https://store.test/${part}` } as T);
    if (init?.method === 'PUT') return (log.push(`record ${part}`), (await record(Number(part))) as T);
    if (path.endsWith('/complete')) return (log.push('complete'), version('version-1') as T);
    throw new Error(`unexpected ${path}`);
  };
  return { api, log };
}

describe('the upload engine', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the next part's URL while the current part's bytes travel", async () => {
    const firstPut = deferred<Response>();
    const { api, log } = server();
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        log.push(`put ${url.split('/').pop()}`);
        if (url.endsWith('/1')) return firstPut.promise;
        return Promise.resolve(new Response(null, { headers: { etag: `"${url}"` } }));
      }),
    );
    const upload = uploadFile({ api, ticket: ticket(1, 300), file: file('mix.wav', 300), concurrency: 1 });
    await vi.waitFor(() => expect(log).toContain('url 2'));
    // Part 1 is still on its way: part 2's URL did not wait for it.
    expect(log).toEqual(['url 1', 'url 2', 'put 1']);
    firstPut.resolve(new Response(null, { headers: { etag: '"one"' } }));
    await expect(upload).resolves.toEqual(version('version-1'));
    expect(log.filter((line) => line.startsWith('record')).sort()).toEqual(['record 1', 'record 2', 'record 3']);
    expect(log.at(-1)).toBe('complete');
  });

  it('reports a part the server refused to record, stops the others and never completes', async () => {
    const refused = new Error('This upload was cancelled.');
    const { api, log } = server((partNumber) => (partNumber === 1 ? Promise.reject(refused) : Promise.resolve()));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => new Response(null, { headers: { etag: `"${url}"` } })),
    );
    await expect(uploadFile({ api, ticket: ticket(1, 300), file: file('mix.wav', 300), concurrency: 1 })).rejects.toBe(
      refused,
    );
    expect(log).not.toContain('complete');
  });
});
