import { afterEach, describe, expect, it } from 'vitest';
import { activitiesStore } from './activities-store';

const entry = (id: string, state: 'Started' | 'In Progress' | 'Finished' | 'Error') => ({
  id,
  kind: 'upload' as const,
  name: `${id}.wav · Session`,
  state,
  percent: state === 'Finished' ? 100 : 40,
});

afterEach(() => {
  for (const activity of activitiesStore.snapshot()) activitiesStore.remove(activity.id);
});

describe('the Activities panel entries', () => {
  it('drops the finished ones when the user moves on, keeping what runs or failed', () => {
    activitiesStore.add(entry('kick', 'Finished'));
    activitiesStore.add(entry('snare', 'In Progress'));
    activitiesStore.add(entry('bass', 'Error'));
    activitiesStore.dropFinished();
    expect(activitiesStore.snapshot().map((a) => a.id)).toEqual(['snare', 'bass']);
  });
});
