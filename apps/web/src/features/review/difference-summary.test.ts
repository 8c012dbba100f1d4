import { describe, expect, it } from 'vitest';
import { describeAlignment, describeEverywhere } from './difference-summary';

const EDGES = [0, 125, 250, 500, 1000, 2000, 4000, 8000, 24_000];
const bands = (dbs: number[]) => dbs.map((db, i) => ({ fromHz: EDGES[i]!, toHz: EDGES[i + 1]!, db }));

describe('what changed, in words', () => {
  it('says a whole-mix change by its level and its tilt', () => {
    expect(describeEverywhere({ levelDb: -1.8, bands: bands([0, 0, 0, 0, 0, 0.3, 1.2, 3.2]) })).toBe(
      'B differs everywhere: level −1.8 dB, brighter above 8 kHz',
    );
    expect(describeEverywhere({ levelDb: 0.6, bands: bands([-2.4, -1.7, 0, 0, 2.1, 0, -0.5, -2]) })).toBe(
      'B differs everywhere: level +0.6 dB, less low end below 250 Hz, +2.1 dB at 1 kHz–2 kHz, darker above 8 kHz',
    );
    expect(describeEverywhere({ levelDb: 0, bands: bands([0, 0, 0, 0, 0, 0, 0, 0]) })).toBe('B differs everywhere');
    expect(describeEverywhere(null)).toBe('B differs everywhere');
  });

  it('tells an offset only when the server is sure of it', () => {
    expect(describeAlignment({ alignment: 'shifted', offsetSeconds: 0.0091875 })).toBe('B lined up 9.2 ms later');
    expect(describeAlignment({ alignment: 'shifted', offsetSeconds: -0.0459375 })).toBe('B lined up 45.9 ms earlier');
    expect(describeAlignment({ alignment: 'in-sync', offsetSeconds: null })).toBe('B starts in sync');
    expect(describeAlignment({ alignment: 'unsure', offsetSeconds: null })).toBeNull();
  });
});
