import type { UploadTicket } from '@mixroom/contracts';

const KEY = 'mixroom.pendingUploads';

interface Pending {
  fingerprint: string;
  ticket: Pick<UploadTicket, 'upload' | 'version'>;
}

/** Identifies a local file well enough to offer resuming its upload when it is dropped again. */
export const fingerprint = (file: File, folderId: string | null) => [folderId ?? 'root', file.name, file.size, file.lastModified].join('|');

function read(): Pending[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '[]') as Pending[];
  } catch {
    return [];
  }
}

/**
 * Uploads survive a closed tab: their tickets stay here until finished or cancelled, and dropping
 * the same file into the same folder picks up from the parts the server already holds.
 */
export const pendingUploads = {
  find: (print: string) => read().find((p) => p.fingerprint === print) ?? null,
  save(print: string, ticket: Pending['ticket']) {
    localStorage.setItem(
      KEY,
      JSON.stringify([...read().filter((p) => p.fingerprint !== print), { fingerprint: print, ticket: { upload: ticket.upload, version: ticket.version } }]),
    );
  },
  forget(print: string) {
    localStorage.setItem(KEY, JSON.stringify(read().filter((p) => p.fingerprint !== print)));
  },
};
