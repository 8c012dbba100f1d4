import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from './helpers/api';
import type { TestWebdav } from './helpers/webdav';
import { SIGNED_IN, type Actor, type Row } from './authorization-table';

/** The publisher's linked WebDAV account (set by the link row) and a project of theirs to import into. */
export interface ConnectorWorld {
  connector: string;
  project: string;
}

const linkBody = (dav: TestWebdav) => ({
  kind: 'webdav',
  url: dav.url,
  username: dav.username,
  password: dav.password,
});

async function link(url: string, token: string, dav: TestWebdav): Promise<string> {
  const linked = await call(url, '/api/connectors', { method: 'POST', token, body: linkBody(dav) });
  if (linked.status !== 201) throw new Error(`linking failed: ${linked.status} ${JSON.stringify(linked.body)}`);
  return linked.body.id as string;
}

export async function makeConnectorWorld(
  url: string,
  publisherToken: string,
  dav: TestWebdav,
): Promise<ConnectorWorld> {
  writeFileSync(join(dav.directory, 'take.wav'), Buffer.alloc(64));
  const project = await call(url, '/api/projects', {
    method: 'POST',
    token: publisherToken,
    body: { name: 'Connector target', groupId: null },
  });
  // The publisher's account is linked by the matrix's own "link" row, which comes first.
  return { connector: '', project: project.body.id as string };
}

/**
 * Linked accounts belong to one user: only the publisher reaches theirs (browse, import, export of
 * a version or a folder, unlink); anyone signed in lists their own and links one of their own.
 */
export function connectorRows(ctx: {
  url: () => string;
  token: (actor: Actor) => string | null;
  dav: () => TestWebdav;
  world: () => ConnectorWorld;
  version: () => string;
}): Row[] {
  return [
    { name: 'my linked accounts', method: 'GET', path: () => '/api/connectors', allow: SIGNED_IN },
    {
      name: 'my copies from and to linked accounts',
      method: 'GET',
      path: () => '/api/connectors/transfers',
      allow: SIGNED_IN,
    },
    {
      // Everyone signed in links an account of their own; the publisher's stays as the world's, the
      // others' are unlinked again. It runs before the rows that use the publisher's account.
      name: 'link an account of my own',
      method: 'POST',
      path: () => '/api/connectors',
      body: () => linkBody(ctx.dav()),
      allow: SIGNED_IN,
      reset: async (_w, actor) => {
        const token = actor ? ctx.token(actor) : null;
        if (!token) return;
        const { body } = await call(ctx.url(), '/api/connectors', { token });
        const linked = body.linked as { id: string }[];
        if (actor === 'publisher') ctx.world().connector = linked[0]!.id;
        else for (const { id } of linked) await call(ctx.url(), `/api/connectors/${id}`, { method: 'DELETE', token });
      },
    },
    {
      name: "browse the publisher's linked account",
      method: 'GET',
      path: () => `/api/connectors/${ctx.world().connector}/files?path=/`,
      allow: ['publisher'],
    },
    {
      name: "preview a file of the publisher's linked account",
      method: 'GET',
      path: () => `/api/connectors/${ctx.world().connector}/preview?path=/take.wav`,
      allow: ['publisher'],
    },
    {
      name: "lengths of files in the publisher's linked account",
      method: 'POST',
      path: () => `/api/connectors/${ctx.world().connector}/durations`,
      body: () => ({ files: [{ path: '/take.wav', size: null, modifiedAt: null }] }),
      allow: ['publisher'],
    },
    {
      name: "import from the publisher's linked account",
      method: 'POST',
      path: () => `/api/connectors/${ctx.world().connector}/imports`,
      body: () => ({ path: '/take.wav', projectId: ctx.world().project, versionName: 'Matrix import' }),
      allow: ['publisher'],
    },
    {
      name: "save the world's version to the publisher's linked account",
      method: 'POST',
      path: () => `/api/connectors/${ctx.world().connector}/exports`,
      body: () => ({ versionId: ctx.version(), folder: '/' }),
      allow: ['publisher'],
    },
    {
      // The publisher's own folder (the shared one's project has an upload left open by other rows, which
      // an archive leaves out): nobody else reaches the folder, nor the publisher's account.
      name: "save the publisher's folder as a ZIP to the publisher's linked account",
      method: 'POST',
      path: () => `/api/connectors/${ctx.world().connector}/folder-exports`,
      body: (w) => ({ groupId: w.outside, folder: '/' }),
      allow: ['publisher'],
    },
    {
      name: "unlink the publisher's linked account",
      method: 'DELETE',
      path: () => `/api/connectors/${ctx.world().connector}`,
      allow: ['publisher'],
      reset: async () => {
        ctx.world().connector = await link(ctx.url(), ctx.token('publisher')!, ctx.dav());
      },
    },
  ];
}
