import type { Readable } from 'node:stream';
import type { DomainEventInput } from '@mixroom/contracts';
import type { ItemPolicy } from '../../access/item.policy';
import type { AppConfig } from '../../config/config';
import type { UnitOfWork } from '../../db/database';
import type { BlobStore } from '../../platform/blob/blob-store';
import type { Clock } from '../../platform/clock/clock';
import type { FaultPoints } from '../../platform/faults/fault-points';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { Outbox } from '../../platform/jobs/outbox';
import type { MediaTools } from '../../platform/media/ffmpeg';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { TempSpace } from '../../platform/temp/temp-space';
import type { CreditsService } from '../credits';
import type { UploadsService } from '../uploads';
import type { ToolProcessors } from './tools-processors';
import type { SessionRow, TaskRow, ToolsRepository } from './tools.repository';

/** A file in one of the user's linked storage accounts, read by the server (null: none can be). */
export type LinkedFileReader = (
  userId: string,
  connectorId: string,
  path: string,
  maxBytes: number,
) => Promise<{ fileName: string; body: Readable }>;

/** What the tools services are built from (one object, wired by the module). */
export interface ToolsDeps {
  repository: ToolsRepository;
  uploads: UploadsService;
  credits: CreditsService;
  items: ItemPolicy;
  blobs: BlobStore;
  outbox: Outbox;
  jobs: Pick<JobQueue, 'failRunning'>;
  bus: EventBus;
  unitOfWork: UnitOfWork;
  clock: Clock;
  faults: FaultPoints;
  temp: TempSpace;
  mediaTools: MediaTools;
  processors: ToolProcessors;
  config: AppConfig['tools'];
  signTtlSeconds: number;
  linkedFiles: LinkedFileReader | null;
}

/** Where a user's tool files live: inputs under `inputs/`, each task's outputs under its id. */
export const toolsUserPrefix = (userId: string) => `tools/${userId}/`;
export const toolsTaskPrefix = (userId: string, taskId: string) => `tools/${userId}/${taskId}/`;
export const toolsOutputKey = (userId: string, taskId: string, sessionId: string, name: string) =>
  `tools/${userId}/${taskId}/${sessionId}/${name}`;

/** The credits ledger's reference of a task: spend and refund are once per reference. */
export const taskCreditRef = (taskId: string) => `task:${taskId}`;

/** A task changed for its owner: small on purpose (clients refetch the task). */
export function taskChanged(
  task: Pick<TaskRow, 'id' | 'userId' | 'status'>,
  action: 'created' | 'progress' | 'completed' | 'failed' | 'deleted',
  session: Pick<SessionRow, 'id' | 'type' | 'status' | 'progress' | 'preview'> | null,
): DomainEventInput {
  return {
    topic: `user:${task.userId}`,
    type: 'task.changed',
    data: {
      taskId: task.id,
      action,
      status: task.status,
      session: session
        ? {
            id: session.id,
            type: session.type,
            status: session.status,
            progress: session.progress,
            previewSeconds: session.status === 'RUNNING' ? (session.preview?.seconds ?? null) : null,
          }
        : null,
    },
  };
}
