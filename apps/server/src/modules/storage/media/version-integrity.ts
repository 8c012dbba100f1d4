import { formatClock, type DeclaredLength } from '../../../platform/media/audio-integrity';

/**
 * What users read about a file that failed or plays damaged. Never the decoder's own output: it
 * names server paths and internals, which go to the log instead.
 */
export const MEDIA_MESSAGES = {
  unreadable: 'This file could not be read as audio.',
  noAudio: 'This file contains no audio.',
  damaged: 'Parts of this file could not be decoded: it may be damaged, and playback may skip there.',
  truncated: (present: number, declared: number) =>
    `This file is shorter than its header says (${shorter(present, declared)} of ${formatClock(declared)}): it may have been cut off during upload.`,
} as const;

/** The length present, never rounded up to the declared one: 19.6 of 20 s reads 0:19 of 0:20. */
function shorter(present: number, declared: number): string {
  return formatClock(formatClock(present) === formatClock(declared) ? Math.floor(present) - 0.5 : present);
}

export type IntegrityVerdict =
  | { kind: 'corrupt'; error: string }
  | { kind: 'ready'; warning: string | null; /** the length that really plays */ durationSeconds: number };

/**
 * Judges a processed file: nothing decodable is corrupt; a file holding less than its header
 * declares (cut off in transit) or with decoder errors plays, with a warning. The slack absorbs
 * encoder delay and padding counted in MP3 headers, not a missing second.
 */
export function judgeIntegrity(input: {
  declared: DeclaredLength | null;
  decodedSeconds: number;
  probedSeconds: number;
  problems: string[];
}): IntegrityVerdict {
  const { declared, decodedSeconds, probedSeconds, problems } = input;
  if (!(decodedSeconds > 0)) return { kind: 'corrupt', error: MEDIA_MESSAGES.unreadable };
  if (declared) {
    const present = Math.min(decodedSeconds, declared.presentSeconds ?? Infinity);
    const slack = 0.1 + declared.declaredSeconds * 0.001;
    if (declared.declaredSeconds - present > slack) {
      return {
        kind: 'ready',
        warning: MEDIA_MESSAGES.truncated(present, declared.declaredSeconds),
        durationSeconds: present,
      };
    }
  }
  // A decode that came up short of what the container announced is cut off too, header or not.
  if (problems.length > 0 && probedSeconds - decodedSeconds > 0.1 + probedSeconds * 0.001) {
    return {
      kind: 'ready',
      warning: MEDIA_MESSAGES.truncated(decodedSeconds, probedSeconds),
      durationSeconds: decodedSeconds,
    };
  }
  if (problems.length > 0) return { kind: 'ready', warning: MEDIA_MESSAGES.damaged, durationSeconds: probedSeconds };
  return { kind: 'ready', warning: null, durationSeconds: probedSeconds };
}
