import type { UploadSession, Version } from '@mixroom/contracts';
import { MESSAGES } from '@mixroom/shared';
import type { Activity } from './activities-store';
import { fingerprint, type PendingStore, type PendingUpload, type Ticket } from './pending-uploads';
import { uploadFile, type ApiCall, type UploadOptions } from './upload-engine';

/** Asks the server for a ticket: the version to fill and the upload session that carries its bytes. */
export type TicketSource = () => Promise<Ticket>;

export interface UploadRequest {
  file: File;
  /** The upload's name in the Activities panel. */
  label: string;
  /**
   * Where the file goes ('folder:<id|root>', 'version:<projectId>', 'attachment:<projectId>'). With
   * the file's identity it names the upload: the same file sent to the same place again resumes.
   */
  scope: string;
  ticket: TicketSource;
  /** The server created the version: the item can show as uploading. */
  onTicket?: (ticket: Ticket) => void;
  onProgress?: (percent: number) => void;
}

export type UploadOutcome = { status: 'completed'; version: Version } | { status: 'cancelled' };

export interface UploadHandle {
  readonly id: string;
  cancel(): void;
  /** Settles when the upload completed or was cancelled; rejects with the failure otherwise. */
  readonly done: Promise<UploadOutcome>;
}

export interface ActivitySink {
  add(activity: Activity): void;
  update(id: string, patch: Partial<Activity>): void;
  remove(id: string): void;
}

/** Which uploads some open tab is running, so another tab does not offer to resume them. */
export interface TabClaims {
  /** Claims an upload for this tab until the returned release is called (or the tab goes). */
  hold(print: string): () => void;
  held(): Promise<Set<string>>;
}

/** How uploads to one kind of place are finished and cancelled, when not as a storage version is. */
export interface ScopeCalls {
  complete?: (versionId: string, signal: AbortSignal) => Promise<Version>;
  cancel?: (versionId: string) => Promise<unknown>;
}

export interface OrchestratorDeps {
  api: ApiCall;
  /** The server's cancel: aborts the session and drops the version (and a project left empty). */
  cancelOnServer(versionId: string): Promise<unknown>;
  /** The calls of a place with its own completion and cancel (a transfer's files), by scope. */
  scopeCalls?: (scope: string) => ScopeCalls;
  activities: ActivitySink;
  pending: PendingStore;
  tabs?: TabClaims;
  /** Sends the bytes; the upload engine unless a test replaces it. */
  send?: (options: UploadOptions) => Promise<Version>;
  newId?: () => string;
}

export const UPLOAD_MESSAGES = {
  interrupted: (fileName: string) => `Upload interrupted. Choose ${fileName} again to resume it.`,
  otherFile: (fileName: string) => `That is not the file this upload started with: choose ${fileName}.`,
  expired: 'This upload can no longer be resumed. Upload the file again.',
};

export const percentOf = (sentBytes: number, totalBytes: number) =>
  totalBytes > 0 ? Math.min(100, Math.floor((sentBytes / totalBytes) * 100)) : 100;

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : MESSAGES.genericError);
const sentOf = (session: UploadSession) => session.parts.reduce((total, part) => total + part.size, 0);

/**
 * The one way the web app uploads a file: it asks the caller's ticket source for a session (a file
 * into a folder, a new version, an attachment), sends the parts in parallel straight to the blob
 * store, shows progress in the Activities panel, cancels on the server, and keeps the ticket so the
 * upload resumes after a reload from the parts the server already holds.
 */
export class UploadOrchestrator {
  private readonly running = new Map<string, UploadHandle>();
  /** Activities of interrupted uploads shown for resuming, by fingerprint. */
  private readonly interrupted = new Map<string, string>();
  private restoring: Promise<void> | null = null;
  private readonly send: (options: UploadOptions) => Promise<Version>;
  private readonly newId: () => string;

  constructor(private readonly deps: OrchestratorDeps) {
    this.send = deps.send ?? uploadFile;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  /** Starts (or resumes) an upload; the same file already on its way to the same place is not sent twice. */
  start(request: UploadRequest): UploadHandle {
    const print = fingerprint(request.file, request.scope);
    const existing = this.running.get(print);
    if (existing) return existing;
    this.dropInterrupted(print);
    return this.run(print, request, this.deps.pending.find(print)?.ticket ?? null);
  }

  /**
   * Shows the uploads a closed tab left unfinished, each with Resume (choose the file again) and
   * Cancel. Uploads another open tab is running are left to it. Runs once per page load.
   */
  restore(onSettled: () => void = () => undefined): Promise<void> {
    this.restoring ??= this.restoreOnce(onSettled);
    return this.restoring;
  }

  private async restoreOnce(onSettled: () => void): Promise<void> {
    const held = (await this.deps.tabs?.held()) ?? new Set<string>();
    for (const entry of this.deps.pending.all()) {
      if (this.running.has(entry.fingerprint) || this.interrupted.has(entry.fingerprint) || held.has(entry.fingerprint))
        continue;
      // Unreachable, or another account's upload on this browser: keep it for later.
      const session = await this.session(entry.ticket);
      if (!session) continue;
      if (session.status !== 'open') {
        this.deps.pending.forget(entry.fingerprint);
        continue;
      }
      this.showInterrupted(entry, percentOf(sentOf(session), session.size), onSettled);
    }
  }

  private session(ticket: Ticket, signal?: AbortSignal): Promise<UploadSession | null> {
    return this.deps.api<UploadSession>(`/api/uploads/${ticket.upload.id}`, signal ? { signal } : {}).catch(() => null);
  }

  private showInterrupted(entry: PendingUpload, percent: number, onSettled: () => void): void {
    const id = this.newId();
    this.interrupted.set(entry.fingerprint, id);
    this.deps.activities.add({
      id,
      kind: 'upload',
      name: entry.label,
      state: 'Error',
      percent,
      error: UPLOAD_MESSAGES.interrupted(entry.fileName),
      cancel: () => {
        this.dropInterrupted(entry.fingerprint);
        this.deps.pending.forget(entry.fingerprint);
        void this.cancelFor(entry.scope)(entry.ticket.version.id)
          .catch(() => undefined)
          .finally(onSettled);
      },
      resume: (file) => {
        if (fingerprint(file, entry.scope) !== entry.fingerprint) {
          this.deps.activities.update(id, { error: UPLOAD_MESSAGES.otherFile(entry.fileName) });
          return;
        }
        this.dropInterrupted(entry.fingerprint);
        const expired: TicketSource = () => Promise.reject(new Error(UPLOAD_MESSAGES.expired));
        const request: UploadRequest = { file, label: entry.label, scope: entry.scope, ticket: expired };
        void this.run(entry.fingerprint, request, entry.ticket)
          .done.catch(() => undefined)
          .finally(onSettled);
      },
    });
  }

  private cancelFor(scope: string): (versionId: string) => Promise<unknown> {
    return this.deps.scopeCalls?.(scope).cancel ?? ((versionId) => this.deps.cancelOnServer(versionId));
  }

  private dropInterrupted(print: string): void {
    const id = this.interrupted.get(print);
    if (id === undefined) return;
    this.interrupted.delete(print);
    this.deps.activities.remove(id);
  }

  /** A saved ticket is used while its session is open and holds this file; otherwise a new one is asked for. */
  private async ticketFor(
    print: string,
    request: UploadRequest,
    saved: Ticket | null,
    signal: AbortSignal,
  ): Promise<Ticket> {
    if (saved) {
      const session = await this.session(saved, signal);
      if (session?.status === 'open' && session.size === request.file.size) return saved;
      this.deps.pending.forget(print);
    }
    signal.throwIfAborted();
    return request.ticket();
  }

  private run(print: string, request: UploadRequest, saved: Ticket | null): UploadHandle {
    const { activities, pending } = this.deps;
    const id = this.newId();
    const controller = new AbortController();
    // Shared with `cancel`, which may run at any await below.
    const state: { versionId: string | null; cancelled: Promise<unknown> | null } = {
      versionId: saved?.version.id ?? null,
      cancelled: null,
    };
    const cancelOnServer = (version: string) => this.cancelFor(request.scope)(version).catch(() => undefined);
    const complete = this.deps.scopeCalls?.(request.scope).complete;
    const cancel = () => {
      if (state.cancelled) return;
      controller.abort();
      pending.forget(print);
      activities.remove(id);
      // Before the ticket arrived there is nothing on the server yet: the run cancels it when it lands.
      state.cancelled = state.versionId ? cancelOnServer(state.versionId) : Promise.resolve();
    };
    const release = this.deps.tabs?.hold(print) ?? (() => undefined);
    activities.add({ id, kind: 'upload', name: request.label, state: 'Started', percent: 0, cancel });

    const done = (async (): Promise<UploadOutcome> => {
      try {
        const ticket = await this.ticketFor(print, request, saved, controller.signal);
        state.versionId = ticket.version.id;
        if (state.cancelled) {
          await state.cancelled;
          await cancelOnServer(ticket.version.id);
          return { status: 'cancelled' };
        }
        pending.save({
          fingerprint: print,
          scope: request.scope,
          label: request.label,
          fileName: request.file.name,
          size: request.file.size,
          ticket,
        });
        request.onTicket?.(ticket);
        const version = await this.send({
          api: this.deps.api,
          ticket,
          file: request.file,
          signal: controller.signal,
          ...(complete ? { complete: (signal: AbortSignal) => complete(ticket.version.id, signal) } : {}),
          onProgress: ({ sentBytes, totalBytes }) => {
            const percent = percentOf(sentBytes, totalBytes);
            activities.update(id, { state: 'In Progress', percent });
            request.onProgress?.(percent);
          },
        });
        pending.forget(print);
        activities.update(id, { state: 'Finished', percent: 100, cancel: undefined });
        return { status: 'completed', version };
      } catch (error) {
        if (state.cancelled) {
          await state.cancelled;
          return { status: 'cancelled' };
        }
        // The ticket stays saved: sending the same file to the same place again resumes.
        activities.update(id, { state: 'Error', error: messageOf(error), cancel: undefined });
        throw error;
      } finally {
        this.running.delete(print);
        release();
      }
    })();
    const handle: UploadHandle = { id, cancel, done };
    this.running.set(print, handle);
    return handle;
  }
}
