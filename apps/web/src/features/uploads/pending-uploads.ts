import type { UploadTicket } from '@mixroom/contracts';

const KEY = 'mixroom.pendingUploads';

/** What an upload needs to go on: its server-side session and the version it fills. */
export type Ticket = Pick<UploadTicket, 'upload' | 'version'>;

/** An upload a tab started and has not finished or cancelled. */
export interface PendingUpload {
  fingerprint: string;
  /** Where the file goes: 'folder:<id|root>', 'version:<projectId>', 'attachment:<projectId>'. */
  scope: string;
  /** Its name in the Activities panel. */
  label: string;
  fileName: string;
  size: number;
  ticket: Ticket;
}

export interface PendingStore {
  find(fingerprint: string): PendingUpload | null;
  all(): PendingUpload[];
  save(entry: PendingUpload): void;
  forget(fingerprint: string): void;
}

/** Identifies a local file well enough to resume its upload when the same file goes to the same place again. */
export const fingerprint = (file: Pick<File, 'name' | 'size' | 'lastModified'>, scope: string) =>
  [scope, file.name, file.size, file.lastModified].join('|');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Entries written by older versions of the app (or edited by hand) are dropped, not trusted. */
function isPending(value: unknown): value is PendingUpload {
  if (!isObject(value) || !isObject(value.ticket)) return false;
  const { upload, version } = value.ticket;
  return (
    typeof value.fingerprint === 'string' &&
    typeof value.scope === 'string' &&
    typeof value.label === 'string' &&
    typeof value.fileName === 'string' &&
    typeof value.size === 'number' &&
    isObject(upload) &&
    typeof upload.id === 'string' &&
    isObject(version) &&
    typeof version.id === 'string'
  );
}

/**
 * Uploads survive a closed tab: their tickets stay in `storage` until finished or cancelled, so the
 * same file sent to the same place again, or chosen from the Activities panel after a reload,
 * continues from the parts the server already holds.
 */
export function pendingStore(storage: () => Pick<Storage, 'getItem' | 'setItem'>): PendingStore {
  const read = (): PendingUpload[] => {
    try {
      const parsed: unknown = JSON.parse(storage().getItem(KEY) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isPending) : [];
    } catch {
      return [];
    }
  };
  const write = (entries: PendingUpload[]) => storage().setItem(KEY, JSON.stringify(entries));
  return {
    find: (print) => read().find((p) => p.fingerprint === print) ?? null,
    all: read,
    save(entry) {
      const { fingerprint: print, scope, label, fileName, size, ticket } = entry;
      write([
        ...read().filter((p) => p.fingerprint !== print),
        {
          fingerprint: print,
          scope,
          label,
          fileName,
          size,
          ticket: { upload: ticket.upload, version: ticket.version },
        },
      ]);
    },
    forget(print) {
      write(read().filter((p) => p.fingerprint !== print));
    },
  };
}

/** The browser's store, read when first used (so modules importing this load outside a browser too). */
export const pendingUploads = pendingStore(() => localStorage);
