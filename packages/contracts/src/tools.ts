import {
  SESSION_TYPES,
  STEM_MODES,
  STEM_OUTPUTS,
  TASK_STATUSES,
  TASK_TYPES,
  TOOLS_MESSAGES,
  TOOLS_URL_PATTERN,
} from '@mixroom/shared';
import { z } from 'zod';
import { isoDate, safeFileName } from './common';

export const taskStatus = z.enum(TASK_STATUSES);
export const taskType = z.enum(TASK_TYPES);
export const sessionType = z.enum(SESSION_TYPES);
export const stemMode = z.enum(STEM_MODES);
/** The six voices, in the screen's order (Roberto, the default, first). */
export const voiceId = z.enum(['roberto', 'susy', 'nausicaa', 'chris', 'ponyo', 'lilly']);
export type VoiceId = z.infer<typeof voiceId>;

/** What produced an output, shown beside it so nobody mistakes a preset for a model. */
export const processorEngine = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['signal-processing', 'voice-preset', 'onnx-model', 'remote']),
});
export type ProcessorEngineInfo = z.infer<typeof processorEngine>;

/** A result of a task: a stem, the converted voice, or the Revoice mix. */
export const taskOutputKind = z.enum([...STEM_OUTPUTS, 'voice', 'effected', 'mix']);
export type TaskOutputKind = z.infer<typeof taskOutputKind>;

/** One stage of a task; `progress` is -1 until the stage starts, then 0..100. */
export const taskSession = z.object({
  id: z.uuid(),
  type: sessionType,
  status: taskStatus,
  progress: z.number(),
  message: z.string().nullable(),
  /** The spec's parameters of the stage (mode; model and pitch; plugins), without storage addresses. */
  parameters: z.record(z.string(), z.unknown()),
  /** The engine that ran this stage; null before it ran. */
  engine: processorEngine.nullable(),
  /**
   * While a separation runs: the seconds of its stems already finished and playable (through the
   * task's partial-preview endpoint), and which outputs; null otherwise.
   */
  preview: z.object({ seconds: z.number(), kinds: z.array(taskOutputKind) }).nullable(),
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
});
export type TaskSession = z.infer<typeof taskSession>;

export const taskOutput = z.object({
  kind: taskOutputKind,
  sessionId: z.uuid(),
  /** The name it downloads under (the spec's names). */
  fileName: z.string(),
  size: z.number(),
  durationSeconds: z.number().nullable(),
  engine: processorEngine,
});
export type TaskOutput = z.infer<typeof taskOutput>;

export const taskInputSource = z.enum(['upload', 'version', 'link', 'connector']);

export const task = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** The first word of the name in upper case. */
    type: taskType,
    tool: z.enum(['revoice', 'stems']),
    /** PENDING without sessions; RUNNING when any runs; otherwise the last session's status. */
    status: taskStatus,
    creationDate: isoDate,
    lastUpdate: isoDate,
    mode: stemMode.nullable(),
    voice: voiceId.nullable(),
    input: z.object({
      source: taskInputSource,
      fileName: z.string(),
      /** The library version it came from, when it did (results may be saved back beside it). */
      versionId: z.uuid().nullable(),
    }),
    figures: z.object({
      inputDurationSeconds: z.number(),
      /** From the first stage's start to the last one's end; null until the task ends. */
      processingSeconds: z.number().nullable(),
    }),
    /** Credits charged for it (5 once completed, 0 otherwise). */
    creditsCharged: z.number().int(),
    sessions: z.array(taskSession),
    /** The outputs ready so far (all of them once COMPLETED). */
    outputs: z.array(taskOutput),
    capabilities: z.object({ canDelete: z.boolean(), canDownload: z.boolean(), canSaveToLibrary: z.boolean() }),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof task>;

/**
 * Where a task's audio comes from: a finished tools upload, a library version, a public link, or a
 * file in one of the user's linked storage accounts (copied by the server).
 */
export const taskInput = z.union([
  z.object({ uploadId: z.uuid() }),
  z.object({ versionId: z.uuid() }),
  z.object({
    url: z
      .string()
      .trim()
      .min(1, { message: TOOLS_MESSAGES.urlRequired })
      .max(2000, { message: TOOLS_MESSAGES.urlInvalid })
      .regex(TOOLS_URL_PATTERN, { message: TOOLS_MESSAGES.urlInvalid }),
  }),
  z.object({ connectorId: z.uuid(), path: z.string().trim().min(1).max(2000) }),
]);
export type TaskInput = z.input<typeof taskInput>;

export const createTaskBody = z.discriminatedUnion('tool', [
  z.object({ tool: z.literal('stems'), mode: stemMode, input: taskInput }),
  z.object({ tool: z.literal('revoice'), voice: voiceId.default('roberto'), input: taskInput }),
]);
export type CreateTaskBody = z.input<typeof createTaskBody>;

export const taskListQuery = z.object({ q: z.string().trim().max(100).optional() });
export const taskList = z.object({ items: z.array(task) });

/** A tools upload: the file goes through the uploads endpoints (parts), then its id goes into `input`. */
export const toolsUploadBody = z.object({
  fileName: safeFileName(z.string().trim().min(1).max(255)),
  size: z.number().int().min(1, { message: 'The file is empty.' }),
});
export const toolsUploadTicket = z.object({
  upload: z.object({ id: z.uuid(), size: z.number(), partSize: z.number(), partCount: z.number() }),
});

/** One file of "download task data": a signed URL that saves under the spec's name. */
export const taskDownload = z.object({ kind: taskOutputKind, fileName: z.string(), url: z.string(), size: z.number() });
export const taskDownloads = z.object({ files: z.array(taskDownload) });

/** Each output with what the player needs: a playable URL and its waveform peaks (the storage peaks format). */
export const taskPreview = z.object({
  kind: taskOutputKind,
  fileName: z.string(),
  engine: processorEngine,
  durationSeconds: z.number().nullable(),
  audioUrl: z.string(),
  /** A signed URL to a JSON document of the `PeaksFile` shape; null if peaks could not be drawn. */
  peaksUrl: z.string().nullable(),
});
export const taskPreviews = z.object({ items: z.array(taskPreview) });

/**
 * The finished start of a running separation: each output's first `seconds` as a lossless file
 * (FLAC) behind a signed URL. Empty (`sessionId` null) when no stage of the task has one.
 */
export const taskPartialPreview = z.object({
  sessionId: z.uuid().nullable(),
  seconds: z.number(),
  items: z.array(z.object({ kind: taskOutputKind, fileName: z.string(), audioUrl: z.string() })),
});
export type TaskPartialPreview = z.infer<typeof taskPartialPreview>;

export const voiceOption = z.object({
  id: voiceId,
  name: z.string(),
  description: z.string(),
  /** No artwork ships with Mixroom; the web draws an initial when null. */
  imageUrl: z.string().nullable(),
  isDefault: z.boolean(),
});
export const voiceList = z.object({ voices: z.array(voiceOption) });

/** What the tools screens show before a task: the credits line, whether a task runs, the limits. */
export const toolsOverview = z.object({
  credits: z.object({ needed: z.number().int(), remaining: z.number().int(), canAfford: z.boolean() }),
  /** Whether a task of the user's is PENDING or RUNNING (a new one is refused until it ends). */
  busy: z.boolean(),
  maxSeconds: z.object({ revoice: z.number(), stems: z.number() }),
  extensions: z.array(z.string()),
  /** The engines this server runs, shown beside the Process button. */
  engines: z.object({ separator: processorEngine, voice: processorEngine }),
});
export type ToolsOverview = z.infer<typeof toolsOverview>;

/** Saves outputs back to the library: as attachments of the input version, or as new projects beside it. */
export const saveTaskBody = z.object({
  as: z.enum(['attachments', 'projects']),
  /** Which outputs; all of them when left out. */
  outputs: z.array(taskOutputKind).min(1).optional(),
});
export const savedTask = z.object({ attachmentIds: z.array(z.uuid()), projectIds: z.array(z.uuid()) });

/** The admin queue. */
export const adminTaskQuery = z.object({
  status: z.enum(['active', 'failed', 'all']).default('active'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const adminTask = z.object({
  id: z.uuid(),
  name: z.string(),
  status: taskStatus,
  userId: z.string(),
  userEmail: z.string().nullable(),
  creationDate: isoDate,
  lastUpdate: isoDate,
  sessions: z.array(taskSession),
});
export const adminTaskList = z.object({ items: z.array(adminTask) });
