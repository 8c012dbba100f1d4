import type { Tx } from '../db/database';

/**
 * What a module adds to a user's "download my data" archive. Paths are inside the archive; blobs
 * are read from the store only when the archive reaches them, one at a time.
 */
export interface ExportArchive {
  json(path: string, value: unknown): void;
  text(path: string, text: string): void;
  blob(path: string, key: string, size: number, mtime: Date): void;
}

/** What an erasure's contributions may leave to follow the commit (mails, pushes, realtime). */
export interface ErasureEffects {
  /** The user being erased, as they were (their rows may already be gone in `tx`). */
  user: { id: string; email: string; displayName: string };
  /** Tells other users something through their chosen notification channels, once `tx` commits. */
  notify(userIds: string[], message: { title: string; body: string; url: string }): Promise<void>;
}

/**
 * A module's part of a user's own data, for "download my data" and for account deletion. Each
 * module that keeps something about a user contributes it here, so neither feature needs to know
 * every table. Erasure runs in two steps that may both run again after a crash: blobs first
 * (deleting what is already gone is harmless), then rows in one transaction.
 */
export interface UserDataContribution {
  /** Adds the module's part to the archive. */
  export?(userId: string, archive: ExportArchive): Promise<void>;
  /** Key prefixes of the blobs that go with the user's rows (files of the items they own). */
  blobPrefixes?(userId: string): Promise<string[]>;
  /**
   * Ends what the user holds outside Mixroom before their rows go (a linked account's tokens at its
   * provider). Best effort, and harmless to run again: a provider that can't be reached must not
   * keep the account from being erased.
   */
  release?(userId: string): Promise<void>;
  /** Removes the user's rows (before the user row itself goes), and records what must follow. */
  erase?(userId: string, tx: Tx, effects: ErasureEffects): Promise<void>;
}
