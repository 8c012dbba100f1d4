import { z } from 'zod';
import type { Tx } from '../../db/database';
import { defineStage, type StageContext } from '../../platform/jobs/staged-job';
import type { DifferencePair } from './difference.repository';

export const differencePairSchema = z.object({ versionId: z.uuid(), otherVersionId: z.uuid() });

/** What the lane's stage ends with: the lane itself, or why it could not be made (a file that would not decode). */
export type DifferenceOutcome =
  | {
      kind: 'ready';
      offsetSeconds: number | null;
      overall: unknown;
      windowSeconds: number;
      levels: Buffer;
    }
  | { kind: 'failed'; error: string }
  /** Either version went meanwhile (its row with it), or the lane was already made: nothing to record. */
  | { kind: 'none' };

/** The lane's work, done by the difference service. */
export interface DifferenceWork {
  compute(pair: DifferencePair, context: StageContext): Promise<DifferenceOutcome>;
  record(tx: Tx, pair: DifferencePair, outcome: DifferenceOutcome): Promise<void>;
  failed(pair: DifferencePair | null, error: Error): Promise<void>;
}

/**
 * The "what changed" lane of B against A as a stage: two decodes side by side, so one at a time per
 * node; one job per ordered pair (its id derives from the pair); a worker that dies mid-lane stops
 * beating and pg-boss runs the lane again; the lane is stored in the transaction that completes it.
 */
export const computeDifferenceStage = (work: DifferenceWork) =>
  defineStage({
    name: 'review.compute-difference',
    schema: differencePairSchema,
    idOf: (pair) => `${pair.versionId}:${pair.otherVersionId}`,
    heartbeatSeconds: 30,
    retryLimit: 1,
    expireInSeconds: 3600,
    concurrency: 1,
    run: (pair, context) => work.compute(pair, context),
    complete: (tx, pair, outcome) => work.record(tx, pair, outcome),
    onFinalFailure: (pair, error) => work.failed(pair, error),
  });

export type ComputeDifferenceStage = ReturnType<typeof computeDifferenceStage>;
