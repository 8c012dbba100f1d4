import {
  connectorEndpoints,
  type DurationsBody,
  type ExportBody,
  type ExportFolderBody,
  type ImportBody,
  type LinkConnectorBody,
  type OAuthConnectorKind,
  type OAuthFinishBody,
} from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export const getConnectors = (signal?: AbortSignal) => call(connectorEndpoints.list, { signal });
export const linkConnector = (body: LinkConnectorBody) => call(connectorEndpoints.link, { body });
/** Dropbox / Google Drive: the provider's consent address (the state and PKCE verifier stay on the server). */
export const startOAuthLink = (kind: OAuthConnectorKind) => call(connectorEndpoints.oauthStart, { body: { kind } });
/** Back from the provider: the server checks the state and exchanges the code; no token comes back. */
export const finishOAuthLink = (body: OAuthFinishBody) => call(connectorEndpoints.oauthFinish, { body });
export const unlinkConnector = (id: string) => call(connectorEndpoints.unlink, { params: { id } });
export const browseConnector = (id: string, path: string, search: string, signal?: AbortSignal) =>
  call(connectorEndpoints.browse, { params: { id }, query: { path, ...(search ? { search } : {}) }, signal });
/** A short-lived link the browser's player streams a linked audio file from (through the server). */
export const getConnectorPreview = (id: string, path: string, signal?: AbortSignal) =>
  call(connectorEndpoints.preview, { params: { id }, query: { path }, signal });
/** How long linked audio files are, read by the server from their headers. */
export const getConnectorDurations = (id: string, files: DurationsBody['files'], signal?: AbortSignal) =>
  call(connectorEndpoints.durations, { params: { id }, body: { files }, signal });
export const getConnectorTransfers = (signal?: AbortSignal) => call(connectorEndpoints.transfers, { signal });
export const importFromConnector = (id: string, body: ImportBody) =>
  call(connectorEndpoints.importFile, { params: { id }, body });
export const exportToConnector = (id: string, body: ExportBody) =>
  call(connectorEndpoints.exportVersion, { params: { id }, body });
/** A folder as one ZIP, written into a folder of the linked account by the server. */
export const exportFolderToConnector = (id: string, body: ExportFolderBody) =>
  call(connectorEndpoints.exportFolder, { params: { id }, body });

/** What the cloud storage browser hands back: a file from this computer, or one in a linked account. */
export type PickedFile =
  | { source: 'device'; file: File; name: string; size: number }
  | { source: 'linked'; connectorId: string; path: string; name: string; size: number };
