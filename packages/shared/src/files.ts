// File kinds and extensions: what counts as audio, and the kinds the storage filter offers.

export const AUDIO_EXTENSIONS = ['wav', 'flac', 'mp3', 'aac', 'aiff', 'aif', 'm4a'] as const;

const KINDS = {
  audio: ['wav', 'flac', 'mp3', 'aac', 'aiff', 'aif', 'm4a', 'ogg', 'opus', 'wma'],
  video: ['mp4', 'mov', 'mkv', 'webm', 'avi', 'm4v'],
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'tif', 'tiff'],
  pdf: ['pdf'],
  archive: ['zip', 'rar', '7z', 'tar', 'gz', 'tgz'],
} as const;

export type FileKind = keyof typeof KINDS | 'other';
export const FILE_KIND_FILTERS = ['all', 'audio', 'video', 'image', 'pdf', 'archive', 'other'] as const;
export type FileKindFilter = (typeof FILE_KIND_FILTERS)[number];

/** Lower-case extension without the dot; '' when the name has none. */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The name without its extension, as the default version name (cut to 50 by the caller). */
export function baseName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export function fileKind(extension: string | null): FileKind {
  if (!extension) return 'other';
  for (const [kind, list] of Object.entries(KINDS))
    if ((list as readonly string[]).includes(extension)) return kind as FileKind;
  return 'other';
}

export const isAudioExtension = (extension: string) => (AUDIO_EXTENSIONS as readonly string[]).includes(extension);

/** Extensions a new version may have: audio by default, only the last version's once one exists. */
export function allowedVersionExtensions(lastExtension: string | null): string[] {
  return lastExtension ? [lastExtension] : [...AUDIO_EXTENSIONS];
}

/** The extensions of a kind, for filtering in SQL; 'other' is everything none of them lists. */
export function extensionsOfKind(kind: Exclude<FileKind, 'other'>): readonly string[] {
  return KINDS[kind];
}
export const ALL_KNOWN_EXTENSIONS: readonly string[] = Object.values(KINDS).flat();
