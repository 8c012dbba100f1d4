/** A single byte range of a file, inclusive, as HTTP Range asks for it. */
export interface RequestedRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header against a file of `size` bytes: null for no (or an unsupported multi-part)
 * range, which serves the whole file; 'unsatisfiable' for a range outside it (416).
 */
export function parseRange(header: string | undefined, size: number): RequestedRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
