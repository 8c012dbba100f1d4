import type { VersionDifference } from '@mixroom/contracts';

/** A band this far above or below B's level change is a tilt worth saying. */
const TILT_DB = 1.5;

type Overall = NonNullable<VersionDifference['overall']>;
type Band = Overall['bands'][number];

const hz = (value: number) => (value >= 1000 ? `${value / 1000} kHz` : `${value} Hz`);
const signed = (db: number) => `${db < 0 ? '−' : '+'}${Math.abs(db).toFixed(1)} dB`;

/** What may be said of B's start: an offset only when the server is sure of it, else nothing. */
export function describeAlignment(data: Pick<VersionDifference, 'alignment' | 'offsetSeconds'>): string | null {
  if (data.alignment === 'in-sync') return 'B starts in sync';
  if (data.alignment !== 'shifted' || data.offsetSeconds === null) return null;
  const ms = data.offsetSeconds * 1000;
  return `B lined up ${Math.abs(ms).toFixed(1)} ms ${ms > 0 ? 'later' : 'earlier'}`;
}

/** The run of bands from one end whose tilt has the same sign and is big enough. */
function runFrom(bands: Band[], sign: 1 | -1): Band[] {
  const run: Band[] = [];
  for (const band of bands) {
    if (band.db * sign < TILT_DB) break;
    run.push(band);
  }
  return run;
}

/** A run at one end of the spectrum: as many bands as lean the same way, up or down. */
function endRun(bands: Band[]): { run: Band[]; up: boolean } | null {
  const up = runFrom(bands, 1);
  if (up.length) return { run: up, up: true };
  const down = runFrom(bands, -1);
  return down.length ? { run: down, up: false } : null;
}

/**
 * A change over the whole file in words: "B differs everywhere: level −1.8 dB, brighter above
 * 8 kHz". The level is B's against A's; the top and the bottom of the spectrum are said as
 * brighter/darker and more/less low end, and a band in between that stands out by its difference.
 */
export function describeEverywhere(overall: Overall | null): string {
  if (!overall) return 'B differs everywhere';
  const parts: string[] = [];
  if (Math.abs(overall.levelDb) >= 0.1) parts.push(`level ${signed(overall.levelDb)}`);
  const bands = overall.bands;
  const top = endRun([...bands].reverse());
  const bottom = endRun(bands);
  const said = new Set<Band>([...(top?.run ?? []), ...(bottom?.run ?? [])]);
  if (bottom) {
    const edge = bottom.run.at(-1)!.toHz;
    parts.push(`${bottom.up ? 'more' : 'less'} low end below ${hz(edge)}`);
  }
  for (const band of bands)
    if (!said.has(band) && Math.abs(band.db) >= TILT_DB)
      parts.push(`${signed(band.db)} at ${hz(band.fromHz)}–${hz(band.toHz)}`);
  if (top) {
    const edge = top.run.at(-1)!.fromHz;
    parts.push(`${top.up ? 'brighter' : 'darker'} above ${hz(edge)}`);
  }
  return parts.length ? `B differs everywhere: ${parts.join(', ')}` : 'B differs everywhere';
}
