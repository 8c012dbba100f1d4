import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  allowedVersionExtensions,
  baseName,
  extensionNotAllowed,
  extensionOf,
  isAudioExtension,
  LIMITS,
  MESSAGES,
  storageLimitBytes,
  storedExtension,
  STORAGE_MESSAGES,
  type Role,
} from '@mixroom/shared';
import type { ProjectItem, UploadTicket, Version, VersionApproval } from '@mixroom/contracts';
import {
  DOWNLOADS_OFF,
  NOT_AUTHORIZED_PROJECT,
  type ItemNeed,
  type ResolvedProject,
} from '../../../access/item.policy';
import { AppError } from '../../../http/app-error';
import type { Actor } from '../../../platform/identity/actor';
import { playbackKey, PREVIEW_PREPARING_MESSAGE } from '../media/playback';
import type { ProjectRow } from './projects.repository';
import { verdictNotice } from './verdict-notice';
import type { ProjectsServiceDeps } from './projects.deps';
import { eventItem } from '../storage.events';
import { presentVersion } from '../storage.presenter';
import type { VersionRow } from './versions.repository';
import { completeVersionUpload, type VersionArea } from './version-completion';
import { projectBlobPrefix, versionBlobKey, versionBlobPrefix } from '../../../platform/blob/blob-keys';

export { NOT_AUTHORIZED_PROJECT };
export type { ProjectsServiceDeps };

/** Projects and their versions: creation, settings, uploads straight to the store, downloads. */
export class ProjectsService {
  /** The STORAGE area's rows, for the one completion path. */
  private readonly area: VersionArea;

  constructor(private readonly deps: ProjectsServiceDeps) {
    this.area = {
      fitsOnCompletion: (tx, version, quota) => deps.versions.fitsOnCompletion(tx, version, quota),
      updateVersion: (id, values, tx) => deps.versions.update(id, values, tx),
      updateProject: (id, values, tx) => deps.projects.update(id, values, tx),
    };
  }

  /** A live project and the actor's role on it, as the item policy decides. */
  resolve(actor: Actor, id: string, need: ItemNeed = 'view'): Promise<ResolvedProject> {
    return this.deps.policy.project(actor, id, need);
  }

  async present(actor: Actor, project: ProjectRow, role: Role): Promise<ProjectItem> {
    const { latest, counts } = await this.deps.versions.latestOf([project.id]);
    const thumbnails = await this.deps.presenter.thumbnails(latest.values());
    return this.deps.presenter.project(
      project,
      role,
      await this.deps.presenter.people([project.publisherId], [project]),
      latest.get(project.id),
      counts.get(project.id) ?? 0,
      thumbnails,
    );
  }

  async get(actor: Actor, id: string): Promise<{ project: ProjectItem; versions: Version[]; attachmentCount: number }> {
    const { project, role } = await this.resolve(actor, id);
    const versions = await this.deps.versions.list(id);
    const thumbnails = await this.deps.presenter.thumbnails(versions);
    return {
      project: await this.present(actor, project, role),
      versions: versions.map((v) => presentVersion(v, thumbnails.get(v.id) ?? null)),
      attachmentCount: await this.deps.projects.attachmentCount(id),
    };
  }

  /** A new project in a folder (or at the root); inside a folder it belongs to the folder's publisher. */
  private async insertProject(
    actor: Actor,
    input: { name: string; groupId: string | null; type: 'AUDIO' | 'ANY'; flag?: 'NONE' | 'CREATE' },
  ) {
    const parent = input.groupId ? await this.deps.policy.folder(actor, input.groupId, 'edit') : null;
    const id = randomUUID();
    const row = await this.deps.projects.insert({
      id,
      name: input.name,
      type: input.type,
      groupId: parent?.group.id ?? null,
      path: [...(parent?.group.path ?? []), id],
      publisherId: parent?.group.publisherId ?? actor.userId,
      flag: input.flag ?? 'NONE',
      createdBy: actor.userId,
    });
    const role: Role = row.publisherId === actor.userId ? 'OWNER' : (parent?.role ?? 'OWNER');
    return { row, role };
  }

  async create(actor: Actor, input: { name: string; groupId: string | null }): Promise<ProjectItem> {
    const { row, role } = await this.insertProject(actor, { ...input, type: 'AUDIO' });
    await this.deps.events.changed(eventItem.project(row), 'created');
    return this.present(actor, row, role);
  }

  async update(
    actor: Actor,
    id: string,
    input: {
      name?: string | undefined;
      groupId?: string | null | undefined;
      enableDownload?: boolean | undefined;
      color?: string | null | undefined;
    },
  ) {
    const { project, role } = await this.resolve(actor, id, 'edit');
    let path: string[] | undefined;
    if (input.groupId !== undefined && input.groupId !== project.groupId) {
      const target = await this.deps.policy.moveTarget(actor, project, input.groupId);
      path = [...(target?.path ?? []), project.id];
    }
    const row = await this.deps.projects.update(id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.color !== undefined ? { color: input.color } : {}),
      ...(input.enableDownload !== undefined ? { enableDownload: input.enableDownload } : {}),
      ...(path ? { groupId: input.groupId ?? null, path } : {}),
    });
    if (path || input.enableDownload !== undefined) await this.deps.projects.syncAttachments(row);
    await this.deps.events.changed(eventItem.project(row), 'updated', project.groupId);
    // A move changes who reaches the project through its new ancestors.
    if (path) await this.deps.accessChanges.forEveryone();
    return this.present(actor, row, role);
  }

  /** The publisher's plan decides, before a byte moves: a clear refusal up front. */
  private async checkQuota(publisherId: string, size: number): Promise<void> {
    const limit = storageLimitBytes(await this.deps.limitsFor(publisherId));
    if ((await this.deps.versions.usedBytes(publisherId)) + size > limit)
      throw new AppError(413, 'STORAGE_LIMIT', MESSAGES.storageLimit);
  }

  /**
   * Opens the upload of a new version of `project` (also the single file of an attachment). The
   * version row reserves its declared size against the publisher's quota in the same locked step
   * that checks it, so parallel uploads can't overshoot together; a reservation ends when its
   * upload completes, is cancelled, or is swept as abandoned.
   */
  async openVersion(
    actor: Actor,
    project: ProjectRow,
    input: { name: string; fileName: string; size: number },
  ): Promise<UploadTicket> {
    const versionId = randomUUID();
    // Keys hold ids and a tame extension only: names are metadata, never part of a path.
    const blobKey = versionBlobKey(project.id, versionId, `original.${storedExtension(extensionOf(input.fileName))}`);
    const limitBytes = storageLimitBytes(await this.deps.limitsFor(project.publisherId));
    const version = await this.deps.versions.insertNextWithinQuota(
      {
        id: versionId,
        projectId: project.id,
        name: input.name,
        fileName: input.fileName,
        fileExtension: extensionOf(input.fileName),
        fileSize: input.size,
        blobKey,
        createdBy: actor.userId,
      },
      { publisherId: project.publisherId, limitBytes: Math.min(limitBytes, Number.MAX_SAFE_INTEGER) },
    );
    if (!version) throw new AppError(413, 'STORAGE_LIMIT', MESSAGES.storageLimit);
    let session;
    try {
      session = await this.deps.uploads.start(actor.userId, blobKey, input.size);
    } catch (error) {
      await this.deps.versions.delete(versionId);
      throw error;
    }
    const reserved = await this.deps.versions.update(versionId, { uploadId: session.id });
    const role = await this.deps.policy.roles(actor, [project]).then((roles) => roles.get(project.id) ?? 'NONE');
    return {
      upload: { id: session.id, size: session.size, partSize: session.partSize, partCount: session.partCount },
      version: presentVersion(reserved),
      project: await this.present(actor, project, role),
    };
  }

  /** One dropped or picked file becomes a project (AUDIO for audio extensions) with version 1. */
  async uploadFile(
    actor: Actor,
    input: { groupId: string | null; fileName: string; size: number },
  ): Promise<UploadTicket> {
    const extension = extensionOf(input.fileName);
    const name = baseName(input.fileName).slice(0, LIMITS.nameMax).trim() || input.fileName.slice(0, LIMITS.nameMax);
    const type = isAudioExtension(extension) ? 'AUDIO' : 'ANY';
    const parent = input.groupId ? (await this.deps.policy.folder(actor, input.groupId, 'edit')).group : null;
    const publisherId = parent?.publisherId ?? actor.userId;
    await this.checkQuota(publisherId, input.size);
    const { row } = await this.insertProject(actor, { name, groupId: input.groupId, type, flag: 'CREATE' });
    try {
      const ticket = await this.openVersion(actor, row, { name, fileName: input.fileName, size: input.size });
      await this.deps.events.changed(eventItem.project(row), 'created');
      return ticket;
    } catch (error) {
      await this.deps.projects.delete(row.id);
      throw error;
    }
  }

  /** A new version of an existing project: audio only, and the last version's extension once one exists. */
  async startVersion(
    actor: Actor,
    projectId: string,
    input: { name: string; fileName: string; size: number },
  ): Promise<UploadTicket> {
    const { project } = await this.resolve(actor, projectId, 'edit');
    const [last] = await this.deps.versions.list(projectId);
    const allowed = project.type === 'AUDIO' ? allowedVersionExtensions(last?.fileExtension ?? null) : null;
    if (allowed && !allowed.includes(extensionOf(input.fileName)))
      throw new AppError(400, 'EXTENSION_NOT_ALLOWED', extensionNotAllowed(allowed));
    return this.openVersion(actor, project, input);
  }

  private async uploadingVersion(
    actor: Actor,
    versionId: string,
  ): Promise<{ version: VersionRow; project: ProjectRow }> {
    const version = await this.deps.versions.find(versionId);
    if (!version?.uploadId) throw AppError.notFound('No such upload.');
    const { project } = await this.resolve(actor, version.projectId, 'edit');
    return { version, project };
  }

  /**
   * The one way a file the server made itself (an AI tool's output, a live recording) becomes a
   * version: opened as a ticket like a browser's upload (rights, quota, name rules), its bytes stored
   * inside the server, then completed like any upload (media job, events).
   */
  async importFile(actor: Actor, ticket: UploadTicket, body: Readable): Promise<Version> {
    await this.deps.uploads.storeWhole(actor.userId, ticket.upload.id, body);
    return this.completeUpload(actor, ticket.version.id);
  }

  /** All parts are in: the file becomes a version through the one completion path (`completeVersionUpload`). */
  async completeUpload(actor: Actor, versionId: string): Promise<Version> {
    const { version, project } = await this.uploadingVersion(actor, versionId);
    return completeVersionUpload(this.deps, {
      area: this.area,
      sessionOwnerId: actor.userId,
      version,
      project,
      drop: () => this.dropUploadingVersion(version, project),
      afterCommit: async () => {
        this.deps.faults.crashIf('version-complete:after-commit');
        await this.deps.events.changed(eventItem.project(project), 'uploaded');
        if (project.parentProjectId)
          await this.deps.events.attachment(project.parentProjectId, { attachmentId: project.id, action: 'uploaded' });
      },
    });
  }

  /**
   * Cancel: the upload is aborted and its reservation released; a project that had only this
   * version goes with it. Whoever may edit the project may cancel, so a folder's owner can stop a
   * collaborator's upload that holds their quota.
   */
  async cancelUpload(actor: Actor, versionId: string): Promise<void> {
    const { version, project } = await this.uploadingVersion(actor, versionId);
    if (version.status !== 'uploading') throw AppError.conflict(STORAGE_MESSAGES.uploadAborted, 'UPLOAD_FINISHED');
    await this.deps.uploads.abortSession(version.uploadId!);
    await this.dropUploadingVersion(version, project);
  }

  /** Removes an upload that will never finish (cancelled or abandoned) and what it reserved. */
  async dropUploadingVersion(version: VersionRow, project: ProjectRow): Promise<void> {
    const remaining = (await this.deps.versions.list(project.id)).filter((v) => v.id !== version.id);
    await this.deps.blobs.deletePrefix(versionBlobPrefix(project.id, version.id)).catch(() => undefined);
    if (remaining.length === 0) await this.deps.projects.delete(project.id);
    else await this.deps.versions.delete(version.id);
    await this.deps.events.changed(eventItem.project(project), 'deleted');
  }

  /**
   * The review's verdict on a version (none, needs changes, approved), set by the publisher or an
   * editor; shown on tiles and the version picker, and told live to everyone who may see it.
   */
  async setApproval(actor: Actor, versionId: string, approval: VersionApproval): Promise<Version> {
    const { version, project } = await this.deps.policy.version(actor, versionId, 'edit');
    if (version.approval === approval) return presentVersion(version);
    const audience = await this.deps.policy.audience(project);
    const updated = await this.deps.unitOfWork(async (tx) => {
      const row = await this.deps.versions.update(
        versionId,
        { approval, approvalBy: actor.userId, approvalAt: this.deps.clock.now() },
        tx,
      );
      await this.deps.notify(
        tx,
        audience.filter((id) => id !== actor.userId),
        verdictNotice(actor.displayName, project, version.number, approval),
      );
      return row;
    });
    await this.deps.events.changed(eventItem.project(project), 'updated');
    await this.deps.events.approval(audience, {
      projectId: project.id,
      projectName: project.name,
      versionId,
      versionNumber: version.number,
      approval,
      by: actor.displayName,
      byId: actor.userId,
    });
    return presentVersion(updated);
  }

  /** Rename a version; saving the same name changes nothing. */
  async renameVersion(actor: Actor, versionId: string, name: string): Promise<Version> {
    const { version, project } = await this.deps.policy.version(actor, versionId, 'edit');
    if (version.name === name) return presentVersion(version);
    const updated = await this.deps.versions.update(versionId, { name });
    await this.deps.events.changed(eventItem.project(project), 'updated');
    return presentVersion(updated);
  }

  /**
   * Deletes a version and its files. A project's only version takes the project with it (no empty project stays behind);
   * otherwise the project shows its new latest version.
   */
  async deleteVersion(actor: Actor, versionId: string): Promise<{ projectDeleted: boolean }> {
    const { version, project } = await this.deps.policy.version(actor, versionId, 'edit');
    const remaining = (await this.deps.versions.list(project.id)).filter((v) => v.id !== versionId);
    if (version.uploadId && version.status === 'uploading')
      await this.deps.uploads.abortSession(version.uploadId).catch(() => undefined);
    if (remaining.length === 0) {
      const owned = await this.deps.projects.idsUnder(project.id);
      for (const uploadId of await this.deps.versions.openUploadIds(owned))
        await this.deps.uploads.abortSession(uploadId);
      for (const id of owned) await this.deps.blobs.deletePrefix(projectBlobPrefix(id));
      await this.deps.projects.delete(project.id);
    } else {
      await this.deps.blobs.deletePrefix(versionBlobPrefix(project.id, versionId));
      await this.deps.versions.delete(versionId);
      const latest = remaining[0]!;
      await this.deps.projects.update(project.id, { size: latest.fileSize, latestExtension: latest.fileExtension });
    }
    await this.deps.events.changed(eventItem.project(project), remaining.length === 0 ? 'deleted' : 'updated');
    return { projectDeleted: remaining.length === 0 };
  }

  /** A signed URL for the original file, under its original name, with Range support. */
  async downloadUrl(actor: Actor, versionId: string): Promise<{ url: string; expiresAt: string }> {
    const { version } = await this.deps.policy.version(actor, versionId, 'download');
    if (version.status === 'uploading') throw AppError.conflict('This version is still uploading.', 'NOT_READY');
    const url = await this.deps.blobs.signDownloadUrl(version.blobKey, {
      expiresInSeconds: this.deps.signTtlSeconds,
      fileName: version.fileName,
    });
    return {
      url,
      expiresAt: new Date(this.deps.clock.now().getTime() + this.deps.signTtlSeconds * 1000).toISOString(),
    };
  }

  /**
   * Derived files for anyone who can see the project: thumbnail and peaks (no audio in them), and
   * what the player streams, which follows the download rule (the lossy preview when downloads are
   * off, never the original).
   */
  async derivedUrl(actor: Actor, versionId: string, kind: 'thumbnail' | 'peaks' | 'preview'): Promise<string> {
    const { version, capabilities } = await this.deps.policy.version(actor, versionId);
    if (kind === 'preview') return this.signPlayback(version, capabilities.canDownload);
    const key = kind === 'thumbnail' ? version.thumbnailKey : version.peaksKey;
    if (!key) throw AppError.notFound('Not available yet.');
    return this.deps.blobs.signDownloadUrl(key, {
      expiresInSeconds: this.deps.signTtlSeconds,
      contentType: kind === 'thumbnail' ? 'image/png' : 'application/json',
    });
  }

  /** A signed URL to what a player may stream of a version (see playbackKey). */
  async signPlayback(version: VersionRow, canDownload: boolean): Promise<string> {
    if (version.status === 'uploading') throw AppError.conflict('This version is still uploading.', 'NOT_READY');
    const key = playbackKey(version, canDownload);
    if (!key) {
      // A processed file that is not audio never gets a preview: only its download is offered.
      if (version.status !== 'processing' && version.durationSeconds === null) throw AppError.forbidden(DOWNLOADS_OFF);
      throw AppError.conflict(PREVIEW_PREPARING_MESSAGE, 'PREVIEW_PREPARING');
    }
    return this.deps.blobs.signDownloadUrl(key, { expiresInSeconds: this.deps.signTtlSeconds });
  }
}
