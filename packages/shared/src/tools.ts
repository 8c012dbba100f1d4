/** The AI tools' constants and pure rules, shared by the server (which enforces them) and the web. */

/** What one task costs, whichever tool runs it. */
export const TOOLS_CREDIT_COST = 5;

/** The longest input each tool takes, seconds; an input whose duration cannot be read counts as too long. */
export const TOOLS_MAX_SECONDS = { revoice: 600, stems: 1800 } as const;

/** The extensions the upload area and the link tab accept, in the order the refusal names them. */
export const TOOLS_EXTENSIONS = ['.mp3', '.wav', '.ogg', '.flac', '.aac', '.m4a', '.opus'] as const;

export const TOOL_KINDS = ['revoice', 'stems'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

export const TASK_TYPES = ['REVOICE', 'STEMSEPARATION'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const SESSION_TYPES = ['STEMSEPARATION', 'VC', 'VST'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

export const STEM_MODES = ['TWOSTEMS', 'EVERYTHING'] as const;
export type StemMode = (typeof STEM_MODES)[number];

/** The radio buttons of the Stem Separation screen. */
export const STEM_MODE_LABELS: Record<StemMode, string> = {
  TWOSTEMS: 'Voice + Music',
  EVERYTHING: 'Voice + Music + Drums + Bass + Other',
};

/** The status badge colours of the task history. */
export const TASK_STATUS_COLORS: Record<TaskStatus, string> = {
  PENDING: 'blue',
  RUNNING: 'orange',
  COMPLETED: 'green',
  FAILED: 'red',
};

/** What users read about the AI tools, word for word (the server answers with the same texts). */
export const TOOLS_MESSAGES = {
  busyTitle: 'Processing tasks',
  busy: 'You have tasks currently being processed. Please wait until they finish before starting new ones.',
  noCreditsTitle: 'Not enough credits',
  noCredits: 'You need at least 5 credits to create a Revoice task. Show subscriptions?',
  tooLongTitle: 'Error',
  tooLong: (tool: ToolKind) =>
    `The audio file is too long. Please use a file shorter than ${TOOLS_MAX_SECONDS[tool] / 60} minutes.`,
  extensionTitle: 'Warning',
  extension: (extensions: string = TOOLS_EXTENSIONS.join(' ')) =>
    `File extension is not supported for this version, please use ${extensions}`,
  urlRequired: 'Url required',
  urlInvalid: 'Url Pattern Invalid',
  linkFailed: 'An error occurred downloading the file from the link provided.',
  deleted: 'Task deleted successfully',
  deleteFailed: 'Failed to delete task',
  downloadFailed: 'Failed to download task data',
  failedTitle: 'Error',
  failed: (message: string) => `An error occurred while processing the task: ${message}`,
  credits: (remaining: number) => `Credits: ${TOOLS_CREDIT_COST} needed out of ${remaining} remaining`,
} as const;

/** Where "Show subscriptions?" leads. */
export const TOOLS_SUBSCRIPTIONS_ROUTE = '/settings';

/** The task's name: 'Revoice Task - {voice} - {file}' or 'Stemseparation Task - {mode} - {file}'. */
export function taskName(tool: ToolKind, choice: string, fileName: string): string {
  return tool === 'revoice'
    ? `Revoice Task - ${choice} - ${fileName}`
    : `Stemseparation Task - ${choice} - ${fileName}`;
}

/** The task type is the first word of its name in upper case. */
export function taskTypeOf(name: string): TaskType {
  const first = (name.trim().split(/\s+/)[0] ?? '').toUpperCase();
  return first === 'REVOICE' ? 'REVOICE' : 'STEMSEPARATION';
}

/** PENDING without sessions; RUNNING when any session runs; otherwise the status of the last session. */
export function taskStatusOf(sessions: readonly { status: TaskStatus }[]): TaskStatus {
  if (sessions.length === 0) return 'PENDING';
  if (sessions.some((s) => s.status === 'RUNNING')) return 'RUNNING';
  return sessions[sessions.length - 1]!.status;
}

/** The sessions a tool chains, in order: Revoice separates two stems, converts the voice, then the effects stage. */
export function sessionTypesOf(tool: ToolKind): SessionType[] {
  return tool === 'revoice' ? ['STEMSEPARATION', 'VC', 'VST'] : ['STEMSEPARATION'];
}

export const STEM_OUTPUTS = ['vocals', 'no_vocals', 'drums', 'other', 'bass'] as const;
export type StemOutput = (typeof STEM_OUTPUTS)[number];

/** The stems a mode yields: two, or the two plus drums, other and bass. */
export function stemOutputsOf(mode: StemMode): StemOutput[] {
  return mode === 'TWOSTEMS' ? ['vocals', 'no_vocals'] : ['vocals', 'no_vocals', 'drums', 'other', 'bass'];
}

/** A stem's download name: '{name}_vocals.m4a', '{name}_no_vocals.m4a', '{name}_drums.m4a' … */
export function stemFileName(name: string, stem: StemOutput): string {
  return `${name}_${stem}.m4a`;
}

/** A Revoice task's download: the accompaniment mixed with the effected voice, '{task name}.m4a'. */
export function revoiceFileName(name: string): string {
  return `${name}.m4a`;
}

/** Whether a file name carries an extension the tools accept. */
export function isToolsExtension(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return false;
  return (TOOLS_EXTENSIONS as readonly string[]).includes(fileName.slice(dot).toLowerCase());
}

/** What the link tab takes: an http(s) URL (the server also refuses private and local addresses). */
export const TOOLS_URL_PATTERN = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
