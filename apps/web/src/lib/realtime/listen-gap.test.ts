import { describe, expect, it } from 'vitest';
import { mayPredateListening } from './listen-gap';

describe('data fetched around the socket first listening', () => {
  const readyAt = 1_000_000;

  it('is fetched again when it arrived before the socket listened', () => {
    expect(mayPredateListening({ dataUpdatedAt: readyAt - 200, fetchStatus: 'idle' }, readyAt)).toBe(true);
    expect(mayPredateListening({ dataUpdatedAt: readyAt, fetchStatus: 'idle' }, readyAt)).toBe(true);
  });

  it('is fetched again while its fetch was still under way', () => {
    expect(mayPredateListening({ dataUpdatedAt: 0, fetchStatus: 'fetching' }, readyAt)).toBe(true);
    expect(mayPredateListening({ dataUpdatedAt: readyAt - 5_000, fetchStatus: 'fetching' }, readyAt)).toBe(true);
  });

  it('is left alone when it arrived afterwards, or never was asked for', () => {
    expect(mayPredateListening({ dataUpdatedAt: readyAt + 1, fetchStatus: 'idle' }, readyAt)).toBe(false);
    expect(mayPredateListening({ dataUpdatedAt: 0, fetchStatus: 'idle' }, readyAt)).toBe(false);
  });
});
