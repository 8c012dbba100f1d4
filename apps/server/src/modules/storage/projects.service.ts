import { randomUUID } from 'node:crypto';
import {
  allowedVersionExtensions,
  baseName,
  extensionNotAllowed,
  extensionOf,
  isAudioExtension,
  LIMITS,
  MESSAGES,
  projectCapabilities,
  storageLimitBytes,
  STORAGE_MESSAGES,
  type PlanLimits,
  type Role,
} from '@mixroom/shared';
import type { ProjectItem, UploadTicket, Version } from '@mixroom/contracts';
import type { ItemAccessRepository } from '../../access/item-access.repository';
import { AppError } from '../../http/app-error';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { UploadsService } from '../uploads/uploads.service';
import type { Actor } from '../users/users.service';
import type { GroupsRepository } from './groups.repository';
import type { GroupsService } from './groups.service';
import { processVersionJob } from './media.jobs';
import type { ProjectRow, ProjectsRepository } from './projects.repository';
import { folderTopic, type StorageEvents } from './storage.events';
import { presentVersion, type StoragePresenter } from './storage.presenter';
import type { VersionRow, VersionsRepository } from './versions.repository';

export const NOT_AUTHORIZED_PROJECT = 'You are not authorized to access this project';
type Need = 'view' | 'edit' | 'download';

/** Projects and their versions: creation, settings, uploads straight to the store, downloads. */
export class ProjectsService {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly versions: VersionsRepository,
    private readonly groups: GroupsRepository,
    private readonly groupsService: GroupsService,
    private readonly access: ItemAccessRepository,
    private readonly presenter: StoragePresenter,
    private readonly events: StorageEvents,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly jobs: JobQueue,
    private readonly limitsFor: (userId: string) => Promise<PlanLimits>,
    private readonly signTtlSeconds: number,
  ) {}

  async resolve(actor: Actor, id: string, need: Need = 'view'): Promise<{ project: ProjectRow; role: Role }> {
    const project = await this.projects.find(id);
    if (!project) throw AppError.notFound('This project does not exist.');
    const role = await this.access.roleFor(actor.userId, project);
    if (role === 'NONE') throw AppError.forbidden(NOT_AUTHORIZED_PROJECT);
    if (project.flag === 'DELETE' || project.flag === 'DELETING' || (await this.groups.inTrash(project.path)))
      throw AppError.notFound(STORAGE_MESSAGES.inTrash);
    const caps = projectCapabilities(role, project.enableDownload);
    if (need === 'edit' && !caps.canEdit) throw AppError.forbidden();
    if (need === 'download' && !caps.canDownload) throw AppError.forbidden('Downloads are not enabled for this project.');
    return { project, role };
  }

  async present(actor: Actor, project: ProjectRow, role: Role): Promise<ProjectItem> {
    const { latest, counts } = await this.versions.latestOf([project.id]);
    const thumbnails = await this.presenter.thumbnails(latest.values());
    return this.presenter.project(
      project,
      role,
      await this.presenter.people([project.publisherId], [project]),
      latest.get(project.id),
      counts.get(project.id) ?? 0,
      thumbnails,
    );
  }

  async get(actor: Actor, id: string): Promise<{ project: ProjectItem; versions: Version[]; attachmentCount: number }> {
    const { project, role } = await this.resolve(actor, id);
    const versions = await this.versions.list(id);
    const thumbnails = await this.presenter.thumbnails(versions);
    return {
      project: await this.present(actor, project, role),
      versions: versions.map((v) => presentVersion(v, thumbnails.get(v.id) ?? null)),
      attachmentCount: await this.projects.attachmentCount(id),
    };
  }

  /** A new project in a folder (or at the root); inside a folder it belongs to the folder's publisher. */
  private async insertProject(actor: Actor, input: { name: string; groupId: string | null; type: 'AUDIO' | 'ANY'; flag?: 'NONE' | 'CREATE' }) {
    const parent = input.groupId ? await this.groupsService.resolve(actor, input.groupId, 'edit') : null;
    const id = randomUUID();
    const row = await this.projects.insert({
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
    await this.events.changed([row.groupId], { itemId: row.id, kind: 'project', action: 'created' });
    return this.present(actor, row, role);
  }

  async update(
    actor: Actor,
    id: string,
    input: { name?: string | undefined; groupId?: string | null | undefined; enableDownload?: boolean | undefined; color?: string | null | undefined },
  ) {
    const { project, role } = await this.resolve(actor, id, 'edit');
    let path: string[] | undefined;
    if (input.groupId !== undefined && input.groupId !== project.groupId) {
      const target = input.groupId ? (await this.groupsService.resolve(actor, input.groupId, 'edit')).group : null;
      if (!target && project.publisherId !== actor.userId) throw AppError.forbidden('Only the publisher can move this project to the root.');
      path = [...(target?.path ?? []), project.id];
    }
    const row = await this.projects.update(id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.color !== undefined ? { color: input.color } : {}),
      ...(input.enableDownload !== undefined ? { enableDownload: input.enableDownload } : {}),
      ...(path ? { groupId: input.groupId ?? null, path } : {}),
    });
    if (path || input.enableDownload !== undefined) await this.projects.syncAttachments(row);
    await this.events.changed([project.groupId, row.groupId], { itemId: id, kind: 'project', action: 'updated' });
    return this.present(actor, row, role);
  }

  /** The publisher's plan decides, before a byte moves (spec 1 §5). */
  private async checkQuota(publisherId: string, size: number): Promise<void> {
    const limit = storageLimitBytes(await this.limitsFor(publisherId));
    if ((await this.versions.usedBytes(publisherId)) + size > limit) throw new AppError(413, 'STORAGE_LIMIT', MESSAGES.storageLimit);
  }

  /** Opens the upload of a new version of `project` (also the single file of an attachment). */
  async openVersion(actor: Actor, project: ProjectRow, input: { name: string; fileName: string; size: number }): Promise<UploadTicket> {
    await this.checkQuota(project.publisherId, input.size);
    const versionId = randomUUID();
    const blobKey = `projects/${project.id}/${versionId}/original.${extensionOf(input.fileName) || 'bin'}`;
    const session = await this.uploads.start(actor.userId, blobKey, input.size);
    const version = await this.versions.insertNext({
      id: versionId,
      projectId: project.id,
      name: input.name,
      fileName: input.fileName,
      fileExtension: extensionOf(input.fileName),
      fileSize: input.size,
      blobKey,
      uploadId: session.id,
      createdBy: actor.userId,
    });
    const role = await this.access.roleFor(actor.userId, project);
    return {
      upload: { id: session.id, size: session.size, partSize: session.partSize, partCount: session.partCount },
      version: presentVersion(version),
      project: await this.present(actor, project, role),
    };
  }

  /** One dropped or picked file becomes a project (AUDIO for audio extensions) with version 1. */
  async uploadFile(actor: Actor, input: { groupId: string | null; fileName: string; size: number }): Promise<UploadTicket> {
    const extension = extensionOf(input.fileName);
    const name = baseName(input.fileName).slice(0, LIMITS.nameMax).trim() || input.fileName.slice(0, LIMITS.nameMax);
    const type = isAudioExtension(extension) ? 'AUDIO' : 'ANY';
    const parent = input.groupId ? (await this.groupsService.resolve(actor, input.groupId, 'edit')).group : null;
    const publisherId = parent?.publisherId ?? actor.userId;
    await this.checkQuota(publisherId, input.size);
    const { row } = await this.insertProject(actor, { name, groupId: input.groupId, type, flag: 'CREATE' });
    try {
      const ticket = await this.openVersion(actor, row, { name, fileName: input.fileName, size: input.size });
      await this.events.changed([row.groupId], { itemId: row.id, kind: 'project', action: 'created' });
      return ticket;
    } catch (error) {
      await this.projects.delete(row.id);
      throw error;
    }
  }

  /** A new version of an existing project: audio only, and the last version's extension once one exists. */
  async startVersion(actor: Actor, projectId: string, input: { name: string; fileName: string; size: number }): Promise<UploadTicket> {
    const { project } = await this.resolve(actor, projectId, 'edit');
    const [last] = await this.versions.list(projectId);
    const allowed = project.type === 'AUDIO' ? allowedVersionExtensions(last?.fileExtension ?? null) : null;
    if (allowed && !allowed.includes(extensionOf(input.fileName))) throw new AppError(400, 'EXTENSION_NOT_ALLOWED', extensionNotAllowed(allowed));
    return this.openVersion(actor, project, input);
  }

  private async uploadingVersion(actor: Actor, versionId: string): Promise<{ version: VersionRow; project: ProjectRow }> {
    const version = await this.versions.find(versionId);
    if (!version?.uploadId) throw AppError.notFound('No such upload.');
    const { project } = await this.resolve(actor, version.projectId, 'edit');
    return { version, project };
  }

  /** All parts are in: assemble the file and queue its processing. */
  async completeUpload(actor: Actor, versionId: string): Promise<Version> {
    const { version, project } = await this.uploadingVersion(actor, versionId);
    if (version.status !== 'uploading') return presentVersion(version);
    await this.uploads.complete(actor.userId, version.uploadId!);
    const updated = await this.versions.update(versionId, { status: 'processing', progress: 0 });
    await this.projects.update(project.id, { flag: 'NONE', size: version.fileSize, latestExtension: version.fileExtension });
    await this.jobs.send(processVersionJob, { versionId }, { topic: folderTopic(project.groupId) });
    await this.events.changed([project.groupId], { itemId: project.id, kind: 'project', action: 'uploaded' });
    if (project.parentProjectId) await this.events.attachment(project.parentProjectId, { attachmentId: project.id, action: 'uploaded' });
    return presentVersion(updated);
  }

  /** Cancel: the upload is aborted; a project that had only this version goes with it. */
  async cancelUpload(actor: Actor, versionId: string): Promise<void> {
    const { version, project } = await this.uploadingVersion(actor, versionId);
    if (version.status !== 'uploading') throw AppError.conflict(STORAGE_MESSAGES.uploadAborted, 'UPLOAD_FINISHED');
    await this.uploads.abort(actor.userId, version.uploadId!);
    const remaining = (await this.versions.list(project.id)).filter((v) => v.id !== versionId);
    if (remaining.length === 0) await this.projects.delete(project.id);
    else await this.versions.delete(versionId);
    await this.events.changed([project.groupId], { itemId: project.id, kind: 'project', action: 'deleted' });
  }

  /** Rename a version; saving the same name changes nothing (spec 2 §4). */
  async renameVersion(actor: Actor, versionId: string, name: string): Promise<Version> {
    const version = await this.versions.find(versionId);
    if (!version) throw AppError.notFound('No such version.');
    const { project } = await this.resolve(actor, version.projectId, 'edit');
    if (version.name === name) return presentVersion(version);
    const updated = await this.versions.update(versionId, { name });
    await this.events.changed([project.groupId], { itemId: project.id, kind: 'project', action: 'updated' });
    return presentVersion(updated);
  }

  /**
   * Deletes a version and its files. A project's only version takes the project with it (spec 2 §4);
   * otherwise the project shows its new latest version.
   */
  async deleteVersion(actor: Actor, versionId: string): Promise<{ projectDeleted: boolean }> {
    const version = await this.versions.find(versionId);
    if (!version) throw AppError.notFound('No such version.');
    const { project } = await this.resolve(actor, version.projectId, 'edit');
    const remaining = (await this.versions.list(project.id)).filter((v) => v.id !== versionId);
    if (version.uploadId && version.status === 'uploading') await this.uploads.abort(actor.userId, version.uploadId).catch(() => undefined);
    if (remaining.length === 0) {
      for (const owned of await this.projects.idsUnder(project.id)) await this.blobs.deletePrefix(`projects/${owned}/`);
      await this.projects.delete(project.id);
    } else {
      await this.blobs.deletePrefix(`projects/${project.id}/${versionId}/`);
      await this.versions.delete(versionId);
      const latest = remaining[0]!;
      await this.projects.update(project.id, { size: latest.fileSize, latestExtension: latest.fileExtension });
    }
    await this.events.changed([project.groupId], { itemId: project.id, kind: 'project', action: remaining.length === 0 ? 'deleted' : 'updated' });
    return { projectDeleted: remaining.length === 0 };
  }

  /** A signed URL for the original file, under its original name, with Range support. */
  async downloadUrl(actor: Actor, versionId: string): Promise<{ url: string; expiresAt: string }> {
    const version = await this.versions.find(versionId);
    if (!version) throw AppError.notFound('No such version.');
    await this.resolve(actor, version.projectId, 'download');
    if (version.status === 'uploading') throw AppError.conflict('This version is still uploading.', 'NOT_READY');
    const url = await this.blobs.signDownloadUrl(version.blobKey, { expiresInSeconds: this.signTtlSeconds, fileName: version.fileName });
    return { url, expiresAt: new Date(Date.now() + this.signTtlSeconds * 1000).toISOString() };
  }

  /** Derived files (thumbnail, peaks, preview) for anyone who can see the project. */
  async derivedUrl(actor: Actor, versionId: string, kind: 'thumbnail' | 'peaks' | 'preview'): Promise<string> {
    const version = await this.versions.find(versionId);
    if (!version) throw AppError.notFound('No such version.');
    await this.resolve(actor, version.projectId);
    const key = kind === 'thumbnail' ? version.thumbnailKey : kind === 'peaks' ? version.peaksKey : (version.previewKey ?? version.blobKey);
    if (!key) throw AppError.notFound('Not available yet.');
    const contentType = kind === 'thumbnail' ? 'image/png' : kind === 'peaks' ? 'application/json' : undefined;
    return this.blobs.signDownloadUrl(key, { expiresInSeconds: this.signTtlSeconds, ...(contentType ? { contentType } : {}) });
  }
}
