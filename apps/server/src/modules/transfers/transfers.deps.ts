import type { DomainEventInput } from '@mixroom/contracts';
import type { PlanLimits } from '@mixroom/shared';
import type { TransferPolicy } from '../../access/transfer.policy';
import type { UnitOfWork } from '../../db/database';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { Drive } from '../../platform/drives/drive';
import type { DriveNetwork } from '../../platform/drives/drive-http';
import type { Outbox } from '../../platform/jobs/outbox';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { UploadsService } from '../uploads';
import type { TransferDownloadsRepository } from './transfer-downloads.repository';
import type { TransferLinksRepository } from './transfer-links.repository';
import type { TransfersRepository } from './transfers.repository';

/** What the transfer services are built from (one object, wired by the module). */
export interface TransfersDeps {
  repository: TransfersRepository;
  downloads: TransferDownloadsRepository;
  /** Link tokens: a recipient's own, and those of deleted transfers. */
  links: TransferLinksRepository;
  policy: TransferPolicy;
  uploads: UploadsService;
  blobs: BlobStore;
  outbox: Outbox;
  bus: EventBus;
  unitOfWork: UnitOfWork;
  clock: Clock;
  publicUrl: string;
  signTtlSeconds: number;
  limitsFor: (userId: string) => Promise<PlanLimits>;
  transfersThisMonth: (userId: string) => Promise<number>;
  /** A user's name and address for mails (the sender of a transfer). */
  userOf: (userId: string) => Promise<{ email: string; displayName: string } | null>;
  /**
   * One of the user's linked storage accounts, from the connectors module: another user's account
   * is the same 404 as none. A transfer's linked files are read through it by the server.
   */
  linkedDrive: (userId: string, connectorId: string) => Promise<Drive>;
  /** The outbound rules every provider call follows (the operator's allowed hosts, the timeout). */
  linkedNetwork: DriveNetwork;
}

/** A transfer changed for its owner: recorded with the write (in `tx`) or published now. */
export function transferChanged(
  publisherId: string,
  transferId: string,
  action: 'created' | 'sent' | 'updated' | 'file' | 'downloaded' | 'deleted',
): DomainEventInput {
  return { topic: `user:${publisherId}`, type: 'transfer.changed', data: { transferId, action } };
}
