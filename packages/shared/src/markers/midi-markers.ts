import { markerName, toMs, type Marker } from './marker';

/**
 * A Standard MIDI File (format 0, one track) holding a marker meta event (FF 06) at each comment's
 * time; range comments add a second marker at their end. Pro Tools, Logic, Cubase, Ableton and
 * Reaper import these as markers. Timing: 120 bpm (500 000 µs a quarter) and 500 ticks a quarter,
 * so one tick is one millisecond, exact whatever the audio's sample rate.
 */
const TICKS_PER_QUARTER = 500;
const MICROSECONDS_PER_QUARTER = 500_000;

function variableLength(value: number): number[] {
  const bytes = [value & 0x7f];
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) bytes.unshift((rest & 0x7f) | 0x80);
  return bytes;
}

function metaEvent(delta: number, type: number, data: number[]): number[] {
  return [...variableLength(delta), 0xff, type, ...variableLength(data.length), ...data];
}

const utf8 = (text: string) => [...new TextEncoder().encode(text)];

export function midiMarkers(markers: Marker[], options: { offsetMs?: number; title?: string } = {}): Uint8Array {
  const points = markers
    .flatMap((m) => [
      { at: toMs(m.start, options.offsetMs), name: markerName(m) },
      ...(m.end !== null ? [{ at: toMs(m.end, options.offsetMs), name: `End: ${markerName(m)}` }] : []),
    ])
    .sort((a, b) => a.at - b.at);
  const track: number[] = [];
  if (options.title) track.push(...metaEvent(0, 0x03, utf8(options.title)));
  track.push(
    ...metaEvent(0, 0x51, [
      (MICROSECONDS_PER_QUARTER >> 16) & 0xff,
      (MICROSECONDS_PER_QUARTER >> 8) & 0xff,
      MICROSECONDS_PER_QUARTER & 0xff,
    ]),
  );
  let now = 0;
  for (const point of points) {
    track.push(...metaEvent(Math.max(0, point.at - now), 0x06, utf8(point.name)));
    now = Math.max(now, point.at);
  }
  track.push(...metaEvent(0, 0x2f, []));
  const header = [
    0x4d,
    0x54,
    0x68,
    0x64,
    0,
    0,
    0,
    6,
    0,
    0,
    0,
    1,
    (TICKS_PER_QUARTER >> 8) & 0xff,
    TICKS_PER_QUARTER & 0xff,
  ];
  const length = track.length;
  const chunk = [
    0x4d,
    0x54,
    0x72,
    0x6b,
    (length >>> 24) & 0xff,
    (length >>> 16) & 0xff,
    (length >>> 8) & 0xff,
    length & 0xff,
  ];
  return Uint8Array.from([...header, ...chunk, ...track]);
}
