import { useSyncExternalStore } from 'react';

export type ActivityState = 'Started' | 'In Progress' | 'Finished' | 'Error';

export interface Activity {
  id: string;
  kind: 'upload' | 'download';
  name: string;
  state: ActivityState;
  percent: number;
  error?: string;
  cancel?: () => void;
  /** An interrupted upload goes on once the user chooses its file again. */
  resume?: (file: File) => void;
}

const FINISHED_LINGER_MS = 4000;
let activities: Activity[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Uploads and downloads in flight, for the Activities panel. */
export const activitiesStore = {
  add(activity: Activity): void {
    activities = [...activities, activity];
    emit();
  },
  update(id: string, patch: Partial<Activity>): void {
    activities = activities.map((a) => (a.id === id ? { ...a, ...patch } : a));
    emit();
    // The panel drops an entry once it finished (after a moment, so the user sees it happen).
    if (patch.state === 'Finished') setTimeout(() => activitiesStore.remove(id), FINISHED_LINGER_MS);
  },
  remove(id: string): void {
    activities = activities.filter((a) => a.id !== id);
    emit();
  },
  /** Drops the finished entries at once (the user went on to another page: they are done). */
  dropFinished(): void {
    if (!activities.some((a) => a.state === 'Finished')) return;
    activities = activities.filter((a) => a.state !== 'Finished');
    emit();
  },
  hasRunning(): boolean {
    return activities.some((a) => a.state === 'Started' || a.state === 'In Progress');
  },
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): Activity[] => activities,
};

export function useActivities(): Activity[] {
  return useSyncExternalStore(activitiesStore.subscribe, activitiesStore.snapshot);
}
