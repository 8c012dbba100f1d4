/** How far the music dips while someone else talks: each listener's own choice, kept per browser. */
export const DUCK_MIN_DB = -20;
export const DUCK_DEFAULT_DB = -10;
const DUCK_KEY = 'mixroom.talkback.duckDb';

export function storedDuckDb(): number {
  const value = Number(window.localStorage.getItem(DUCK_KEY));
  return window.localStorage.getItem(DUCK_KEY) !== null && Number.isFinite(value)
    ? Math.max(DUCK_MIN_DB, Math.min(0, value))
    : DUCK_DEFAULT_DB;
}

export function storeDuckDb(db: number): void {
  window.localStorage.setItem(DUCK_KEY, String(db));
}
