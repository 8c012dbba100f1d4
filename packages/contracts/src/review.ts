import { DIFFERENCE_LANE, NOTE_LIMITS, REVIEW_MESSAGES } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeText } from './common';

export const noteBody = z.object({
  html: safeText(z.string().max(NOTE_LIMITS.htmlMax, { message: REVIEW_MESSAGES.notesTooLong })),
});
export const noteResponse = z
  .object({ versionId: z.uuid(), html: z.string(), canEdit: z.boolean(), updatedAt: isoDate.nullable() })
  .meta({ id: 'VersionNote' });
export type VersionNote = z.infer<typeof noteResponse>;

/** Which version to compare with, and what counts as changed. */
export const differenceQuery = z.object({
  with: z.uuid(),
  thresholdDb: z.coerce.number().min(DIFFERENCE_LANE.floorDb).max(0).default(DIFFERENCE_LANE.thresholdDb),
  minSeconds: z.coerce.number().min(0).max(600).default(DIFFERENCE_LANE.minSeconds),
  /** Ask again for a lane whose analysis failed. */
  retry: z.enum(['true', 'false']).optional(),
});
export type DifferenceQuery = z.infer<typeof differenceQuery>;

export const differenceRegion = z.object({
  /** Seconds on A's timeline. */
  start: z.number(),
  end: z.number(),
  /** The loudest difference inside, dB relative to A. */
  peakDb: z.number(),
});
export type DifferenceRegion = z.infer<typeof differenceRegion>;

/**
 * Where version B differs from version A: computed by a job the first time the pair is asked
 * for, then kept. `levels` are dB relative to A's level, one every `windowSeconds` of A's timeline.
 */
export const differenceResponse = z
  .object({
    versionId: z.uuid(),
    otherVersionId: z.uuid(),
    status: z.enum(['pending', 'ready', 'failed']),
    progress: z.number(),
    error: z.string().nullable(),
    /**
     * How much later B starts than A (negative: earlier), found by cross-correlation; null unless
     * `alignment` is 'shifted'. A claim is made only when it is sure: 'in-sync' when B starts within
     * a few samples of A, 'unsure' when no offset stands out (periodic material, unrelated audio)
     * and the two were compared as they start.
     */
    offsetSeconds: z.number().nullable(),
    alignment: z.enum(['shifted', 'in-sync', 'unsure']),
    /** Whether the changed regions cover (nearly) the whole file: then `overall` says how, in one phrase. */
    everywhere: z.boolean(),
    /** B's level against A's over the whole file and, per band, how much more or less B has beyond it. */
    overall: z
      .object({
        levelDb: z.number(),
        bands: z.array(z.object({ fromHz: z.number(), toHz: z.number(), db: z.number() })),
      })
      .nullable(),
    windowSeconds: z.number().nullable(),
    levels: z.array(z.number()),
    thresholdDb: z.number(),
    minSeconds: z.number(),
    regions: z.array(differenceRegion),
  })
  .meta({ id: 'VersionDifference' });
export type VersionDifference = z.infer<typeof differenceResponse>;

/**
 * The spectrogram is rendered by a job, queued by the first request: until its image exists the
 * request answers 202 with where the job stands, and the screen asks again.
 */
export const spectrogramPending = z.object({ state: z.enum(['queued', 'running']) });
export type SpectrogramPending = z.infer<typeof spectrogramPending>;
