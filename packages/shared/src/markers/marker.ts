/** A comment as a DAW marker: a point, or a span (a range comment becomes a region). */
export interface Marker {
  /** Seconds from the start of the file. */
  start: number;
  /** Seconds; null for a point. */
  end: number | null;
  author: string;
  text: string;
  replies: number;
  resolved: boolean;
}

export const MARKER_FORMATS = ['midi', 'reaper', 'audacity', 'csv'] as const;
export type MarkerFormat = (typeof MARKER_FORMATS)[number];

/** Whole milliseconds, the unit every format is exact to. `offsetMs` is the session's start. */
export const toMs = (seconds: number, offsetMs = 0) => Math.round(seconds * 1000) + offsetMs;

/** One line for a marker's name: the author and the text, with line breaks folded. */
export const markerName = (marker: Marker) => `${marker.author}: ${marker.text}`.replace(/\s*[\r\n]+\s*/g, ' / ');
