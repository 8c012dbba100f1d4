import type { DifferenceQuery, VersionDifference } from '@mixroom/contracts';
import { DIFFERENCE_LANE } from '@mixroom/shared';
import type { ItemPolicy } from '../../access/item.policy';
import type { VersionRow } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { Actor } from '../../platform/identity/actor';
import type { Tx, UnitOfWork } from '../../db/database';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { Outbox } from '../../platform/jobs/outbox';
import { stageState, type StageContext } from '../../platform/jobs/staged-job';
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
import { computeDifferenceStage, type DifferenceOutcome, type DifferenceWork } from './difference.job';

const FAILED = {
  undecodable: 'One of the versions could not be decoded for comparison.',
  other: 'The comparison could not be computed.',
} as const;
/** Changed regions covering this much of A's timeline are one change everywhere, said in words. */
const EVERYWHERE_FRACTION = 0.9;

export interface DifferenceServiceDeps {
  policy: ItemPolicy;
  differences: DifferenceRepository;
  media: MediaService;
  outbox: Outbox;
  /** Where the lane's stage stands (a pending row whose stage is gone is queued again). */
  jobs: Pick<JobQueue, 'state'>;
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
export class DifferenceService implements DifferenceWork {
  /** The lane's stage: one job per ordered pair, heartbeat, retried when its worker dies. */
  readonly stage = computeDifferenceStage(this);

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
    // A lane kept from before offsets were checked (and the whole-file comparison measured) may
    // claim a wrong offset: it is computed again.
    const outdated = row?.status === 'ready' && row.overall === null;
    if (!row || outdated || (row.status === 'failed' && query.retry === 'true')) {
      await this.queue(pair, row?.status ?? null, now);
      row = await this.deps.differences.find(pair);
    } else if (row.status === 'pending') {
      // A stage whose worker died is retried by pg-boss (its heartbeat stopped); one that is gone
      // altogether (its final failure not recorded, its job removed) is queued again.
      const state = await stageState(this.deps.jobs, this.stage, pair);
      if (state === 'none' || state === 'failed') await this.requeue(pair);
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
      // A lane asked for again (retried, outdated) reuses the pair's job id: its finished job is replaced.
      if (claimed) await this.deps.outbox.job(tx, this.stage, pair, { again: true });
      return claimed;
    });
    // Started now rather than at the outbox's next pass: someone is waiting for it.
    if (queued) this.deps.outbox.kick();
  }

  private async requeue(pair: DifferencePair): Promise<void> {
    await this.deps.unitOfWork((tx) => this.deps.outbox.job(tx, this.stage, pair, { again: true }));
    this.deps.outbox.kick();
  }

  /**
   * The stage's work: both files decoded as they stream. A file that will not decode is an outcome
   * (the lane failed, said plainly); any other error fails the attempt, retried once by pg-boss.
   */
  async compute(pair: DifferencePair, context: Pick<StageContext, 'log'>): Promise<DifferenceOutcome> {
    const row = await this.deps.differences.find(pair);
    if (!row || row.status !== 'pending') return { kind: 'none' };
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
      if (!result) return { kind: 'none' };
      context.log.info(
        { ...pair, offsetSeconds: result.offsetSeconds, margin: result.margin, correlation: result.correlation },
        'difference lane aligned',
      );
      return {
        kind: 'ready',
        offsetSeconds: result.offsetSeconds,
        overall: result.overall,
        windowSeconds: result.windowSeconds,
        levels: encodeLevels(result.levels),
      };
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      // The tool's words name server paths: they go to the log, users get a plain sentence.
      context.log.warn({ ...pair, err: error }, 'difference lane failed');
      return { kind: 'failed', error: FAILED.undecodable };
    }
  }

  /** The stage's completion: the lane (or why it failed) stored in the transaction that completes it. */
  async record(tx: Tx, pair: DifferencePair, outcome: DifferenceOutcome): Promise<void> {
    if (outcome.kind === 'none') return;
    const now = this.deps.clock.now();
    if (outcome.kind === 'failed') await this.deps.differences.fail(pair, outcome.error, now, tx);
    else {
      const { kind: _kind, ...lane } = outcome;
      await this.deps.differences.finish(tx, pair, lane, now);
    }
    // Told to A's open review screens once the lane is stored (after the commit).
    const projectId = await this.deps.differences.projectIdOf(pair.versionId, tx);
    if (projectId)
      await this.deps.outbox.event(tx, {
        topic: `project:${projectId}`,
        type: 'difference.progress',
        data: { ...pair, status: outcome.kind, progress: outcome.kind === 'ready' ? 100 : 0 },
      });
  }

  /** The stage's final failure (its last attempt failed, or its worker died twice): the lane failed. */
  async failed(pair: DifferencePair | null): Promise<void> {
    if (!pair) return;
    await this.deps.differences.fail(pair, FAILED.other, this.deps.clock.now());
    await this.announce(pair, 'failed', 0);
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
