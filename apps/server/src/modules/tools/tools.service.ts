import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { CreateTaskBody, Task, ToolsOverview } from '@mixroom/contracts';
import type { TaskOutputKind, TaskPartialPreview, taskDownloads, taskPreviews, voiceList } from '@mixroom/contracts';
import {
  sessionTypesOf,
  taskName,
  TOOLS_CREDIT_COST,
  TOOLS_EXTENSIONS,
  TOOLS_MAX_SECONDS,
  TOOLS_MESSAGES,
  type SessionType,
} from '@mixroom/shared';
import { DomainError } from '../../platform/errors/domain-error';
import type { Actor } from '../../platform/identity/actor';
import { DEFAULT_EFFECT_PLUGINS } from '../../platform/processors/presets/effects-stage';
import { VOICE_CATALOGUE, voicePreset } from '../../platform/processors/presets/voice-presets';
import type { ToolsInputService } from './tools-input.service';
import { toolStageJob } from './tools-job-types';
import { taskChanged, toolsTaskPrefix, type ToolsDeps } from './tools.deps';
import { downloadableOf, outputFileName, outputsOf, presentTask } from './tools.presenter';
import type { TaskRecord } from './tools.repository';

type Downloads = z.infer<typeof taskDownloads>;
type Previews = z.infer<typeof taskPreviews>;
type Voices = z.infer<typeof voiceList>;

const busy = () => DomainError.conflict(TOOLS_MESSAGES.busy, 'TASKS_RUNNING');
const noCredits = () => new DomainError(402, 'NOT_ENOUGH_CREDITS', TOOLS_MESSAGES.noCredits);
const noTask = () => DomainError.notFound('No such task.');

function parametersOf(type: SessionType, body: CreateTaskBody): Record<string, unknown> {
  if (type === 'STEMSEPARATION') return { mode: body.tool === 'stems' ? body.mode : 'TWOSTEMS' };
  if (type === 'VC') return { model: body.tool === 'revoice' ? (body.voice ?? 'roberto') : null, pitch: 0 };
  return { plugins: DEFAULT_EFFECT_PLUGINS };
}

/**
 * The AI tools' rules: a task starts only when none of the user's tasks has a stage pending or
 * running and the user has the credits; its input is checked (extension, duration) before. Every
 * task is its owner's alone: another user's id answers as a missing task.
 */
export class ToolsService {
  constructor(
    private readonly deps: ToolsDeps,
    private readonly input: ToolsInputService,
  ) {}

  async overview(actor: Actor): Promise<ToolsOverview> {
    const remaining = await this.deps.credits.balance(actor.userId);
    return {
      credits: { needed: TOOLS_CREDIT_COST, remaining, canAfford: remaining >= TOOLS_CREDIT_COST },
      busy: await this.deps.repository.hasActive(actor.userId),
      maxSeconds: { ...TOOLS_MAX_SECONDS },
      extensions: [...TOOLS_EXTENSIONS],
      engines: { separator: this.deps.processors.separator.engine, voice: this.deps.processors.voice.engine },
    };
  }

  voices(): Voices {
    return {
      voices: VOICE_CATALOGUE.map((voice, i) => ({ ...voice, imageUrl: null, isDefault: i === 0 })),
    };
  }

  openUpload(actor: Actor, body: { fileName: string; size: number }) {
    return this.input.openUpload(actor, body.fileName, body.size);
  }

  /**
   * Starts a task. The quick refusals come first (a task running, too few credits), then the input
   * is fetched and measured, then one transaction under the user's lock checks again that nothing
   * runs, writes the task with every session PENDING and records its first stage in the outbox.
   * Credits are taken when the task completes (the spec's order), so two racing starts can neither
   * both run nor overspend.
   */
  async create(actor: Actor, body: CreateTaskBody): Promise<Task> {
    const { repository, clock, outbox } = this.deps;
    if (await repository.hasActive(actor.userId)) throw busy();
    if (!(await this.deps.credits.canAfford(actor.userId, TOOLS_CREDIT_COST))) throw noCredits();
    const accepted = await this.input.accept(actor, body.tool, body.input);
    let record: TaskRecord;
    try {
      record = await this.deps.unitOfWork(async (tx) => {
        await repository.lockUser(tx, actor.userId);
        if (await repository.hasActive(actor.userId, tx)) throw busy();
        const now = clock.now();
        const taskId = randomUUID();
        const choice = body.tool === 'revoice' ? voicePreset(body.voice ?? 'roberto').name : body.mode;
        const created = await repository.insertTask(
          tx,
          {
            id: taskId,
            userId: actor.userId,
            name: taskName(body.tool, choice, accepted.fileName),
            tool: body.tool,
            mode: body.tool === 'stems' ? body.mode : null,
            voice: body.tool === 'revoice' ? (body.voice ?? 'roberto') : null,
            inputSource: accepted.source,
            inputFileName: accepted.fileName,
            inputVersionId: accepted.versionId,
            inputKey: accepted.key,
            inputSeconds: accepted.seconds,
            createdAt: now,
            updatedAt: now,
          },
          sessionTypesOf(body.tool).map((type, position) => ({
            id: randomUUID(),
            taskId,
            position,
            type,
            parameters: parametersOf(type, body),
          })),
        );
        await outbox.job(tx, toolStageJob, { taskId, sessionId: created.sessions[0]!.id });
        await outbox.event(tx, taskChanged(created.task, 'created', null));
        return created;
      });
    } catch (error) {
      await accepted.discard();
      throw error;
    }
    // The upload is now the task's input: its row (what the uploads sweep looks for) goes.
    if ('uploadId' in body.input) await repository.deleteUpload(body.input.uploadId);
    outbox.kick();
    return presentTask(record);
  }

  private async owned(actor: Actor, taskId: string): Promise<TaskRecord> {
    const record = await this.deps.repository.find(taskId);
    if (!record || record.task.userId !== actor.userId) throw noTask();
    return record;
  }

  async list(actor: Actor, q: string | undefined): Promise<{ items: Task[] }> {
    return { items: (await this.deps.repository.listOf(actor.userId, q)).map(presentTask) };
  }

  async get(actor: Actor, taskId: string): Promise<Task> {
    return presentTask(await this.owned(actor, taskId));
  }

  /**
   * Deletes a task: flagged first (hidden at once; a running stage finds its session gone and
   * stops), then its files, then its rows. A store failure leaves it flagged, out of every list.
   */
  async remove(actor: Actor, taskId: string): Promise<void> {
    const { repository, clock } = this.deps;
    const record = await this.owned(actor, taskId);
    await this.deps.unitOfWork((tx) => repository.failOpenSessions(tx, taskId, 'Deleted.', clock.now()));
    await repository.flagDeleted(taskId, clock.now());
    try {
      await this.deps.blobs.deletePrefix(toolsTaskPrefix(actor.userId, taskId));
      await this.deps.blobs.delete(record.task.inputKey);
    } catch {
      throw new DomainError(500, 'DELETE_FAILED', TOOLS_MESSAGES.deleteFailed);
    }
    await repository.deleteTask(taskId);
    await this.deps.bus.publishOrLog(taskChanged(record.task, 'deleted', null));
  }

  private sign(key: string, options: { fileName?: string; contentType: string }): Promise<string> {
    return this.deps.blobs.signDownloadUrl(key, { expiresInSeconds: this.deps.signTtlSeconds, ...options });
  }

  /** "Download task data": the stems, or the Revoice song, each saved under the spec's name. */
  async downloads(actor: Actor, taskId: string): Promise<Downloads> {
    const record = await this.owned(actor, taskId);
    if (record.task.status !== 'COMPLETED')
      throw DomainError.conflict(TOOLS_MESSAGES.downloadFailed, 'TASK_NOT_COMPLETED');
    const files = [];
    for (const output of downloadableOf(record)) {
      const fileName = outputFileName(record.task, output.kind);
      files.push({
        kind: output.kind,
        fileName,
        size: output.size,
        url: await this.sign(output.key, { fileName, contentType: 'audio/mp4' }),
      });
    }
    return { files };
  }

  /** Every output so far with a playable URL and its peaks, so the web can draw and play each. */
  async previews(actor: Actor, taskId: string): Promise<Previews> {
    const record = await this.owned(actor, taskId);
    const items = [];
    for (const output of outputsOf(record)) {
      items.push({
        kind: output.kind,
        fileName: outputFileName(record.task, output.kind),
        engine: output.engine,
        durationSeconds: output.durationSeconds,
        audioUrl: await this.sign(output.key, { contentType: 'audio/mp4' }),
        peaksUrl: output.peaksKey ? await this.sign(output.peaksKey, { contentType: 'application/json' }) : null,
      });
    }
    return { items };
  }

  /**
   * The finished start of the task's running separation, each stem behind a signed URL like its
   * downloads; empty when no stage of the task has a preview (not started, or ended: its outputs
   * are then in `previews`).
   */
  async partialPreview(actor: Actor, taskId: string): Promise<TaskPartialPreview> {
    const record = await this.owned(actor, taskId);
    const session = record.sessions.find((s) => s.status === 'RUNNING' && s.preview);
    if (!session?.preview) return { sessionId: null, seconds: 0, items: [] };
    const items = [];
    for (const [kind, key] of Object.entries(session.preview.keys)) {
      const fileName = outputFileName(record.task, kind as TaskOutputKind).replace(/\.m4a$/, '_preview.flac');
      items.push({
        kind: kind as TaskOutputKind,
        fileName,
        audioUrl: await this.sign(key, { contentType: 'audio/flac' }),
      });
    }
    return { sessionId: session.id, seconds: session.preview.seconds, items };
  }

  /** The record behind a task the actor owns (saving back to the library). */
  ownedRecord(actor: Actor, taskId: string): Promise<TaskRecord> {
    return this.owned(actor, taskId);
  }
}
