import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TOOLS_CREDIT_COST } from '@mixroom/shared';
import type { Logger } from 'pino';
import type { Tx } from '../../db/database';
import type { ToolEngineJson, ToolOutputJson } from '../../db/schema';
import { detectBpm, DEFAULT_BPM } from '../../platform/processors/analysis/bpm-detect';
import { DEFAULT_EFFECT_PLUGINS } from '../../platform/processors/presets/effects-stage';
import type { SeparationInput, StemMode, VoiceId } from '../../platform/processors/processor';
import { MediaError } from '../../platform/media/ffmpeg';
import { defineStage, nextStage, type NextStage, type StageContext } from '../../platform/jobs/staged-job';
import { decodeToWork, durationOf, encodeM4a, mixToM4a, peaksOf, streamToFile } from './tools-media';
import { toolStageJob, toolStageOptions } from './tools-job-types';
import { previewPrefix, StagePreview } from './tools-preview';
import { taskChanged, taskCreditRef, toolsOutputKey, type ToolsDeps } from './tools.deps';
import type { SessionRow, TaskRecord } from './tools.repository';

type StagePayload = { taskId: string; sessionId: string };

/** A stage's results on local disk, before they are stored. */
interface StageResult {
  /** Output kind → an M4A path. */
  files: Record<string, string>;
  /** Output kind → the engine that made it. */
  engines: Record<string, ToolEngineJson>;
  engine: ToolEngineJson;
}

/** What a stage that is not the task's last hands its completion: its stored outputs. */
interface StoredStage {
  record: TaskRecord;
  session: SessionRow;
  next: SessionRow;
  outputs: Record<string, ToolOutputJson>;
  engine: ToolEngineJson;
}

/** Progress is written and announced at most this often (ms): enough for a bar, little for the bus. */
const PROGRESS_EVERY_MS = 250;

/** Raised inside the completion transaction when the session stopped running meanwhile (cancelled). */
class SessionGone extends Error {}

/** What a failed stage tells its owner: the processor's own words, never a tool's paths. */
function reasonOf(error: Error): string {
  if (error instanceof MediaError) return 'The audio could not be processed.';
  return (error.message || 'The processing failed.').slice(0, 300);
}

/**
 * A stage of a task as a staged job (platform/jobs/staged-job.ts): one job per session (its id
 * derives from the session's), pg-boss's heartbeat (a dead worker's stage is retried), and the
 * session completed in the transaction that queues the next stage (through the outbox).
 */
export const toolStage = (work: ToolsStageWork) =>
  defineStage({
    ...toolStageOptions,
    run: (payload, context) => work.run(payload, context),
    complete: (tx, payload, stored) => work.complete(tx, stored),
    onFinalFailure: (payload, error) => work.fail(payload, reasonOf(error)),
  });

/**
 * The work of one stage of a task on a worker: decodes its input to the processors' format in the
 * temp space, runs the processor with progress, stores each output as M4A (with its peaks) under
 * tools/{userId}/{taskId}/{sessionId}/, and completes the session. A stage before the last completes
 * in the stage's completion, with the next stage queued in the same transaction; the last stage
 * completes the task in the transaction that charges the credits (the credits' own, so from `run`).
 * A retry (after a crash or a failed attempt) runs the stage again from its start; a stage already
 * completed or failed is left alone.
 */
export class ToolsStageWork {
  constructor(private readonly deps: ToolsDeps) {}

  /** The stage's work: null when there is nothing left to complete (done already, or the last stage, completed here). */
  async run(payload: StagePayload, context: Pick<StageContext, 'signal' | 'log'>): Promise<StoredStage | null> {
    const { repository, clock } = this.deps;
    const record = await repository.find(payload.taskId);
    const session = record?.sessions.find((s) => s.id === payload.sessionId);
    if (!record || !session || session.status === 'COMPLETED' || session.status === 'FAILED') return null;
    const started = await this.deps.unitOfWork((tx) =>
      repository.updateSession(
        tx,
        session.id,
        {
          status: 'RUNNING',
          progress: 0,
          message: null,
          // A retry starts its preview again from the start (the keys name their frame count).
          preview: null,
          attempts: session.attempts + 1,
          startedAt: session.startedAt ?? clock.now(),
        },
        clock.now(),
      ),
    );
    if (!started) return null;
    await this.announce(started, session.id, 'progress');
    const abort = new AbortController();
    const stop = () => abort.abort();
    context.signal.addEventListener('abort', stop, { once: true });
    const dir = await this.deps.temp.folder(`tool-${session.id}`);
    try {
      const preview = new StagePreview(this.deps, started, session, dir, abort.signal, context.log);
      const result = await this.work(
        record,
        session,
        dir,
        this.progress(started, session.id, abort),
        abort.signal,
        preview.offer,
      );
      const outputs = await this.store(record, session, result);
      this.deps.faults.crashIf('tools.stage.before-commit');
      const next = record.sessions.find((s) => s.position === session.position + 1);
      if (next) return { record, session, next, outputs, engine: result.engine };
      await this.completeLast(record, session, outputs, result.engine, context.log);
      return null;
    } finally {
      context.signal.removeEventListener('abort', stop);
      await this.deps.temp.remove(dir);
      // Stopped because the session ended meanwhile (cancelled): its preview goes. A node stopping
      // leaves the session running, and its retry starts a new preview.
      if (abort.signal.aborted && (await repository.session(session.id))?.status !== 'RUNNING')
        await this.dropPreview(record, session);
    }
  }

  /**
   * The completion of a stage before the last: the session completed, the task restated and told,
   * in the transaction that queues the next stage. A session that stopped running meanwhile
   * (cancelled, deleted) completes nothing and loses what this attempt stored.
   */
  async complete(tx: Tx, stored: StoredStage | null): Promise<NextStage | null> {
    if (!stored) return null;
    const { repository, clock, outbox } = this.deps;
    const { record, session, next, outputs, engine } = stored;
    const done = await repository.completeSession(tx, session.id, { outputs, engine }, clock.now());
    if (!done) {
      await this.discardUnlessCompleted(record, session, tx);
      return null;
    }
    const after = await repository.restate(tx, record.task.id, clock.now());
    // The session's row completed in this transaction: its task is there.
    if (!after) throw new Error(`The task ${record.task.id} of a completed stage is missing.`);
    await outbox.event(tx, taskChanged(after.task, 'progress', { ...done }));
    await this.dropPreview(record, session);
    return nextStage(toolStageJob, { taskId: record.task.id, sessionId: next.id });
  }

  private progress(record: TaskRecord, sessionId: string, abort: AbortController) {
    let last = 0;
    return async (fraction: number) => {
      const now = this.deps.clock.now().getTime();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      const percent = Math.max(0, Math.min(99, Math.round(fraction * 100)));
      const session = await this.deps.repository.setProgress(sessionId, percent);
      // The session stopped running (deleted or cancelled): the processor stops at its next chunk.
      if (!session) return abort.abort();
      await this.deps.bus.publishOrLog(taskChanged({ ...record.task, status: 'RUNNING' }, 'progress', session));
    };
  }

  private async announce(record: TaskRecord, sessionId: string, action: 'progress' | 'completed'): Promise<void> {
    const session = record.sessions.find((s) => s.id === sessionId) ?? null;
    await this.deps.bus.publishOrLog(taskChanged(record.task, action, session));
  }

  /** Fetches a stored file to `path` and decodes it to the processors' format at `wav`. */
  private async fetchDecoded(key: string, dir: string, name: string, signal: AbortSignal): Promise<string> {
    const source = join(dir, `${name}.source`);
    await streamToFile(await this.deps.blobs.get(key), source);
    const wav = join(dir, `${name}.wav`);
    await decodeToWork(this.deps.mediaTools, source, wav, signal);
    return wav;
  }

  private outputOf(record: TaskRecord, type: SessionRow['type'], kind: string): ToolOutputJson {
    const output = record.sessions.find((s) => s.type === type)?.outputs[kind];
    if (!output) throw new Error(`The ${kind} of the ${type} stage is missing.`);
    return output;
  }

  private async work(
    record: TaskRecord,
    session: SessionRow,
    dir: string,
    onProgress: (fraction: number) => Promise<void>,
    signal: AbortSignal,
    onPartial: SeparationInput['onPartial'],
  ): Promise<StageResult> {
    const { processors, mediaTools } = this.deps;
    const scratchDir = join(dir, 'scratch');
    await mkdir(scratchDir, { recursive: true });
    const run = { onProgress, signal, scratchDir };
    const encode = async (kinds: Record<string, string>) => {
      const files: Record<string, string> = {};
      for (const [kind, wav] of Object.entries(kinds)) {
        files[kind] = join(dir, `${kind}.m4a`);
        await encodeM4a(mediaTools, wav, files[kind], signal);
      }
      return files;
    };
    if (session.type === 'STEMSEPARATION') {
      const input = await this.fetchDecoded(record.task.inputKey, dir, 'input', signal);
      const mode: StemMode = record.task.tool === 'revoice' ? 'TWOSTEMS' : (record.task.mode ?? 'TWOSTEMS');
      const outputDir = join(dir, 'stems');
      await mkdir(outputDir, { recursive: true });
      const { stems, engine } = await processors.separator.separate({ ...run, input, mode, outputDir, onPartial });
      const files = await encode(stems);
      return { files, engine, engines: Object.fromEntries(Object.keys(files).map((k) => [k, engine])) };
    }
    if (session.type === 'VC') {
      const input = await this.fetchDecoded(
        this.outputOf(record, 'STEMSEPARATION', 'vocals').key,
        dir,
        'vocals',
        signal,
      );
      const output = join(dir, 'voice.wav');
      const voice = (record.task.voice ?? 'roberto') as VoiceId;
      const pitch = Number(session.parameters.pitch ?? 0);
      const { engine } = await processors.voice.convert({ ...run, input, output, voice, pitch });
      return { files: await encode({ voice: output }), engine, engines: { voice: engine } };
    }
    // VST: the effects on the converted voice, then the song: accompaniment + effected voice.
    const input = await this.fetchDecoded(this.outputOf(record, 'VC', 'voice').key, dir, 'voice', signal);
    const accompaniment = await this.fetchDecoded(
      this.outputOf(record, 'STEMSEPARATION', 'no_vocals').key,
      dir,
      'no_vocals',
      signal,
    );
    const bpm = await detectBpm(mediaTools, accompaniment, signal)
      .then((t) => t.bpm)
      .catch(() => DEFAULT_BPM);
    const output = join(dir, 'effected.wav');
    const { engine } = await processors.effects.apply({
      ...run,
      input,
      output,
      plugins: [...DEFAULT_EFFECT_PLUGINS],
      bpm,
    });
    const files = await encode({ effected: output });
    files.mix = join(dir, 'mix.m4a');
    await mixToM4a(mediaTools, accompaniment, output, files.mix, signal);
    return { files, engine, engines: { effected: engine, mix: engine } };
  }

  /** Puts each output and its peaks in the store; the keys are the session's, so a retry overwrites. */
  private async store(
    record: TaskRecord,
    session: SessionRow,
    result: StageResult,
  ): Promise<Record<string, ToolOutputJson>> {
    const stored: Record<string, ToolOutputJson> = {};
    const { userId, id: taskId } = record.task;
    for (const [kind, path] of Object.entries(result.files)) {
      const key = toolsOutputKey(userId, taskId, session.id, `${kind}.m4a`);
      await this.deps.blobs.put(key, createReadStream(path), 'audio/mp4');
      const peaks = await peaksOf(this.deps.mediaTools, path);
      let peaksKey: string | null = null;
      if (peaks) {
        peaksKey = toolsOutputKey(userId, taskId, session.id, `${kind}.peaks.json`);
        await this.deps.blobs.put(peaksKey, Buffer.from(JSON.stringify(peaks)), 'application/json');
      }
      stored[kind] = {
        key,
        peaksKey,
        size: (await stat(path)).size,
        durationSeconds: await durationOf(this.deps.mediaTools, path),
        engine: result.engines[kind] ?? result.engine,
      };
    }
    return stored;
  }

  /**
   * The last stage's completion: the session and the task completed in the transaction that takes
   * the credits (once per task: a retry after that commit takes nothing).
   */
  private async completeLast(
    record: TaskRecord,
    session: SessionRow,
    outputs: Record<string, ToolOutputJson>,
    engine: ToolEngineJson,
    log: Logger,
  ): Promise<void> {
    const { repository, clock, outbox } = this.deps;
    const finish = async (tx: Tx, charged: number) => {
      const done = await repository.completeSession(tx, session.id, { outputs, engine }, clock.now());
      if (!done) throw new SessionGone();
      const after = await repository.restate(tx, record.task.id, clock.now(), { creditsCharged: charged });
      if (!after) throw new SessionGone();
      await outbox.event(tx, taskChanged(after.task, 'completed', { ...done }));
    };
    try {
      const charge = await this.deps.credits.spend(
        record.task.userId,
        TOOLS_CREDIT_COST,
        record.task.name,
        taskCreditRef(record.task.id),
        (tx) => finish(tx, TOOLS_CREDIT_COST),
      );
      if (charge.status !== 'spent') {
        // Nothing was taken now: the balance fell below the cost while the task ran (credits are
        // checked at the start and taken at the end), or an earlier attempt already paid.
        if (charge.status === 'insufficient') log.warn({ taskId: record.task.id }, 'task completed without credits');
        await this.deps.unitOfWork((tx) => finish(tx, charge.status === 'already-spent' ? TOOLS_CREDIT_COST : 0));
      }
    } catch (error) {
      if (!(error instanceof SessionGone)) throw error;
      await this.discardUnlessCompleted(record, session);
      return;
    }
    outbox.kick();
    await this.dropPreview(record, session);
  }

  /**
   * The preview files of a session that ended: its outputs (or its failure) replace them. Once the
   * session's row is past RUNNING nothing writes them again; should removing them fail, they are in
   * the task's folder and go with the task.
   */
  private async dropPreview(record: TaskRecord, session: Pick<SessionRow, 'id'>): Promise<void> {
    await this.deps.blobs.deletePrefix(previewPrefix(record, session)).catch(() => 0);
  }

  /**
   * Cancelled or deleted while it ran: what this attempt stored goes (unless another attempt
   * completed the session with the same keys).
   */
  private async discardUnlessCompleted(record: TaskRecord, session: SessionRow, tx?: Tx): Promise<void> {
    if ((await this.deps.repository.session(session.id, tx))?.status !== 'COMPLETED')
      await this.deps.blobs.deletePrefix(toolsOutputKey(record.task.userId, record.task.id, session.id, ''));
  }

  /**
   * The stage failed its last attempt: it fails with the reason, the stages after it fail unrun,
   * and the task fails. Credits are taken only on completion, so nothing was charged; should a
   * charge exist all the same, it is refunded.
   */
  async fail(payload: StagePayload | null, reason: string): Promise<void> {
    if (!payload) return;
    const { repository, clock } = this.deps;
    const failed = await this.deps.unitOfWork(async (tx) => {
      const session = await repository.session(payload.sessionId, tx);
      if (!session || session.status === 'COMPLETED' || session.status === 'FAILED') return null;
      await repository.updateSession(
        tx,
        session.id,
        { status: 'FAILED', message: reason, finishedAt: clock.now() },
        clock.now(),
      );
      await repository.failOpenSessions(tx, payload.taskId, 'Not run: an earlier stage failed.', clock.now());
      const after = await repository.restate(tx, payload.taskId, clock.now());
      if (after) await this.deps.outbox.event(tx, taskChanged(after.task, 'failed', { ...session, status: 'FAILED' }));
      return after;
    });
    this.deps.outbox.kick();
    if (failed) await this.dropPreview(failed, { id: payload.sessionId });
    if (failed && failed.task.creditsCharged > 0) await this.deps.credits.refund(taskCreditRef(payload.taskId));
  }
}
