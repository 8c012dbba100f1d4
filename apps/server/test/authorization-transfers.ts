import { randomUUID } from 'node:crypto';
import { openAsBlob, statSync } from 'node:fs';
import type { PublicTransferContent, TransferDetail, TransferUploadTicket, Version } from '@mixroom/contracts';
import { uploadFile } from '../../web/src/features/uploads/upload-engine';
import { makeAudio } from './helpers/audio';
import { call } from './helpers/api';
import { storageClient } from './helpers/storage-client';
import { waitFor } from './helpers/wait-for';
import type { Actor, Row, World } from './authorization-table';

/** A sent transfer with a password, its link token and grants, and a spare one still uploading. */
export interface TransferWorld {
  id: string;
  token: string;
  rootId: string;
  fileId: string;
  versionId: string;
  /** A grant from the right password. */
  grant: string;
  /** A grant handed out before the password changed: no longer valid. */
  staleGrant: string;
  /** The token of a transfer deleted since. */
  deletedToken: string;
  spare: { id: string; fileId: string };
  /** A file request link of the publisher's. */
  request: { id: string; token: string };
}

const PASSWORD = 'matrix password';
const form = (name: string, files: { fileName: string; size: number }[]) => ({
  name,
  message: 'For the matrix',
  mode: 'link',
  recipients: [],
  durationDays: 7,
  password: null,
  files: files.map((f) => ({ path: '', ...f })),
});

async function fileRequest(url: string, token: string): Promise<{ id: string; token: string }> {
  const created = await call(url, '/api/file-requests', { method: 'POST', token, body: { message: 'Matrix' } });
  const link = String(created.body.link);
  return { id: String(created.body.id), token: new URL(link).searchParams.get('requestId')! };
}

async function spare(url: string, token: string): Promise<{ id: string; fileId: string }> {
  const created = await call(url, '/api/transfers', {
    method: 'POST',
    token,
    body: form('Spare', [
      { fileName: 'one.wav', size: 10 },
      { fileName: 'two.wav', size: 10 },
    ]),
  });
  const transfer = (created.body as unknown as { transfer: TransferDetail }).transfer;
  return { id: transfer.id, fileId: transfer.files[0]!.id };
}

/** Builds the transfers part of the matrix's world as the publisher (who holds a paid plan). */
export async function makeTransferWorld(url: string, publisherToken: string): Promise<TransferWorld> {
  const client = storageClient(url, publisherToken);
  const path = makeAudio('Transfer.wav', { seconds: 1 });
  const created = await client.api<{ transfer: TransferDetail }>('/api/transfers', {
    method: 'POST',
    body: { ...form('Matrix transfer', [{ fileName: 'Transfer.wav', size: statSync(path).size }]), password: 'first' },
  });
  const file = created.transfer.files[0]!;
  const base = `/api/transfers/${created.transfer.id}/files/${file.id}`;
  await uploadFile({
    api: client.api,
    ticket: await client.api<TransferUploadTicket>(`${base}/upload`, { method: 'POST' }),
    file: await openAsBlob(path),
    complete: (signal) => client.api<Version>(`${base}/complete`, { method: 'POST', signal }),
  });
  const token = new URL(created.transfer.link).searchParams.get('transferId')!;
  const grantWith = async (password: string) =>
    String(
      (await call(url, `/api/public/transfers/${token}/access`, { method: 'POST', body: { password } })).body.grant,
    );
  const staleGrant = await grantWith('first');
  await client.api(`/api/transfers/${created.transfer.id}`, { method: 'PATCH', body: { password: PASSWORD } });
  const grant = await grantWith(PASSWORD);
  await waitFor(
    async () =>
      (
        (await call(url, `/api/public/transfers/${token}/content?g=${encodeURIComponent(grant)}`))
          .body as unknown as PublicTransferContent
      ).files[0]?.hasPeaks,
    { what: 'the transfer file processed', timeoutMs: 30_000 },
  );
  const gone = await spare(url, publisherToken);
  const goneDetail = await client.api<TransferDetail>(`/api/transfers/${gone.id}`);
  await client.api(`/api/transfers/${gone.id}`, { method: 'DELETE' });
  return {
    id: created.transfer.id,
    token,
    rootId: created.transfer.folders.find((f) => f.parentId === null)!.id,
    fileId: file.id,
    versionId: file.versionId,
    grant,
    staleGrant,
    deletedToken: new URL(goneDetail.link).searchParams.get('transferId')!,
    spare: await spare(url, publisherToken),
    request: await fileRequest(url, publisherToken),
  };
}

const SIGNED_IN: Actor[] = ['publisher', 'editor', 'viewer', 'nonMember', 'admin'];
const WITH_LINK: Actor[] = ['publisher', 'editor', 'viewer', 'nonMember', 'anonymous', 'admin'];
const OWNER: Actor[] = ['publisher'];

/**
 * The transfers' rows: the owner's endpoints reach only the owner's transfer; the link reaches its
 * head for anyone, and its content only with a grant from the password; ids of one area are unknown
 * in the other. `revokedLink` holds a deleted transfer's token or a grant from before a password change.
 */
export function transferRows(publisherToken: () => string, url: () => string): Row[] {
  const t = (w: World) => w.transfer;
  const link = (w: World, actor: Actor) => (actor === 'revokedLink' ? t(w).deletedToken : t(w).token);
  const grant = (w: World, actor: Actor) => encodeURIComponent(actor === 'revokedLink' ? t(w).staleGrant : t(w).grant);
  const respare = async (w: World) => void (w.transfer.spare = await spare(url(), publisherToken()));
  const pub = (w: World) => `/api/public/transfers/${t(w).token}`;
  const requestLink = (w: World, actor: Actor) =>
    `/api/public/file-requests/${actor === 'revokedLink' ? 'R'.repeat(32) : t(w).request.token}`;
  const bogus = `u=${'x'.repeat(40)}`;
  const newRequest = async (w: World) => void (w.transfer.request = await fileRequest(url(), publisherToken()));
  return [
    { name: 'list my transfers', method: 'GET', path: () => '/api/transfers', allow: SIGNED_IN },
    {
      name: 'start a transfer',
      method: 'POST',
      path: () => '/api/transfers',
      body: () => form('Mine', [{ fileName: 'a.wav', size: 5 }]),
      allow: SIGNED_IN,
    },
    { name: 'open a transfer', method: 'GET', path: (w) => `/api/transfers/${t(w).id}`, allow: OWNER },
    {
      name: 'edit a transfer',
      method: 'PATCH',
      path: (w) => `/api/transfers/${t(w).id}`,
      body: () => ({}),
      allow: OWNER,
    },
    { name: 'transfer download log', method: 'GET', path: (w) => `/api/transfers/${t(w).id}/downloads`, allow: OWNER },
    { name: "owner's transfer grant", method: 'POST', path: (w) => `/api/transfers/${t(w).id}/grant`, allow: OWNER },
    {
      name: 'upload ticket of a transfer file',
      method: 'POST',
      path: (w) => `/api/transfers/${t(w).id}/files/${t(w).fileId}/upload`,
      allow: OWNER,
    },
    {
      name: 'complete a transfer file',
      method: 'POST',
      path: (w) => `/api/transfers/${t(w).id}/files/${t(w).fileId}/complete`,
      allow: OWNER,
    },
    { name: 'send a transfer', method: 'POST', path: (w) => `/api/transfers/${t(w).id}/complete`, allow: OWNER },
    {
      name: 'cancel a transfer file',
      method: 'POST',
      path: (w) => `/api/transfers/${t(w).spare.id}/files/${t(w).spare.fileId}/cancel`,
      allow: OWNER,
      reset: respare,
    },
    {
      name: 'delete a transfer',
      method: 'DELETE',
      path: (w) => `/api/transfers/${t(w).spare.id}`,
      allow: OWNER,
      reset: respare,
    },
    { name: 'a wrong transfer id', method: 'GET', path: () => `/api/transfers/${randomUUID()}`, allow: [] },
    { name: 'a storage folder as a transfer', method: 'GET', path: (w) => `/api/transfers/${w.folder}`, allow: [] },
    {
      name: 'a storage project as a transfer',
      method: 'DELETE',
      path: (w) => `/api/transfers/${w.project}`,
      allow: [],
    },
    { name: 'a transfer file as a project', method: 'GET', path: (w) => `/api/projects/${t(w).fileId}`, allow: [] },
    {
      name: 'a transfer folder as a folder',
      method: 'GET',
      path: (w) => `/api/groups/${t(w).rootId}/items`,
      allow: [],
    },
    {
      name: "a transfer file's peaks as a version",
      method: 'GET',
      path: (w) => `/api/versions/${t(w).versionId}/peaks`,
      allow: [],
    },
    {
      name: 'transfer link head',
      method: 'GET',
      path: (w, a) => `/api/public/transfers/${link(w, a)}`,
      allow: WITH_LINK,
    },
    {
      name: 'transfer password, right',
      method: 'POST',
      path: (w, a) => `/api/public/transfers/${link(w, a)}/access`,
      body: () => ({ password: PASSWORD }),
      allow: WITH_LINK,
    },
    {
      name: 'transfer without its password',
      method: 'POST',
      path: (w) => `${pub(w)}/access`,
      body: () => ({}),
      allow: [],
    },
    {
      name: 'transfer content with a grant',
      method: 'GET',
      path: (w, a) => `${pub(w)}/content?g=${grant(w, a)}`,
      allow: WITH_LINK,
    },
    {
      name: 'transfer content without a grant',
      method: 'GET',
      path: (w) => `${pub(w)}/content?g=${'x'.repeat(40)}`,
      allow: [],
    },
    {
      name: 'transfer file with a grant',
      method: 'GET',
      path: (w, a) => `${pub(w)}/files/${t(w).fileId}/download?g=${grant(w, a)}`,
      allow: WITH_LINK,
    },
    {
      name: 'transfer file without a grant',
      method: 'GET',
      path: (w) => `${pub(w)}/files/${t(w).fileId}/download?g=${'x'.repeat(40)}`,
      allow: [],
    },
    {
      name: 'transfer peaks with a grant',
      method: 'GET',
      path: (w, a) => `${pub(w)}/files/${t(w).fileId}/peaks?g=${grant(w, a)}`,
      allow: WITH_LINK,
    },
    {
      name: 'transfer ZIP with a grant',
      method: 'GET',
      path: (w, a) => `${pub(w)}/zip?g=${grant(w, a)}`,
      allow: WITH_LINK,
    },
    {
      name: 'transfer ZIP without a grant',
      method: 'GET',
      path: (w) => `${pub(w)}/zip?g=${'x'.repeat(40)}`,
      allow: [],
    },
    {
      name: 'a storage project as a transfer file',
      method: 'GET',
      path: (w, a) => `${pub(w)}/files/${w.project}/download?g=${grant(w, a)}`,
      allow: [],
    },
    { name: 'my file requests', method: 'GET', path: () => '/api/file-requests', allow: SIGNED_IN },
    {
      name: 'create a file request',
      method: 'POST',
      path: () => '/api/file-requests',
      body: () => ({ message: 'Mine' }),
      allow: SIGNED_IN,
    },
    {
      name: 'turn a file request off',
      method: 'DELETE',
      path: (w) => `/api/file-requests/${t(w).request.id}`,
      allow: OWNER,
      reset: newRequest,
    },
    { name: 'open a file request link', method: 'GET', path: requestLink, allow: WITH_LINK },
    {
      name: 'upload through a file request',
      method: 'POST',
      path: (w, a) => `${requestLink(w, a)}/transfers`,
      body: () => ({ name: 'Visitor', files: [{ path: '', fileName: 'take.wav', size: 10 }] }),
      allow: WITH_LINK,
    },
    {
      name: "a request upload without its grant (someone's transfer file)",
      method: 'POST',
      path: (w) =>
        `/api/public/file-requests/${t(w).request.token}/transfers/${t(w).id}/files/${t(w).fileId}/upload?${bogus}`,
      allow: [],
    },
    {
      name: 'a request upload session without its grant',
      method: 'GET',
      path: () => `/api/public/uploads/${randomUUID()}?${bogus}`,
      allow: [],
    },
    {
      name: 'a request part URL without its grant',
      method: 'POST',
      path: () => `/api/public/uploads/${randomUUID()}/parts/1/url?${bogus}`,
      allow: [],
    },
    {
      name: 'a public share token as a transfer link',
      method: 'GET',
      path: (w) => `/api/public/transfers/${w.activeToken}`,
      allow: [],
    },
  ];
}
