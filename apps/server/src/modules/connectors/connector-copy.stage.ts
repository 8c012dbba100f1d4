import { z } from 'zod';
import { declareStage, type StageOptions } from '../../platform/jobs/staged-job';

/**
 * One copy between a linked account and Mixroom, run on a worker: its id derives from the copy's,
 * so sending it twice queues it once; progress goes to the owner's topic (the Activities panel).
 */
const schema = z.object({ transferId: z.uuid(), userId: z.uuid(), uploadId: z.uuid().nullable() });

export const connectorCopyOptions: StageOptions<typeof schema> = {
  name: 'connector-copy',
  schema,
  idOf: (payload) => payload.transferId,
  topicOf: (payload) => `user:${payload.userId}`,
  heartbeatSeconds: 30,
  // A provider that timed out or answered 5xx gets two more tries; the copy starts again from its first byte.
  retryLimit: 2,
  expireInSeconds: 6 * 3600,
};

export const connectorCopyStage = declareStage(connectorCopyOptions);
