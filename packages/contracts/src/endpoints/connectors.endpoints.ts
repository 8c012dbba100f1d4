import { z } from 'zod';
import { errorResponse, idParam } from '../common';
import {
  browseQuery,
  connector,
  connectorList,
  connectorTransferList,
  driveListing,
  exportAnswer,
  exportBody,
  exportFolderBody,
  importAnswer,
  importBody,
  linkConnectorBody,
  oauthFinishBody,
  oauthStartAnswer,
  oauthStartBody,
  durationsAnswer,
  durationsBody,
  previewAnswer,
  previewQuery,
  unlinkAnswer,
} from '../connectors';
import { endpoint } from '../endpoint';

/**
 * 400 bad input (a target folder not in the account), 403 no right to the item, 404 no such linked
 * account (or another user's) or item, 409 already linked, 413 the file
 * does not fit the plan's storage, 422 the provider refused (credentials, address, private network),
 * 502 the provider could not be reached.
 */
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  413: errorResponse,
  422: errorResponse,
  502: errorResponse,
};
const base = { tags: ['connectors'], auth: true } as const;

/** Storage accounts a user links (WebDAV, S3), browsed, imported from and exported to by the server. */
export const connectorEndpoints = {
  list: endpoint({
    ...base,
    method: 'GET',
    path: '/api/connectors',
    summary: 'The connectors the operator enabled and the accounts the caller linked',
    responses: { 200: connectorList, ...errors },
  }),
  link: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors',
    summary: 'Link an account (its credentials are checked with the provider, then kept encrypted)',
    body: linkConnectorBody,
    responses: { 201: connector, ...errors },
  }),
  unlink: endpoint({
    ...base,
    method: 'DELETE',
    path: '/api/connectors/:id',
    summary: 'Unlink an account (its credentials are erased; OAuth tokens are revoked at the provider first)',
    params: idParam,
    responses: { 200: unlinkAnswer, ...errors },
  }),
  oauthStart: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors/oauth/start',
    summary: "Start linking Dropbox or Google Drive: the provider's authorization address (state and PKCE kept here)",
    body: oauthStartBody,
    responses: { 200: oauthStartAnswer, ...errors },
  }),
  oauthFinish: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors/oauth/callback',
    summary: "Finish linking: the provider's code is exchanged (single-use state of the same user, within its expiry)",
    body: oauthFinishBody,
    responses: { 201: connector, ...errors },
  }),
  preview: endpoint({
    ...base,
    method: 'GET',
    path: '/api/connectors/:id/preview',
    summary: "A linked audio file's preview link (30 minutes; the account is checked again on every request of it)",
    params: idParam,
    query: previewQuery,
    responses: { 200: previewAnswer, ...errors },
  }),
  durations: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors/:id/durations',
    summary:
      "Lengths of linked audio files, read from their headers (the first 64 KiB of each), for the browser's rows",
    params: idParam,
    body: durationsBody,
    responses: { 200: durationsAnswer, ...errors },
  }),
  previewStream: endpoint({
    tags: ['connectors'],
    auth: false,
    method: 'GET',
    path: '/api/connectors/preview-stream',
    summary:
      "A linked audio file's bytes for the browser's player, with Range; 403 when the link is invalid or expired",
    query: z.object({ t: z.string().min(10).max(10_000) }),
    raw: 'file',
    responses: { 403: errorResponse, 404: errorResponse, 416: errorResponse, 502: errorResponse },
  }),
  browse: endpoint({
    ...base,
    method: 'GET',
    path: '/api/connectors/:id/files',
    summary: 'A folder of a linked account: folders first, sizes, search where offered',
    params: idParam,
    query: browseQuery,
    responses: { 200: driveListing, ...errors },
  }),
  transfers: endpoint({
    ...base,
    method: 'GET',
    path: '/api/connectors/transfers',
    summary: "The caller's copies from and to linked accounts (the latest 50)",
    responses: { 200: connectorTransferList, ...errors },
  }),
  importFile: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors/:id/imports',
    summary: 'Copy a linked file into a new version, on the server, in the background',
    params: idParam,
    body: importBody,
    responses: { 202: importAnswer, ...errors },
  }),
  exportVersion: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors/:id/exports',
    summary: "Save a version's file to a folder of a linked account, in the background",
    params: idParam,
    body: exportBody,
    responses: { 202: exportAnswer, ...errors },
  }),
  exportFolder: endpoint({
    ...base,
    method: 'POST',
    path: '/api/connectors/:id/folder-exports',
    summary: 'Save a folder as one ZIP to a folder of a linked account, in the background',
    params: idParam,
    body: exportFolderBody,
    responses: { 202: exportAnswer, ...errors },
  }),
};
