import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { WavFloatReader } from '../../platform/processors/audio/wav-float-file';
import type { PartialStems } from '../../platform/processors/processor';
import { encodeFlacPrefix, type FloatWavLayout } from './tools-media';
import { taskChanged, toolsOutputKey, type ToolsDeps } from './tools.deps';
import type { SessionRow, TaskRecord } from './tools.repository';

/** The preview stops growing here (s): enough to judge a separation, and its uploads stay bounded. */
export const PREVIEW_MAX_SECONDS = 300;
/** A refresh adds at least this much (s), so short chunks do not mean an upload per chunk. */
export const PREVIEW_MIN_STEP_SECONDS = 5;

/**
 * Whether a preview of `ready` finished frames is due when `previewed` are in the last one: the
 * first finished chunk at once, then each time the finished part has doubled (and grown by the
 * minimum step), up to the cap. Doubling keeps the frames encoded and uploaded over a whole run
 * under twice the cap, whatever the file's length.
 */
export function previewDue(previewed: number, ready: number, sampleRate: number): boolean {
  const cap = PREVIEW_MAX_SECONDS * sampleRate;
  if (ready <= previewed || previewed >= cap) return false;
  if (previewed === 0) return true;
  return ready >= Math.min(cap, Math.max(2 * previewed, previewed + PREVIEW_MIN_STEP_SECONDS * sampleRate));
}

/** The blob folder of a session's previews (removed when the session ends). */
export const previewPrefix = (record: TaskRecord, session: Pick<SessionRow, 'id'>) =>
  toolsOutputKey(record.task.userId, record.task.id, session.id, 'preview/');

async function layoutOf(path: string): Promise<FloatWavLayout> {
  const reader = await WavFloatReader.open(path);
  await reader.close();
  return { path, dataOffset: reader.dataOffset, channels: reader.channels, sampleRate: reader.sampleRate };
}

/**
 * The preview of a running separation: as its processor reports its stems' finished start, the
 * due ones are encoded losslessly (FLAC), stored under the session's `preview/` folder with the
 * frame count in the name (a new preview is a new file, never a changed one, for caches), the
 * session's `preview` column is set and the owner told over realtime. The files of the preview
 * before stay until the next refresh, so a player still reading them is not cut off; all of them go
 * when the session ends. Best effort: a preview that fails is logged and the separation goes on.
 */
export class StagePreview {
  private previewed = 0;
  /** The files of the last preview and of the one before it. */
  private generations: string[][] = [];

  constructor(
    private readonly deps: ToolsDeps,
    private readonly record: TaskRecord,
    private readonly session: SessionRow,
    private readonly dir: string,
    private readonly signal: AbortSignal,
    private readonly log: Logger,
  ) {}

  readonly offer = async (partial: PartialStems): Promise<void> => {
    // The whole input done: the outputs follow at once, a preview would only delay them.
    if (partial.frames >= partial.total || !previewDue(this.previewed, partial.frames, partial.sampleRate)) return;
    try {
      await this.publish(Math.min(partial.frames, PREVIEW_MAX_SECONDS * partial.sampleRate), partial);
    } catch (error) {
      if (this.signal.aborted) return;
      this.log.warn({ err: error, sessionId: this.session.id }, 'the preview of a running separation failed');
    }
  };

  private async publish(frames: number, partial: PartialStems): Promise<void> {
    const { deps, record, session } = this;
    const keys: Record<string, string> = {};
    for (const [kind, path] of Object.entries(partial.stems)) {
      const file = join(this.dir, `preview-${kind}.flac`);
      await encodeFlacPrefix(deps.mediaTools, await layoutOf(path), frames, file, this.signal);
      keys[kind] = `${previewPrefix(record, session)}${kind}-${frames}.flac`;
      await deps.blobs.put(keys[kind], createReadStream(file), 'audio/flac');
      await rm(file, { force: true });
    }
    this.previewed = frames;
    this.generations.push(Object.values(keys));
    const updated = await deps.repository.setPreview(session.id, { seconds: frames / partial.sampleRate, keys });
    // The session stopped running meanwhile: its progress aborts the processor; nothing to tell.
    if (!updated) return;
    await deps.bus.publishOrLog(taskChanged({ ...record.task, status: 'RUNNING' }, 'progress', updated));
    const stale = this.generations.length > 2 ? this.generations.shift()! : [];
    await Promise.all(stale.map((key) => deps.blobs.delete(key)));
  }
}
