import type { DifferenceQuery, VersionDifference } from '@mixroom/contracts';
import { DIFFERENCE_LANE } from '@mixroom/shared';
import type { ItemPolicy } from '../../access/item.policy';
import type { UnitOfWork } from '../../db/database';
import type { VersionRow } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { JobContext } from '../../platform/jobs/job-definition';
import type { Outbox } from '../../platform/jobs/outbox';
import type { OverallDifference } from '../../platform/media/band-levels';
import {
  ANALYSIS,
  changedRegions,
  decodeLevels,
  encodeLevels,
  poolLevels,
  type ChangedRegion,
} from '../../platform/media/difference-lane';
import { MediaError } from '../../platform/media/ffmpeg';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { MediaService } from '../storage';
import type { DifferencePair, DifferenceRepository, DifferenceRow } from './difference.repository';
import { computeDifferenceJob } from './difference.job';

/** A pending lane not touched for this long belongs to a job that died with its node: queued again. */
const STALE_MS = 15 * 60_000;
/** Changed regions covering this much of A's timeline are one change everywhere, said in words. */
const EVERYWHERE_FRACTION = 0.9;

export interface DifferenceServiceDeps {
  policy: ItemPolicy;
  differences: DifferenceRepository;
  media: MediaService;
  outbox: Outbox;
  unitOfWork: UnitOfWork;
  clock: Clock;
  bus: EventBus;
}

/**
 * "What changed between versions": where version B differs from version A, as the level of their
 * difference over time after lining up their starts. B is another version of the project or any
 * version the actor can see (a reference track). The lane is computed by a job the first time a
 * pair is asked for, then kept.
 */
export class DifferenceService {
  constructor(private readonly deps: DifferenceServiceDeps) {}

  async difference(actor: Actor, versionId: string, query: DifferenceQuery): Promise<VersionDifference> {
    const { version } = await this.deps.policy.version(actor, versionId);
    const other = await this.visibleVersion(actor, query.with);
    if (other.id === version.id) throw AppError.badRequest('Choose another version to compare with.');
    for (const v of [version, other])
      if (v.status !== 'ready' || !v.durationSeconds)
        throw AppError.conflict('Both versions must be processed audio to compare them.', 'NOT_READY');
    const pair = { versionId: version.id, otherVersionId: other.id };
    let row = await this.deps.differences.find(pair);
    const now = this.deps.clock.now();
    const stale = row?.status === 'pending' && now.getTime() - row.updatedAt.getTime() > STALE_MS;
    // A lane kept from before offsets were checked (and the whole-file comparison measured) may
    // claim a wrong offset: it is computed again.
    const outdated = row?.status === 'ready' && row.overall === null;
    if (!row || stale || outdated || (row.status === 'failed' && query.retry === 'true')) {
      await this.queue(pair, row?.status ?? null, now);
      row = await this.deps.differences.find(pair);
    }
    if (!row) throw AppError.notFound('No such version.');
    return present(row, query);
  }

  /**
   * The version to compare with, only when the actor may see it. A version of a project they
   * can't see reads as one that does not exist: nothing tells them it does.
   */
  private async visibleVersion(actor: Actor, versionId: string): Promise<VersionRow> {
    try {
      return (await this.deps.policy.version(actor, versionId)).version;
    } catch (error) {
      if (error instanceof AppError && (error.status === 403 || error.status === 404))
        throw AppError.notFound('No such version.');
      throw error;
    }
  }

  /** Records the pending lane and its job in one transaction; a concurrent request's row wins. */
  private async queue(pair: DifferencePair, from: DifferenceRow['status'] | null, now: Date): Promise<void> {
    const queued = await this.deps.unitOfWork(async (tx) => {
      const claimed = from
        ? await this.deps.differences.restart(tx, pair, from, now)
        : await this.deps.differences.create(tx, pair, now);
      if (claimed) await this.deps.outbox.job(tx, computeDifferenceJob, pair);
      return claimed;
    });
    // Started now rather than at the outbox's next pass: someone is waiting for it.
    if (queued) this.deps.outbox.kick();
  }

  /** The job: both files decoded as they stream, the lane stored, or why it could not be made. */
  async compute(pair: DifferencePair, context: Pick<JobContext, 'log'>): Promise<void> {
    const row = await this.deps.differences.find(pair);
    if (!row || row.status !== 'pending') return;
    try {
      let last = 0;
      const result = await this.deps.media.difference(pair.versionId, pair.otherVersionId, async (fraction) => {
        const percent = Math.floor(fraction * 99);
        if (percent <= last) return;
        last = percent;
        await this.deps.differences.progress(pair, percent, this.deps.clock.now());
        await this.announce(pair, 'pending', percent);
      });
      // Either version deleted meanwhile took the row with it.
      if (!result) return;
      context.log.info(
        { ...pair, offsetSeconds: result.offsetSeconds, margin: result.margin, correlation: result.correlation },
        'difference lane aligned',
      );
      await this.deps.differences.finish(
        pair,
        {
          offsetSeconds: result.offsetSeconds,
          overall: result.overall,
          windowSeconds: result.windowSeconds,
          levels: encodeLevels(result.levels),
        },
        this.deps.clock.now(),
      );
      await this.announce(pair, 'ready', 100);
    } catch (error) {
      // The tool's words name server paths: they go to the log, users get a plain sentence.
      context.log.warn({ ...pair, err: error }, 'difference lane failed');
      await this.deps.differences.fail(
        pair,
        error instanceof MediaError
          ? 'One of the versions could not be decoded for comparison.'
          : 'The comparison could not be computed.',
        this.deps.clock.now(),
      );
      await this.announce(pair, 'failed', 0);
    }
  }

  /** Told to A's open review screens, where the lane shows; an undelivered tick is only a tick. */
  private async announce(pair: DifferencePair, status: 'pending' | 'ready' | 'failed', progress: number) {
    const projectId = await this.deps.differences.projectIdOf(pair.versionId);
    if (!projectId) return;
    await this.deps.bus.publishOrLog({
      topic: `project:${projectId}`,
      type: 'difference.progress',
      data: { ...pair, status, progress },
    });
  }
}

function present(row: DifferenceRow, query: DifferenceQuery): VersionDifference {
  const ready = row.status === 'ready' && row.levels && row.windowSeconds;
  const levels = ready ? decodeLevels(row.levels!) : null;
  const pooled = levels ? poolLevels(levels, row.windowSeconds!, DIFFERENCE_LANE.maxPoints) : null;
  const regions = levels ? changedRegions(levels, row.windowSeconds!, query.thresholdDb, query.minSeconds) : [];
  const alignment = alignmentOf(ready ? row.offsetSeconds : null);
  return {
    versionId: row.versionId,
    otherVersionId: row.otherVersionId,
    status: row.status,
    progress: row.progress,
    error: row.error,
    offsetSeconds: alignment === 'shifted' ? row.offsetSeconds : null,
    alignment,
    everywhere: levels ? coversEverything(regions, levels.length * row.windowSeconds!) : false,
    overall: ready ? ((row.overall as OverallDifference | null) ?? null) : null,
    windowSeconds: pooled?.windowSeconds ?? null,
    levels: pooled?.levels ?? [],
    thresholdDb: query.thresholdDb,
    minSeconds: query.minSeconds,
    regions,
  };
}

/** What may be said of B's start: only an offset found for sure, and only one bigger than a few samples. */
function alignmentOf(offsetSeconds: number | null): VersionDifference['alignment'] {
  if (offsetSeconds === null) return 'unsure';
  return Math.abs(offsetSeconds) < ANALYSIS.syncSeconds ? 'in-sync' : 'shifted';
}

function coversEverything(regions: ChangedRegion[], seconds: number): boolean {
  const changed = regions.reduce((sum, region) => sum + region.end - region.start, 0);
  return seconds > 0 && changed >= EVERYWHERE_FRACTION * seconds;
}
