import type { Task, TaskOutput } from '@mixroom/contracts';
import { isToolsExtension, TOOLS_EXTENSIONS, TOOLS_MESSAGES } from '@mixroom/shared';

export type { Task, TaskOutput };

/** The label shown beside an output, so nobody takes a preset for a model or a remote engine for a local one. */
export function engineLabel(engine: TaskOutput['engine']): string {
  const prefixed = (prefix: string) =>
    engine.label.toLowerCase().startsWith(prefix.trim().replace(/:$/, '').toLowerCase())
      ? engine.label
      : `${prefix}${engine.label}`;
  switch (engine.kind) {
    case 'signal-processing':
      return 'built-in (signal processing)';
    case 'voice-preset':
      return prefixed('voice preset ');
    case 'onnx-model':
      return prefixed('model: ');
    case 'remote':
      return prefixed('remote: ');
  }
}

/** What an output is, in the history's words. */
export const OUTPUT_LABELS: Record<TaskOutput['kind'], string> = {
  vocals: 'Vocals',
  no_vocals: 'Music (no vocals)',
  drums: 'Drums',
  other: 'Other',
  bass: 'Bass',
  voice: 'Converted voice',
  effected: 'Voice with effects',
  mix: 'Mix',
};

/** The refusal of a picked file, or null when the tools take it. */
export function extensionProblem(fileName: string): string | null {
  return isToolsExtension(fileName) ? null : TOOLS_MESSAGES.extension(TOOLS_EXTENSIONS.join(' '));
}

/** The progress of a task, 0–100: the running stage's share of all stages. Null before any stage starts. */
export function taskProgress(task: Pick<Task, 'sessions' | 'status'>): number | null {
  if (task.status === 'COMPLETED') return 100;
  const n = task.sessions.length;
  if (n === 0) return null;
  let total = 0;
  let started = false;
  for (const s of task.sessions) {
    if (s.status === 'COMPLETED') {
      total += 100;
      started = true;
    } else if (s.progress >= 0) {
      total += Math.min(100, s.progress);
      started = true;
    }
  }
  return started ? Math.round(total / n) : null;
}

/** The first failed stage's message, shown in the spec's words. */
export function failureText(task: Pick<Task, 'sessions' | 'status'>): string | null {
  if (task.status !== 'FAILED') return null;
  const failed = task.sessions.find((s) => s.status === 'FAILED');
  return TOOLS_MESSAGES.failed(failed?.message ?? 'unknown error');
}

/** "1:05" for a duration in seconds; "—" when unknown. */
export function figure(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const total = Math.round(seconds);
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, '0');
  return `${m}:${s}`;
}

/** Reads the duration of a local file through the browser's decoder; null when it cannot tell. */
export async function localDuration(file: File): Promise<number | null> {
  const url = URL.createObjectURL(file);
  try {
    return await new Promise<number | null>((resolve) => {
      const audio = new Audio();
      const done = (value: number | null) => {
        audio.removeAttribute('src');
        resolve(value);
      };
      audio.preload = 'metadata';
      audio.onloadedmetadata = () => done(Number.isFinite(audio.duration) ? audio.duration : null);
      audio.onerror = () => done(null);
      setTimeout(() => done(null), 10_000);
      audio.src = url;
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}
