import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers/api';
import { signInThroughOidc } from './helpers/oidc-flow';
import { storageClient } from './helpers/storage-client';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;
let ana: ReturnType<typeof storageClient>;
let anaToken: string;

beforeAll(async () => {
  server = await startTestServer();
  anaToken = (await signInThroughOidc(server.url, { email: 'ana@listing.test', password: 'ana-password' }))
    .access_token;
  ana = storageClient(server.url, anaToken);
});
afterAll(() => server.close());

describe('listing pages', () => {
  it('pages a large folder: folders first, exact totals, filters in every page', async () => {
    const folder = await ana.createFolder('Paged', null);
    await ana.createFolder('Sub B', folder.id);
    await ana.createFolder('Sub A', folder.id);
    for (const name of ['e', 'c', 'a', 'd', 'b'])
      await ana.api('/api/projects', { method: 'POST', body: { name: `Track ${name}`, groupId: folder.id } });
    const names: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await ana.list(folder.id, `?limit=3&offset=${offset}`);
      expect(page.total).toBe(7);
      names.push(...page.items.map((i) => i.name));
      offset = page.nextOffset;
      pages++;
    }
    expect(pages).toBe(3);
    expect(names).toEqual(['Sub A', 'Sub B', 'Track a', 'Track b', 'Track c', 'Track d', 'Track e']);
    const newest = await ana.list(folder.id, '?sort=newest&limit=2&offset=2');
    expect(newest.items.map((i) => i.name)).toEqual(['Track b', 'Track d']);
    const limited = await call(server.url, `/api/groups/${folder.id}/items?limit=501`, { token: anaToken });
    expect(limited.status).toBe(400);
  });
});
