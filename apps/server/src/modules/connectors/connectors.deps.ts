import type { Readable } from 'node:stream';
import type { UploadTicket, Version } from '@mixroom/contracts';
import type { ItemPolicy } from '../../access/item.policy';
import type { BlobStore, PartialBlob } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { DriveNetwork } from '../../platform/drives/drive-http';
import type { OAuthAppConfig } from '../../platform/drives/oauth-session';
import type { Actor } from '../../platform/identity/actor';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { SecretBox } from '../../platform/secrets/secret-box';
import type { Logger } from 'pino';
import type { ZipService } from '../storage';
import type { ConnectorsRepository } from './connectors.repository';

/** What the connectors module is built from: the core's parts and the storage module's version doors. */
export interface ConnectorsDeps {
  repository: ConnectorsRepository;
  box: SecretBox;
  network: DriveNetwork;
  enabled: readonly ('webdav' | 's3' | 'dropbox' | 'gdrive')[];
  /** The operator's Dropbox and Google apps (null when not configured). */
  oauth: { dropbox: OAuthAppConfig | null; gdrive: OAuthAppConfig | null };
  /** Where the provider sends the browser back after consent (Settings), from PUBLIC_URL. */
  redirectUri: string;
  clock: Clock;
  jobs: JobQueue;
  bus: EventBus;
  blobs: BlobStore;
  items: ItemPolicy;
  /** A folder as one ZIP, under the browser ZIP's access rules (a folder's "Save to…"). */
  zip: ZipService;
  log: Logger;
  actorOf: (userId: string) => Promise<Actor | null>;
  /** Opens the next version of a project (rights, extension, quota reserved for `size`). */
  startVersion: (
    actor: Actor,
    projectId: string,
    input: { name: string; fileName: string; size: number },
  ) => Promise<UploadTicket>;
  /** Stores the whole file of an open upload from a stream. */
  storeWhole: (userId: string, uploadId: string, body: Readable) => Promise<void>;
  /**
   * Fills an open upload's local file, kept across attempts (see UploadsService.fillWhole); false
   * when the store has none (S3) or `fill` wrote nothing, and the caller streams instead.
   */
  fillWhole: (
    userId: string,
    uploadId: string,
    fill: (partial: PartialBlob) => Promise<number | null>,
  ) => Promise<boolean>;
  /** The version's file is in: it becomes a version through the one completion path (media job). */
  completeUpload: (actor: Actor, versionId: string) => Promise<Version>;
  /** Drops an upload that will not finish, with its reservation (and a project that had only it). */
  cancelUpload: (actor: Actor, versionId: string) => Promise<void>;
}
