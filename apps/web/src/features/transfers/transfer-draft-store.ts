import type { PickedFile } from '../uploads/walk-drop';
import type { TransferMode } from './transfer-rules';

/** What the form held when a visitor pressed Transfer and had to sign in first. */
export interface TransferDraftFields {
  name: string;
  message: string;
  mode: TransferMode;
  recipients: string[];
  durationDays: number;
}

/** A file the draft could not keep: the user is asked to choose it again. */
export interface MissingFile {
  relativePath: string;
  size: number;
}

export interface SavedTransferDraft {
  fields: TransferDraftFields;
  files: PickedFile[];
  missing: MissingFile[];
}

/**
 * Files up to this total travel through the sign-in in the browser's own database; a bigger
 * selection would be copied there byte for byte, so only its names are kept and the user chooses
 * the files again.
 */
export const DRAFT_FILES_MAX_BYTES = 1_000_000_000;

/** Which files the draft keeps whole and which it only names. */
export function splitDraftFiles(files: PickedFile[], maxBytes = DRAFT_FILES_MAX_BYTES) {
  const total = files.reduce((sum, f) => sum + f.file.size, 0);
  if (total <= maxBytes) return { kept: files, missing: [] as MissingFile[] };
  return { kept: [] as PickedFile[], missing: files.map((f) => ({ relativePath: f.relativePath, size: f.file.size })) };
}

const baseName = (path: string) => path.split('/').pop() ?? path;

/**
 * The missing files still missing after `picked` came in: a file answers an entry by its name and
 * size (chosen again by itself it has no folder path; chosen with its folder it has).
 */
export function stillMissing(missing: MissingFile[], picked: PickedFile[]): MissingFile[] {
  return missing.filter(
    (m) => !picked.some((p) => p.file.size === m.size && baseName(p.relativePath) === baseName(m.relativePath)),
  );
}

const DB = 'mixroom-transfer-draft';
const STORE = 'drafts';
const KEY = 'pending';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('indexedDB'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB'));
    });
  } finally {
    db.close();
  }
}

/** Keeps the form across the sign-in redirect (the page is left, so nothing in memory survives). */
export async function saveTransferDraft(fields: TransferDraftFields, files: PickedFile[]): Promise<void> {
  const { kept, missing } = splitDraftFiles(files);
  const draft: SavedTransferDraft = { fields, files: kept, missing };
  await run('readwrite', (store) => store.put(draft, KEY));
}

/** The saved draft, once: reading it removes it. Null when there is none or the browser kept nothing. */
export async function takeTransferDraft(): Promise<SavedTransferDraft | null> {
  try {
    // What the database holds was written by this module (or is gone): it has the draft's shape.
    const draft = (await run<unknown>('readonly', (store) => store.get(KEY))) as SavedTransferDraft | undefined;
    if (!draft) return null;
    await run('readwrite', (store) => store.delete(KEY));
    return draft;
  } catch {
    return null;
  }
}
