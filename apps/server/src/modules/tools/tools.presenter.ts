import type { Task, TaskOutput, TaskOutputKind, TaskSession, VoiceId } from '@mixroom/contracts';
import { revoiceFileName, stemFileName, taskTypeOf } from '@mixroom/shared';
import type { ToolOutputJson } from '../../db/schema';
import type { SessionRow, TaskRecord, TaskRow } from './tools.repository';

/** An output as stored, with the session that made it. */
export interface StoredOutput extends ToolOutputJson {
  kind: TaskOutputKind;
  sessionId: string;
}

const baseName = (fileName: string) => fileName.replace(/\.[^./]+$/, '') || fileName;

/**
 * The name an output downloads under: stems '{name}_vocals.m4a' (… _no_vocals, _drums, _other,
 * _bass) with {name} the input file's name without its extension; the Revoice result is
 * '{task name}.m4a'; the Revoice intermediates follow the stems' pattern.
 */
export function outputFileName(task: TaskRow, kind: TaskOutputKind): string {
  if (kind === 'mix') return revoiceFileName(task.name);
  const name = baseName(task.inputFileName);
  return kind === 'voice' || kind === 'effected' ? `${name}_${kind}.m4a` : stemFileName(name, kind);
}

/** Every stored output of the task, in stage order. */
export function outputsOf(record: TaskRecord): StoredOutput[] {
  return record.sessions.flatMap((session) =>
    Object.entries(session.outputs).map(([kind, output]) => ({
      ...output,
      kind: kind as TaskOutputKind,
      sessionId: session.id,
    })),
  );
}

/** What "download task data" hands out: the stems, or for Revoice the one mixed song. */
export function downloadableOf(record: TaskRecord): StoredOutput[] {
  const all = outputsOf(record);
  return record.task.tool === 'revoice' ? all.filter((o) => o.kind === 'mix') : all;
}

function presentSession(session: SessionRow): TaskSession {
  return {
    id: session.id,
    type: session.type,
    status: session.status,
    progress: session.progress,
    message: session.message,
    parameters: session.parameters,
    engine: session.engine,
    preview:
      session.status === 'RUNNING' && session.preview
        ? { seconds: session.preview.seconds, kinds: Object.keys(session.preview.keys) as TaskOutputKind[] }
        : null,
    startedAt: session.startedAt?.toISOString() ?? null,
    finishedAt: session.finishedAt?.toISOString() ?? null,
  };
}

export function presentTask(record: TaskRecord): Task {
  const { task } = record;
  const completed = task.status === 'COMPLETED';
  const outputs: TaskOutput[] = outputsOf(record).map((o) => ({
    kind: o.kind,
    sessionId: o.sessionId,
    fileName: outputFileName(task, o.kind),
    size: o.size,
    durationSeconds: o.durationSeconds,
    engine: o.engine,
  }));
  return {
    id: task.id,
    name: task.name,
    type: taskTypeOf(task.name),
    tool: task.tool,
    status: task.status,
    creationDate: task.createdAt.toISOString(),
    lastUpdate: task.updatedAt.toISOString(),
    mode: task.mode,
    voice: (task.voice as VoiceId | null) ?? null,
    input: { source: task.inputSource, fileName: task.inputFileName, versionId: task.inputVersionId },
    figures: {
      inputDurationSeconds: task.inputSeconds,
      processingSeconds:
        task.startedAt && task.finishedAt ? (task.finishedAt.getTime() - task.startedAt.getTime()) / 1000 : null,
    },
    creditsCharged: task.creditsCharged,
    sessions: record.sessions.map(presentSession),
    outputs,
    capabilities: {
      canDelete: true,
      canDownload: completed,
      canSaveToLibrary: completed && task.inputVersionId !== null,
    },
  };
}
