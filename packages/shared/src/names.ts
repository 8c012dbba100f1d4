// One rule for every name a user gives (folders, projects, versions, files, display names) and for
// free text, checked by the shared schemas on both sides and so by the server on every request.

/** C0/C1 control characters, NUL included: they break paths, logs and archives. */
const CONTROL = /\p{Cc}/u;
/**
 * Text-direction controls (embeddings, overrides, isolates, marks): inside a name they reorder what
 * follows, so "vaw.exe" can read as "exe.wav" and a notification can read backwards.
 */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/**
 * Characters that draw nothing (zero-width spaces, fillers such as U+3164, invisible operators,
 * tags, the byte-order mark): a name holding them looks exactly like another one. Unicode lists
 * them as default-ignorable; the few that belong to what people write are let through below.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
/**
 * Invisible characters inside visible sequences, removed before the check above: a subdivision
 * flag's tags, a variation selector after a non-ASCII character (emoji, CJK) or before a keycap, a
 * zero-width joiner between emoji, and the joiners of scripts that need them (Persian, Indic), only
 * between two letters of such a script so "ad\u200Cmin" stays refused.
 */
const VISIBLE_SEQUENCES = [
  /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}/gu,
  /(?<=[^\p{ASCII}\p{Default_Ignorable_Code_Point}\s])[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu,
  /[\uFE0E\uFE0F](?=\u20E3)/gu,
  /(?<=[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}])\u200D(?=\p{Extended_Pictographic})/gu,
  /(?<=[\p{L}\p{M}](?<![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}]))[\u200C\u200D](?=[\p{L}\p{M}])/gu,
];
/** Half of a surrogate pair on its own is no character: stored, it would silently become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** Dots, spaces and blank braille cells only, with at least one of the first or last: reads as "here" or "up". */
const DOTS_AND_SPACES = /^(?=.*[.\u2800])[.\s\u2800]+$/u;
/** Control characters of free text: every one but tab, line feed and carriage return. */
const isTextControl = (code: number) =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);
/** Control characters of a one-line value (a query, a path segment, an id): every one. */
const isLineControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);

export const NAME_MESSAGES = {
  control: 'Names cannot contain control characters.',
  direction: 'Names cannot contain text-direction characters.',
  invisible: 'Names cannot contain invisible characters.',
  separator: 'Names cannot contain / or \\.',
  dots: 'A name cannot be made of dots and spaces only.',
  text: 'The text contains characters that are not allowed.',
} as const;

/** Whether the text holds an invisible character outside the visible sequences that need one. */
function hasInvisible(text: string): boolean {
  if (!INVISIBLE.test(text)) return false;
  return INVISIBLE.test(VISIBLE_SEQUENCES.reduce((rest, sequence) => rest.replace(sequence, ''), text));
}

/**
 * Why a name is refused, or null when it is fine. Item names are metadata, so "AC/DC" is a fine
 * folder name (archives and paths are built from ids or cleaned copies); a name of dots and spaces
 * would still read as "here" or "up" in an unzipped tree, and an invisible or direction character
 * lets one name pass for another.
 */
export function nameProblem(name: string): string | null {
  if (CONTROL.test(name)) return NAME_MESSAGES.control;
  if (LONE_SURROGATE.test(name)) return NAME_MESSAGES.text;
  if (BIDI.test(name)) return NAME_MESSAGES.direction;
  if (hasInvisible(name)) return NAME_MESSAGES.invisible;
  if (DOTS_AND_SPACES.test(name)) return NAME_MESSAGES.dots;
  return null;
}

/** A file name is one path segment: the name rule, and no separators. */
export function fileNameProblem(name: string): string | null {
  return nameProblem(name) ?? (/[/\\]/.test(name) ? NAME_MESSAGES.separator : null);
}

/**
 * Why a value of a request is refused wherever it comes from (query, path, body): a control
 * character (free text keeps tabs and line breaks) or half a surrogate pair. Checked for every
 * string of every request, before any schema, so no endpoint can forget it.
 */
export function inputProblem(value: string, multiline: boolean): string | null {
  const isControl = multiline ? isTextControl : isLineControl;
  for (let i = 0; i < value.length; i++) if (isControl(value.charCodeAt(i))) return NAME_MESSAGES.text;
  return LONE_SURROGATE.test(value) ? NAME_MESSAGES.text : null;
}

/** Why free text (a comment, a note) is refused: control characters other than tabs and line breaks. */
export function textProblem(text: string): string | null {
  return inputProblem(text, true);
}

/**
 * Why a message shown to someone else as from its sender (a transfer's, a file request's) is
 * refused: free text's rule, and no direction or invisible characters, which could make it read
 * as something else.
 */
export function messageProblem(text: string): string | null {
  return textProblem(text) ?? (BIDI.test(text) || hasInvisible(text) ? NAME_MESSAGES.text : null);
}

/** An extension safe inside a storage key: short, lower-case letters and digits; else 'bin'. */
export function storedExtension(extension: string): string {
  return /^[a-z0-9]{1,12}$/.test(extension) ? extension : 'bin';
}
