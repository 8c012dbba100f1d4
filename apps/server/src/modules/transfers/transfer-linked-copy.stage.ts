import { z } from 'zod';
import { declareStage, type StageOptions } from '../../platform/jobs/staged-job';

/**
 * One file of a transfer copied by the server from the owner's linked account into the file's blob.
 * Its id derives from the file's version, so queueing it twice runs it once; progress goes to the
 * owner's topic.
 */
const schema = z.object({
  transferId: z.uuid(),
  versionId: z.uuid(),
  userId: z.uuid(),
  connectorId: z.uuid(),
  /** The file's path in the linked account. */
  path: z.string().min(1).max(4096),
});
export type TransferLinkedCopyPayload = z.output<typeof schema>;

export const transferLinkedCopyOptions: StageOptions<typeof schema> = {
  name: 'transfers.linked-copy',
  schema,
  idOf: (payload) => payload.versionId,
  topicOf: (payload) => `user:${payload.userId}`,
  heartbeatSeconds: 30,
  // A provider that timed out or answered 5xx gets two more tries; the copy starts again from its first byte.
  retryLimit: 2,
  expireInSeconds: 6 * 3600,
  concurrency: 2,
};

export const transferLinkedCopyStage = declareStage(transferLinkedCopyOptions);
