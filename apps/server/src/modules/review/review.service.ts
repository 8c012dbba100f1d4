import { createHash } from 'node:crypto';
import type { VersionNote } from '@mixroom/contracts';
import { projectCapabilities } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { ItemPolicy } from '../../access/item.policy';
import type { VersionRow } from '../../db/rows';
import type { Actor } from '../../platform/identity/actor';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { renderSpectrogramJob } from '../storage';
import type { MediaService } from '../storage';
import type { ProjectsService } from '../storage';
import type { StoragePresenter } from '../storage';
import type { NotesRepository } from './notes.repository';
import { sanitizeNoteHtml } from './note-html';
import { renderNotePdfIsolated } from './note-pdf.runner';

const SPECTROGRAM_WAIT_MS = 60_000;
const SPECTROGRAM_POLL_MS = 250;

export const REVIEW_EVENTS = { note: 'note.changed' } as const;

export interface ReviewServiceDeps {
  policy: ItemPolicy;
  notes: NotesRepository;
  presenter: StoragePresenter;
  projects: ProjectsService;
  media: MediaService;
  jobs: JobQueue;
  bus: EventBus;
  clock: Clock;
  signTtlSeconds: number;
}

/**
 * The review of one version besides its comments: notes (read by everyone who sees the project,
 * written by those who may edit it), who is looking at it, and its spectrogram.
 */
export class ReviewService {
  constructor(private readonly deps: ReviewServiceDeps) {}

  private async version(actor: Actor, versionId: string, need: 'view' | 'edit' = 'view') {
    return this.deps.policy.version(actor, versionId, need);
  }

  private presentNote(version: VersionRow, canEdit: boolean): VersionNote {
    return {
      versionId: version.id,
      html: version.note ?? '',
      canEdit,
      updatedAt: version.noteUpdatedAt?.toISOString() ?? null,
    };
  }

  async note(actor: Actor, versionId: string): Promise<VersionNote> {
    const { version, project, role } = await this.version(actor, versionId);
    return this.presentNote(version, projectCapabilities(role, project.enableDownload).canEdit);
  }

  async saveNote(actor: Actor, versionId: string, html: string): Promise<VersionNote> {
    const { version, project } = await this.version(actor, versionId, 'edit');
    const updated = await this.deps.notes.save(version.id, sanitizeNoteHtml(html), this.deps.clock.now());
    await this.deps.bus.publish({ topic: `project:${project.id}`, type: REVIEW_EVENTS.note, data: { versionId } });
    return this.presentNote(updated, true);
  }

  /** Exports what the user sees in the editor (saved or not) as a PDF; reading rights suffice. */
  async notePdf(actor: Actor, versionId: string, html: string): Promise<{ pdf: Buffer; fileName: string }> {
    const { version, project } = await this.version(actor, versionId);
    const title = `${project.name} — v${version.number} ${version.name}`;
    // Sanitized in the worker too: parsing 200,000 characters of markup is work the event loop skips.
    const pdf = await renderNotePdfIsolated({
      title,
      subtitle: `Notes exported ${this.deps.clock.now().toUTCString()}`,
      html,
    });
    return { pdf, fileName: `${project.name} v${version.number} notes.pdf` };
  }

  private expiring(url: string) {
    return {
      url,
      expiresAt: new Date(this.deps.clock.now().getTime() + this.deps.signTtlSeconds * 1000).toISOString(),
    };
  }

  /** What the player streams: the browser-playable preview when there is one, else the original. */
  async streamUrl(actor: Actor, versionId: string): Promise<{ url: string; expiresAt: string }> {
    return this.expiring(await this.deps.projects.derivedUrl(actor, versionId, 'preview'));
  }

  /**
   * A signed URL to the spectrogram image. The first request queues its render as a job (heavy work
   * runs on worker nodes, never inside a request; one job per version across nodes) and waits for
   * the image, up to SPECTROGRAM_WAIT_MS.
   */
  async spectrogramUrl(actor: Actor, versionId: string): Promise<{ url: string; expiresAt: string }> {
    const { version } = await this.version(actor, versionId);
    if (version.status !== 'ready' || !version.durationSeconds)
      throw AppError.conflict('The spectrogram is available once the version is processed.', 'NOT_READY');
    const ready = await this.deps.media.spectrogramUrl(version);
    if (ready) return this.expiring(ready);
    const jobId = uuidFrom(`spectrogram:${version.id}`);
    await this.deps.jobs.send(renderSpectrogramJob, { versionId: version.id }, { jobId });
    // A wait bound, not a clock time: elapsed real time, unaffected by a moved clock.
    const deadline = performance.now() + SPECTROGRAM_WAIT_MS;
    while (performance.now() < deadline) {
      const url = await this.deps.media.spectrogramUrl(version);
      if (url) return this.expiring(url);
      const state = await this.deps.jobs.state(renderSpectrogramJob.name, jobId);
      if (state === 'failed')
        throw new AppError(422, 'SPECTROGRAM_FAILED', 'The spectrogram could not be rendered for this file.');
      await new Promise((resolve) => setTimeout(resolve, SPECTROGRAM_POLL_MS));
    }
    throw AppError.conflict(
      'The spectrogram is still being rendered. Please try again in a moment.',
      'SPECTROGRAM_PENDING',
    );
  }
}

/** A stable uuid for a name: the id of the one job that does a thing. */
function uuidFrom(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
