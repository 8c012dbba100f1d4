// One rule for every name a user gives (folders, projects, versions, files, display names) and for
// free text, checked by the shared schemas on both sides and so by the server on every request.

/** C0/C1 control characters, NUL included: they break paths, logs and archives. */
const CONTROL = /\p{Cc}/u;
/**
 * Text-direction controls (embeddings, overrides, isolates, marks): inside a name they reorder what
 * follows, so "vaw.exe" can read as "exe.wav" and a notification can read backwards.
 */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Control characters of free text: every one but tab, line feed and carriage return. */
const isTextControl = (code: number) =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);

export const NAME_MESSAGES = {
  control: 'Names cannot contain control characters.',
  direction: 'Names cannot contain text-direction characters.',
  separator: 'Names cannot contain / or \\.',
  dots: 'A name cannot be made of dots only.',
  text: 'The text contains characters that are not allowed.',
} as const;

/**
 * Why a name is refused, or null when it is fine. Item names are metadata, so "AC/DC" is a fine
 * folder name (archives and paths are built from ids or cleaned copies); a dot-only name would
 * still read as "here" or "up" in an unzipped tree.
 */
export function nameProblem(name: string): string | null {
  if (CONTROL.test(name)) return NAME_MESSAGES.control;
  if (BIDI.test(name)) return NAME_MESSAGES.direction;
  if (/^\.+$/.test(name.trim())) return NAME_MESSAGES.dots;
  return null;
}

/** A file name is one path segment: the name rule, and no separators. */
export function fileNameProblem(name: string): string | null {
  return nameProblem(name) ?? (/[/\\]/.test(name) ? NAME_MESSAGES.separator : null);
}

/** Why free text (a comment, a note) is refused: control characters other than tabs and line breaks. */
export function textProblem(text: string): string | null {
  for (let i = 0; i < text.length; i++) if (isTextControl(text.charCodeAt(i))) return NAME_MESSAGES.text;
  return null;
}

/** An extension safe inside a storage key: short, lower-case letters and digits; else 'bin'. */
export function storedExtension(extension: string): string {
  return /^[a-z0-9]{1,12}$/.test(extension) ? extension : 'bin';
}
