import type { UploadSession, UploadTicket, Version } from '@mixroom/contracts';

/** The authenticated JSON call the engine needs (the web's api client, or a test's). */
export type ApiCall = <T>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) => Promise<T>;

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

export interface UploadOptions {
  api: ApiCall;
  ticket: Pick<UploadTicket, 'upload' | 'version'>;
  file: Blob;
  /** Parts in flight at once. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** Assembles the file once every part is in; the version's own completion unless the upload's place has another. */
  complete?: (signal: AbortSignal) => Promise<Version>;
}

const MAX_ATTEMPTS = 4;

async function putPart(url: string, body: Blob, signal: AbortSignal): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { method: 'PUT', body, signal });
      if (!response.ok) throw new Error(`The storage answered ${response.status}`);
      const etag = response.headers.get('etag');
      if (!etag) throw new Error('The storage did not return an ETag (check its CORS ExposeHeaders).');
      return etag;
    } catch (error) {
      if (signal.aborted || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}

/**
 * Sends a file straight to the blob store in parallel parts through signed URLs (the same code for
 * the disk driver and S3). It first asks the server which parts are already stored, so calling it
 * again after a lost tab, network or server sends only what is missing. Returns the version once
 * the server has assembled the file and queued its processing.
 */
export async function uploadFile(options: UploadOptions): Promise<Version> {
  const { api, ticket, file } = options;
  // One failed part stops the others: a later resume must not race stragglers of this attempt.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const session = await api<UploadSession>(`/api/uploads/${ticket.upload.id}`, { signal });
  if (session.size !== file.size) throw new Error('This is not the file this upload was started with.');
  const done = new Set(session.parts.map((p) => p.partNumber));
  let sentBytes = session.parts.reduce((total, p) => total + p.size, 0);
  options.onProgress?.({ sentBytes, totalBytes: file.size });

  const pending = Array.from({ length: session.partCount }, (_, i) => i + 1).filter((n) => !done.has(n));
  // The first failure is the one reported; it stops every other part of this attempt.
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort();
  };
  const urlOf = (partNumber: number) => {
    const url = api<{ url: string }>(`/api/uploads/${session.id}/parts/${partNumber}/url`, { method: 'POST', signal });
    // Awaited later; a failure meanwhile is reported there, not as an unhandled rejection.
    url.catch(() => undefined);
    return url;
  };
  const records: Promise<void>[] = [];
  // Each worker asks for its next part's URL while the current part's bytes travel, and records a
  // stored part without waiting: the connection to the storage never idles on an API round trip.
  const worker = async () => {
    let partNumber = pending.shift();
    let url = partNumber === undefined ? undefined : urlOf(partNumber);
    while (partNumber !== undefined && url !== undefined) {
      const current = { partNumber, url };
      partNumber = pending.shift();
      url = partNumber === undefined ? undefined : urlOf(partNumber);
      const start = (current.partNumber - 1) * session.partSize;
      const slice = file.slice(start, Math.min(file.size, current.partNumber * session.partSize));
      const etag = await putPart((await current.url).url, slice, signal);
      const record = api(`/api/uploads/${session.id}/parts/${current.partNumber}`, {
        method: 'PUT',
        body: { etag, size: slice.size },
        signal,
      }).then(() => {
        sentBytes += slice.size;
        options.onProgress?.({ sentBytes, totalBytes: file.size });
      }, fail);
      records.push(record);
    }
  };
  const workers = Array.from({ length: Math.min(options.concurrency ?? 4, Math.max(1, pending.length)) }, () =>
    worker().catch(fail),
  );
  await Promise.all(workers);
  await Promise.all(records);
  if (failure) throw failure.error;
  if (options.complete) return options.complete(signal);
  return api<Version>(`/api/versions/${ticket.version.id}/complete`, { method: 'POST', signal });
}
