import type { SpectrogramPending, VersionNote } from '@mixroom/contracts';
import { projectCapabilities } from '@mixroom/shared';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../platform/clock/clock';
import type { EventBus } from '../../platform/realtime/event-bus';
import type { ItemPolicy } from '../../access/item.policy';
import type { VersionRow } from '../../db/rows';
import type { Actor } from '../../platform/identity/actor';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { stageState } from '../../platform/jobs/staged-job';
import { renderSpectrogramJob } from '../storage';
import type { MediaService } from '../storage';
import type { ProjectsService } from '../storage';
import type { StoragePresenter } from '../storage';
import type { NotesRepository } from './notes.repository';
import { sanitizeNoteHtml } from './note-html';
import { renderNotePdfIsolated } from './note-pdf.runner';

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
   * A signed URL to the spectrogram image, or where its render stands. The first request queues the
   * render as a stage (heavy work runs on worker nodes, never inside a request; one job per version
   * across nodes, its id from the version) and answers at once; the screen asks again until the
   * image is there. A render whose last attempt failed answers 422.
   */
  async spectrogram(actor: Actor, versionId: string): Promise<{ url: string; expiresAt: string } | SpectrogramPending> {
    const { version } = await this.version(actor, versionId);
    if (version.status !== 'ready' || !version.durationSeconds)
      throw AppError.conflict('The spectrogram is available once the version is processed.', 'NOT_READY');
    const ready = await this.deps.media.spectrogramUrl(version);
    if (ready) return this.expiring(ready);
    const payload = { versionId: version.id };
    const state = await stageState(this.deps.jobs, renderSpectrogramJob, payload);
    if (state === 'failed')
      throw new AppError(422, 'SPECTROGRAM_FAILED', 'The spectrogram could not be rendered for this file.');
    if (state === 'running') return { state: 'running' };
    // Never sent, or done while the image is missing (removed since, or done just now: then the
    // render finds it and stops): queued. A second request while it waits is a no-op.
    await this.deps.jobs.send(renderSpectrogramJob, payload, { again: state === 'completed' });
    return { state: 'queued' };
  }
}
