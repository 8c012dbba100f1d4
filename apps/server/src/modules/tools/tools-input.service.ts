import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { TaskInput } from '@mixroom/contracts';
import { formatSize, isToolsExtension, TOOLS_MAX_SECONDS, TOOLS_MESSAGES, type ToolKind } from '@mixroom/shared';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import { fetchOutbound, OutboundUrlError, type OutboundPolicy } from '../../platform/net/outbound-fetch';
import { durationOf, streamToFile } from './tools-media';
import type { ToolsDeps } from './tools.deps';

/** A task's input once checked: stored under the user's tools prefix, its duration measured. */
export interface AcceptedInput {
  source: 'upload' | 'version' | 'link' | 'connector';
  fileName: string;
  versionId: string | null;
  key: string;
  seconds: number;
  /** Removes what accepting stored, when the task is then refused. */
  discard(): Promise<void>;
}

/** What a link's Content-Type says about its extension, when its path says nothing. */
const EXTENSION_OF_TYPE: Record<string, string> = {
  'audio/mpeg': '.mp3',
  'audio/mp3': '.mp3',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
  'audio/wave': '.wav',
  'audio/ogg': '.ogg',
  'audio/flac': '.flac',
  'audio/x-flac': '.flac',
  'audio/aac': '.aac',
  'audio/mp4': '.m4a',
  'audio/x-m4a': '.m4a',
  'audio/opus': '.opus',
};

/** The link's file name: its path's last segment, decoded, without control characters, kept short. */
function lastSegment(url: URL): string {
  const raw = url.pathname.split('/').pop() ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  // eslint-disable-next-line no-control-regex
  return decoded.replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, '').slice(-200);
}

const extensionRefused = () => DomainError.badRequest(TOOLS_MESSAGES.extension(), 'EXTENSION_NOT_SUPPORTED');
const linkFailed = (why?: string) =>
  new DomainError(
    422,
    'LINK_FAILED',
    TOOLS_MESSAGES.linkFailed,
    why ? [{ path: 'input.url', message: why }] : undefined,
  );

/**
 * Where a task's audio comes from — a tools upload, a library version the user may download, or a
 * public link — and the check every input passes before a task is accepted: ffprobe's duration
 * within the tool's limit (an unknown duration counts as too long).
 */
export class ToolsInputService {
  private readonly linkPolicy: OutboundPolicy;

  constructor(private readonly deps: ToolsDeps) {
    this.linkPolicy = {
      protocols: ['http:', 'https:'],
      allowHosts: deps.config.linkTestAllowHosts,
      extraCa: null,
      timeoutMs: 30_000,
    };
  }

  private inputKey(userId: string, extension: string): string {
    return `tools/${userId}/inputs/${randomUUID()}${extension.toLowerCase()}`;
  }

  /** Opens an upload for a task's input; its parts go through the uploads endpoints. */
  async openUpload(actor: Actor, fileName: string, size: number) {
    if (!isToolsExtension(fileName)) throw extensionRefused();
    if (size > this.deps.config.linkMaxBytes)
      throw new DomainError(
        413,
        'FILE_TOO_LARGE',
        `This file is larger than the ${formatSize(this.deps.config.linkMaxBytes)} the AI tools take.`,
      );
    const key = this.inputKey(actor.userId, extname(fileName));
    const session = await this.deps.uploads.start(actor.userId, key, size);
    await this.deps.repository.insertUpload({
      id: session.id,
      userId: actor.userId,
      blobKey: key,
      fileName,
      size,
      createdAt: this.deps.clock.now(),
    });
    return { upload: { id: session.id, size: session.size, partSize: session.partSize, partCount: session.partCount } };
  }

  /** Checks and stores the input; throws the spec's refusals. */
  async accept(actor: Actor, tool: ToolKind, input: TaskInput): Promise<AcceptedInput> {
    const dir = await this.deps.temp.folder('tool-input');
    try {
      if ('uploadId' in input) return await this.fromUpload(actor, tool, input.uploadId, join(dir, 'input'));
      if ('versionId' in input) return await this.fromVersion(actor, tool, input.versionId, join(dir, 'input'));
      if ('connectorId' in input)
        return await this.fromLinked(actor, tool, input.connectorId, input.path, join(dir, 'input'));
      return await this.fromLink(actor, tool, input.url, join(dir, 'input'));
    } finally {
      await this.deps.temp.remove(dir);
    }
  }

  private async measure(tool: ToolKind, path: string): Promise<number> {
    const seconds = await durationOf(this.deps.mediaTools, path);
    if (seconds === null || seconds > TOOLS_MAX_SECONDS[tool])
      throw new DomainError(413, 'AUDIO_TOO_LONG', TOOLS_MESSAGES.tooLong(tool));
    return seconds;
  }

  private async fromUpload(actor: Actor, tool: ToolKind, uploadId: string, path: string): Promise<AcceptedInput> {
    const row = await this.deps.repository.upload(uploadId, actor.userId);
    if (!row) throw DomainError.notFound('No such upload.');
    const session = await this.deps.uploads.get(actor.userId, uploadId);
    if (session.status === 'aborted') throw DomainError.conflict('This upload was cancelled.', 'UPLOAD_CLOSED');
    if (session.status === 'open') await this.deps.uploads.complete(actor.userId, uploadId);
    const discard = async () => {
      await this.deps.blobs.delete(row.blobKey).catch(() => undefined);
      await this.deps.repository.deleteUpload(row.id);
    };
    try {
      await streamToFile(await this.deps.blobs.get(row.blobKey), path);
      const seconds = await this.measure(tool, path);
      return { source: 'upload', fileName: row.fileName, versionId: null, key: row.blobKey, seconds, discard };
    } catch (error) {
      await discard();
      throw error;
    }
  }

  private async fromVersion(actor: Actor, tool: ToolKind, versionId: string, path: string): Promise<AcceptedInput> {
    const { version } = await this.deps.items.version(actor, versionId, 'download');
    if (version.status === 'uploading') throw DomainError.conflict('This version is still uploading.', 'NOT_READY');
    if (!isToolsExtension(version.fileName)) throw extensionRefused();
    await streamToFile(await this.deps.blobs.get(version.blobKey), path);
    const seconds = await this.measure(tool, path);
    // A copy of its own: the task keeps working if the version is deleted, and goes with the task.
    return this.store(actor, path, version.fileName, extname(version.fileName), 'version', versionId, seconds);
  }

  /** A file in a linked storage account: its extension checked by name first, the same size cap as a link. */
  private async fromLinked(
    actor: Actor,
    tool: ToolKind,
    connectorId: string,
    drivePath: string,
    path: string,
  ): Promise<AcceptedInput> {
    if (!this.deps.linkedFiles) throw DomainError.notFound('No such linked account.');
    const name = drivePath.split('/').pop() ?? '';
    if (!isToolsExtension(name)) throw extensionRefused();
    const file = await this.deps.linkedFiles(actor.userId, connectorId, drivePath, this.deps.config.linkMaxBytes);
    await streamToFile(file.body, path);
    const seconds = await this.measure(tool, path);
    return this.store(actor, path, file.fileName, extname(file.fileName), 'connector', null, seconds);
  }

  private async fromLink(actor: Actor, tool: ToolKind, url: string, path: string): Promise<AcceptedInput> {
    let fileName: string;
    let extension: string;
    try {
      const answer = await fetchOutbound(url, this.linkPolicy, { maxBytes: this.deps.config.linkMaxBytes });
      if (answer.status < 200 || answer.status > 299) {
        answer.body.destroy();
        throw linkFailed(`The link answered ${answer.status}.`);
      }
      const last = lastSegment(answer.url);
      const type = String(answer.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      extension = isToolsExtension(last) ? extname(last).toLowerCase() : (EXTENSION_OF_TYPE[type] ?? '');
      if (!extension) {
        answer.body.destroy();
        throw linkFailed();
      }
      fileName = isToolsExtension(last) ? last : `${last || answer.url.hostname}${extension}`;
      await streamToFile(answer.body, path);
    } catch (error) {
      if (error instanceof OutboundUrlError) throw linkFailed(error.message);
      throw error;
    }
    const seconds = await this.measure(tool, path);
    return this.store(actor, path, fileName, extension, 'link', null, seconds);
  }

  private async store(
    actor: Actor,
    path: string,
    fileName: string,
    extension: string,
    source: 'version' | 'link' | 'connector',
    versionId: string | null,
    seconds: number,
  ): Promise<AcceptedInput> {
    const key = this.inputKey(actor.userId, extension);
    await stat(path);
    await this.deps.blobs.put(key, createReadStream(path));
    return {
      source,
      fileName,
      versionId,
      key,
      seconds,
      discard: () => this.deps.blobs.delete(key).catch(() => undefined),
    };
  }
}
