import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { formatSize } from '@mixroom/shared';
import type {
  Connector,
  ConnectorList,
  ConnectorTransfer,
  DriveListing,
  ExportBody,
  ExportFolderBody,
  ImportBody,
  LinkConnectorBody,
  UnlinkAnswer,
  Version,
} from '@mixroom/contracts';
import { exportFolderBody, linkConnectorBody } from '@mixroom/contracts';
import { safeName, uniquePath } from '../storage';
import { DomainError } from '../../platform/errors/domain-error';
import { createDrive, isRevocable, type DriveCredentials } from '../../platform/drives/create-drive';
import { normalisePath, type Drive, type DriveEntry } from '../../platform/drives/drive';
import { DRIVE_MESSAGES, DriveError } from '../../platform/drives/drive-error';
import type { OAuthTokens } from '../../platform/drives/oauth-session';
import type { Actor } from '../../platform/identity/actor';
import { connectorCopyStage } from './connector-copy.stage';
import type { ConnectorsDeps } from './connectors.deps';
import type { ConnectorAccountRow, ConnectorTransferRow } from './connectors.repository';

/** Matches a search lists at most: past that, the user types more of the name. */
const SEARCH_HITS = 100;

export const CONNECTOR_MESSAGES = {
  notEnabled: 'This kind of storage is not enabled on this server.',
  alreadyLinked: 'An account of this kind is already linked. Unlink it first.',
  noSuchAccount: 'No such linked account.',
  notAFile: DRIVE_MESSAGES.notAFile,
  sizeUnknown: 'The storage provider does not say how large this file is, so it cannot be copied.',
  noSuchFolder: 'This folder is not in the linked account. It may have been moved or deleted; pick another.',
  notAFolder: 'Pick a folder to save into.',
} as const;

export function presentConnector(row: ConnectorAccountRow): Connector {
  return { id: row.id, kind: row.kind, accountName: row.accountName, linkedAt: row.createdAt.toISOString() };
}

export function presentTransfer(row: ConnectorTransferRow): ConnectorTransfer {
  return {
    id: row.id,
    jobId: connectorCopyStage.jobIdOf({ transferId: row.id, userId: row.userId, uploadId: null }),
    connectorId: row.connectorId,
    direction: row.direction,
    fileName: row.fileName,
    projectId: row.projectId,
    versionId: row.versionId,
    groupId: row.groupId,
    status: row.status,
    bytesDone: row.bytesDone,
    bytesTotal: row.bytesTotal,
    error: row.error,
  };
}

/**
 * Linked storage accounts: link (credentials checked with the provider, then sealed), unlink (erased),
 * browse, and the copies the server makes between them and Mixroom. Every account belongs to one user;
 * another user's id answers as no account at all.
 */
export class ConnectorsService {
  constructor(private readonly deps: ConnectorsDeps) {}

  async list(actor: Actor): Promise<ConnectorList> {
    const linked = await this.deps.repository.accounts(actor.userId);
    return { available: [...this.deps.enabled], linked: linked.map(presentConnector) };
  }

  async link(actor: Actor, body: LinkConnectorBody): Promise<Connector> {
    const input = linkConnectorBody.parse(body);
    if (!this.deps.enabled.includes(input.kind))
      throw DomainError.badRequest(CONNECTOR_MESSAGES.notEnabled, 'CONNECTOR_DISABLED');
    const credentials: DriveCredentials =
      input.kind === 'webdav'
        ? { kind: 'webdav', url: input.url, username: input.username, password: input.password }
        : {
            kind: 's3',
            endpoint: input.endpoint,
            bucket: input.bucket,
            region: input.region,
            accessKeyId: input.accessKeyId,
            secretAccessKey: input.secretAccessKey,
          };
    const account = await this.driveOf(credentials).account();
    const id = randomUUID();
    const row = await this.deps.repository.insertAccount({
      id,
      userId: actor.userId,
      kind: input.kind,
      accountName: account.name.slice(0, 200),
      sealedCredentials: this.sealFor(id, credentials),
      createdAt: this.deps.clock.now(),
    });
    if (!row) throw DomainError.conflict(CONNECTOR_MESSAGES.alreadyLinked, 'ALREADY_LINKED');
    return presentConnector(row);
  }

  /**
   * Erases the account. An OAuth account's tokens are first revoked at the provider; when the
   * provider can't be reached or refuses, the tokens are erased all the same (the answer says the
   * provider was not told, so the user can remove the app there). Credential kinds end with their row.
   */
  unlink(actor: Actor, id: string): Promise<UnlinkAnswer> {
    return this.unlinkOf(actor.userId, id);
  }

  private async unlinkOf(userId: string, id: string): Promise<UnlinkAnswer> {
    const row = await this.deps.repository.account(userId, id);
    if (!row) throw DomainError.notFound(CONNECTOR_MESSAGES.noSuchAccount);
    // An account whose kind the operator has since disabled can't reach its provider: erased all the same.
    const drive = await this.open(userId, id).catch((error: unknown) => {
      if (error instanceof DriveError) return null;
      throw error;
    });
    let providerRevoked: boolean | null =
      drive === null && (row.kind === 'dropbox' || row.kind === 'gdrive') ? false : null;
    if (drive && isRevocable(drive))
      providerRevoked = await drive.revoke().then(
        () => true,
        (error: unknown) => {
          this.deps.log.warn(
            { err: error, connectorId: id },
            'connector unlink: the provider did not revoke the tokens',
          );
          return false;
        },
      );
    if (!(await this.deps.repository.deleteAccount(userId, id)))
      throw DomainError.notFound(CONNECTOR_MESSAGES.noSuchAccount);
    return { providerRevoked };
  }

  /**
   * Unlinks every account of a user being erased: OAuth tokens revoked at the provider where it
   * answers (a refusal or a timeout is logged, never in the way), then the rows erased.
   */
  async unlinkAll(userId: string): Promise<void> {
    for (const row of await this.deps.repository.accounts(userId))
      await this.unlinkOf(userId, row.id).catch((error: unknown) => {
        this.deps.log.warn({ err: error, connectorId: row.id }, 'connector unlink on account erasure failed');
      });
  }

  /**
   * One folder of a linked account, or a search: where the provider offers one it covers the whole
   * account (each hit with its full path); elsewhere the name filters the open folder.
   */
  async browse(actor: Actor, id: string, query: { path: string; search?: string | undefined }): Promise<DriveListing> {
    const drive = await this.open(actor.userId, id);
    const path = connectorPath(query.path);
    const search = query.search?.trim();
    const present = (entries: DriveEntry[]) =>
      entries.map(({ path: at, name, kind, size, modifiedAt }) => ({ path: at, name, kind, size, modifiedAt }));
    const found = search && drive.search ? await drive.search(search, { limit: SEARCH_HITS }) : undefined;
    if (found)
      return { path, searchable: true, scope: 'account', truncated: found.truncated, entries: present(found.entries) };
    const listing = await drive.list(path, search ? { search } : {});
    return {
      path: listing.path,
      // A server that turned out to offer no search (null) is not offered as searchable again.
      searchable: drive.search !== undefined && found !== null,
      scope: 'folder',
      truncated: false,
      entries: present(listing.entries),
    };
  }

  async transfers(actor: Actor): Promise<ConnectorTransfer[]> {
    return (await this.deps.repository.transfers(actor.userId)).map(presentTransfer);
  }

  /**
   * A linked file becomes the next version of a project: its size is asked first, so the version's
   * quota reservation (and the plan's refusal, 413) happens before a byte moves; the copy then runs
   * on a worker (connectorCopyStage) and the version processes like any upload.
   */
  async importFile(
    actor: Actor,
    id: string,
    body: ImportBody,
  ): Promise<{ transfer: ConnectorTransfer; version: Version }> {
    const drive = await this.open(actor.userId, id);
    const path = connectorPath(body.path);
    const entry = await drive.stat(path);
    if (entry.kind !== 'file') throw DomainError.badRequest(CONNECTOR_MESSAGES.notAFile, 'NOT_A_FILE');
    if (entry.size === null) throw new DriveError(422, 'SIZE_UNKNOWN', CONNECTOR_MESSAGES.sizeUnknown);
    const ticket = await this.deps.startVersion(actor, body.projectId, {
      name: body.versionName,
      fileName: entry.name,
      size: entry.size,
    });
    const transfer = await this.deps.repository.insertTransfer({
      id: randomUUID(),
      userId: actor.userId,
      connectorId: id,
      direction: 'import',
      path,
      fileName: entry.name,
      versionId: ticket.version.id,
      projectId: ticket.project.id,
      status: 'running',
      bytesTotal: entry.size,
    });
    await this.send(transfer, ticket.upload.id);
    return { transfer: presentTransfer(transfer), version: ticket.version };
  }

  /**
   * A linked file read by the server for another feature (an AI tool's input): its name and bytes,
   * refused before a byte moves when it is a folder, has no known size or is larger than `maxBytes`.
   */
  async readFile(
    userId: string,
    id: string,
    path: string,
    maxBytes: number,
  ): Promise<{ fileName: string; body: Readable }> {
    const drive = await this.open(userId, id);
    const entry = await drive.stat(connectorPath(path));
    if (entry.kind !== 'file') throw DomainError.badRequest(CONNECTOR_MESSAGES.notAFile, 'NOT_A_FILE');
    if (entry.size === null) throw new DriveError(422, 'SIZE_UNKNOWN', CONNECTOR_MESSAGES.sizeUnknown);
    if (entry.size > maxBytes)
      throw new DomainError(
        413,
        'FILE_TOO_LARGE',
        `This file is larger than the ${formatSize(maxBytes)} allowed here.`,
      );
    const read = await drive.read(entry.path);
    return { fileName: entry.name, body: read.body };
  }

  /**
   * "Save to…": checks the caller may download the version and that the folder exists, then copies
   * in the background. Like a folder's ZIP, the file never replaces one the user has there: it takes
   * " (2)", " (3)"… when its name is taken, so a copy that fails can be removed without loss.
   */
  async exportVersion(actor: Actor, id: string, body: ExportBody): Promise<ConnectorTransfer> {
    const { version, project } = await this.deps.items.version(actor, body.versionId, 'download');
    if (version.status === 'uploading') throw DomainError.conflict('This version is still uploading.', 'NOT_READY');
    const drive = await this.open(actor.userId, id);
    const folder = await this.targetFolder(drive, body.folder);
    const taken = new Set((await drive.list(folder)).entries.map((entry) => entry.name.toLowerCase()));
    const fileName = uniquePath(taken, safeName(version.fileName));
    const transfer = await this.deps.repository.insertTransfer({
      id: randomUUID(),
      userId: actor.userId,
      connectorId: id,
      direction: 'export',
      path: normalisePath(`${folder}/${fileName}`),
      fileName,
      versionId: version.id,
      projectId: project.id,
      status: 'running',
      bytesTotal: version.fileSize,
    });
    await this.send(transfer, null);
    return presentTransfer(transfer);
  }

  /**
   * "Save to…" on a folder: the folder as one stored ZIP (what the browser's ZIP of it holds for this
   * caller, with the same refusals) written into a folder of the linked account in the background.
   * The archive's exact length is known before a byte is read, so the provider is told it up front.
   * The file takes the folder's name made safe, with " (2)", " (3)"… when the target folder already
   * holds one: saving a folder never replaces a file the user has there.
   */
  async exportFolder(actor: Actor, id: string, body: ExportFolderBody): Promise<ConnectorTransfer> {
    const input = exportFolderBody.parse(body);
    const archive = await this.deps.zip.folderArchive(actor, input.groupId);
    const drive = await this.open(actor.userId, id);
    const folder = await this.targetFolder(drive, input.folder);
    const taken = new Set((await drive.list(folder)).entries.map((entry) => entry.name.toLowerCase()));
    const fileName = uniquePath(taken, `${safeName(archive.folderName)}.zip`);
    const transfer = await this.deps.repository.insertTransfer({
      id: randomUUID(),
      userId: actor.userId,
      connectorId: id,
      direction: 'export',
      path: normalisePath(`${folder}/${fileName}`),
      fileName,
      groupId: input.groupId,
      status: 'running',
      bytesTotal: archive.size,
    });
    await this.send(transfer, null);
    return presentTransfer(transfer);
  }

  /** The folder an export writes into: one the account has (400 otherwise: the request names it). */
  private async targetFolder(drive: Drive, path: string): Promise<string> {
    const folder = connectorPath(path);
    const target = await drive.stat(folder).catch((error: unknown) => {
      if (error instanceof DriveError && error.code === 'DRIVE_NOT_FOUND')
        throw DomainError.badRequest(CONNECTOR_MESSAGES.noSuchFolder, 'NO_SUCH_FOLDER');
      throw error;
    });
    if (target.kind !== 'folder') throw DomainError.badRequest(CONNECTOR_MESSAGES.notAFolder, 'NOT_A_FOLDER');
    return folder;
  }

  private async send(transfer: ConnectorTransferRow, uploadId: string | null): Promise<void> {
    await this.deps.jobs.send(connectorCopyStage, { transferId: transfer.id, userId: transfer.userId, uploadId });
  }

  /** The user's linked account as a drive; another user's id is the same absence as none. */
  async open(userId: string, id: string): Promise<Drive> {
    const row = await this.deps.repository.account(userId, id);
    if (!row) throw DomainError.notFound(CONNECTOR_MESSAGES.noSuchAccount);
    const credentials = JSON.parse(
      this.deps.box.open(row.sealedCredentials, `connector:${row.id}`),
    ) as DriveCredentials;
    // A refreshed token pair is sealed into the row at once: the next call (on any node) uses it.
    return this.driveOf(credentials, async (tokens) => {
      const renewed = { kind: credentials.kind, tokens } as DriveCredentials;
      await this.deps.repository.updateCredentials(userId, id, this.sealFor(id, renewed));
    });
  }

  /** Credentials sealed for one account row (its id is the associated data). */
  sealFor(id: string, credentials: DriveCredentials): string {
    return this.deps.box.seal(JSON.stringify(credentials), `connector:${id}`);
  }

  driveOf(credentials: DriveCredentials, persist: (tokens: OAuthTokens) => Promise<void> = async () => {}): Drive {
    return createDrive(credentials, this.deps.network, this.deps.clock, { apps: this.deps.oauth, persist });
  }
}

/** A path in a linked account as the user sent it, made canonical; one that can't be is a 400. */
export function connectorPath(path: string): string {
  try {
    return normalisePath(path);
  } catch {
    throw DomainError.badRequest(DRIVE_MESSAGES.badPath, 'BAD_PATH');
  }
}
