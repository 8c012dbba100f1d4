import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { ConnectorTransfer, Version } from '@mixroom/contracts';
import { call } from './api';
import { signInThroughOidc } from './oidc-flow';
import { waitFor } from './wait-for';

/** One API call as a user (`who` names the user; the caller renews an expired token). */
type Api<W> = (who: W, path: string, init?: { method?: string; body?: unknown }) => ReturnType<typeof call>;

/** The steps the connectors tests take as a user, over the caller's `api`. */
export function connectorSteps<W>(api: Api<W>, copyTimeoutMs: number) {
  const steps = {
    newProject: async (who: W, name: string): Promise<string> => {
      const created = await api(who, '/api/projects', { method: 'POST', body: { name, groupId: null } });
      expect(created.status).toBe(201);
      return created.body.id as string;
    },
    /** Waits until the server-side copy is done or failed. */
    finished: (who: W, transferId: string): Promise<ConnectorTransfer> =>
      waitFor(
        async () => {
          const { body } = await api(who, '/api/connectors/transfers');
          const transfer = (body.transfers as ConnectorTransfer[]).find((t) => t.id === transferId);
          return transfer && transfer.status !== 'running' ? transfer : null;
        },
        { timeoutMs: copyTimeoutMs, what: 'the copy to finish' },
      ),
    /** The project's versions; null when the project is gone (or never was the user's). */
    versionsOf: async (who: W, projectId: string): Promise<Version[] | null> => {
      const { status, body } = await api(who, `/api/projects/${projectId}`);
      return status === 200 ? (body.versions as Version[]) : null;
    },
    /** "Save to…": a version written into a folder of a linked account (the copy's answer, 202 when started). */
    saveTo: (who: W, connectorId: string, versionId: string, folder: string) =>
      api(who, `/api/connectors/${connectorId}/exports`, { method: 'POST', body: { versionId, folder } }),
    /** SHA-256 of a version's stored file, read through its download link. */
    sha256Of: async (who: W, versionId: string): Promise<string> => {
      const { body } = await api(who, `/api/versions/${versionId}/download`);
      const response = await fetch(String(body.url));
      const hash = createHash('sha256');
      for await (const chunk of Readable.fromWeb(response.body as never)) hash.update(chunk as Buffer);
      return hash.digest('hex');
    },
  };
  /**
   * Imports a linked file into a new project as `who`, waits for the copy and the version's
   * processing, and checks the stored file's SHA-256 against `sha256`.
   */
  const importReady = async (
    who: W,
    connectorId: string,
    path: string,
    sha256: string,
  ): Promise<{ projectId: string; versionId: string }> => {
    const projectId = await steps.newProject(who, `From ${path}`);
    const started = await api(who, `/api/connectors/${connectorId}/imports`, {
      method: 'POST',
      body: { path, projectId, versionName: 'Imported' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const transfer = await steps.finished(who, (started.body.transfer as ConnectorTransfer).id);
    expect(transfer.status, transfer.error ?? '').toBe('done');
    const versionId = (started.body.version as Version).id;
    await waitFor(
      async () => (await steps.versionsOf(who, projectId))?.find((v) => v.id === versionId)?.status === 'ready',
      { timeoutMs: 120_000, what: 'the imported version to be processed' },
    );
    expect(await steps.sha256Of(who, versionId)).toBe(sha256);
    return { projectId, versionId };
  };
  return { ...steps, importReady };
}

/** Linking a Dropbox or Google Drive account through its OAuth consent, as Settings does. */
export function oauthLinkSteps<W>(api: Api<W>) {
  /** Link → the provider's consent page (automatic here) → back to Settings with a code and the state. */
  const authorize = async (who: W, kind: 'dropbox' | 'gdrive') => {
    const started = await api(who, '/api/connectors/oauth/start', { method: 'POST', body: { kind } });
    expect(started.status).toBe(200);
    const consent = await fetch(String(started.body.url), { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location')!);
    // The provider sends the browser back to Settings, which hands the code and the state to the server.
    expect(back.pathname).toBe('/settings');
    return {
      authorizeUrl: new URL(String(started.body.url)),
      state: back.searchParams.get('state')!,
      code: back.searchParams.get('code'),
    };
  };

  const linkAccount = async (who: W, kind: 'dropbox' | 'gdrive'): Promise<string> => {
    const { state, code } = await authorize(who, kind);
    const finished = await api(who, '/api/connectors/oauth/callback', { method: 'POST', body: { state, code } });
    expect(finished.status, JSON.stringify(finished.body)).toBe(201);
    return finished.body.id as string;
  };

  return { authorize, linkAccount };
}

/**
 * A new user (signed up with `email`) who linked a WebDAV account: their access token and the
 * linked account's id.
 */
export async function userWithLinkedWebdav(
  baseUrl: string,
  email: string,
  dav: { url: string; username: string; password: string },
): Promise<{ token: string; connectorId: string }> {
  const token = (await signInThroughOidc(baseUrl, { email, password: 'correct horse battery 1' })).access_token;
  const linked = await call(baseUrl, '/api/connectors', {
    method: 'POST',
    token,
    body: { kind: 'webdav', url: dav.url, username: dav.username, password: dav.password },
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  return { token, connectorId: linked.body.id as string };
}
