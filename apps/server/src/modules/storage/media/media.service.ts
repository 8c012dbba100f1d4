import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isAudioExtension } from '@mixroom/shared';
import type { BlobStore } from '../../../platform/blob/blob-store';
import type { Clock } from '../../../platform/clock/clock';
import type { JobContext } from '../../../platform/jobs/job-definition';
import type { StageContext } from '../../../platform/jobs/staged-job';
import {
  encodeLossyPreview,
  MediaError,
  probe,
  renderSpectrogram,
  type Loudness,
  type MediaTools,
  type ProbeResult,
} from '../../../platform/media/ffmpeg';
import { analyzeDifference, type DifferenceResult } from '../../../platform/media/difference-analysis';
import { renderWaveformThumbnail } from '../../../platform/media/png';
import type { TempSpace } from '../../../platform/temp/temp-space';
import { lossyPreviewKeyOf } from './playback';
import { VersionSource } from './version-source';
import { workFolderPrefix } from './media-work';
import type { ProjectsRepository } from '../projects/projects.repository';
import type { StorageEvents } from '../storage.events';
import { judgeIntegrity, MEDIA_MESSAGES } from './version-integrity';
import { needsPreview } from './playable-formats';
import type { VersionRow, VersionsRepository } from '../projects/versions.repository';
import { versionBlobKey } from '../../../platform/blob/blob-keys';

const PROGRESS_INTERVAL_MS = 500;
export interface MediaServiceDeps {
  versions: VersionsRepository;
  /** Only to learn a version's project (its kind): any project, whichever area it lives in. */
  projects: Pick<ProjectsRepository, 'find'>;
  blobs: BlobStore;
  tools: MediaTools;
  events: StorageEvents;
  /** Where the job's files are made: under DATA_DIR, so a crash leaves them to the next start's sweep. */
  temp: TempSpace;
  signTtlSeconds: number;
  clock: Clock;
}

/**
 * The media pipeline: probe → one decode pass (peaks, loudness beside them, and a preview where
 * browsers need one) → thumbnail → integrity check; then the lossy playback preview. An undecodable
 * file marks the version corrupt with a plain reason: never a crash.
 */
export class MediaService {
  /** Spectrograms being rendered, so a second viewer waits for the first render instead of starting another. */
  private readonly rendering = new Map<string, Promise<void>>();

  /** Where the tools read a version's original, and what is read from its bytes directly. */
  private readonly source: VersionSource;

  constructor(private readonly deps: MediaServiceDeps) {
    this.source = new VersionSource(deps.blobs, deps.tools);
  }

  /** Where a version's spectrogram image is kept, beside its files. */
  spectrogramKey(version: Pick<VersionRow, 'projectId' | 'id'>): string {
    return versionBlobKey(version.projectId, version.id, 'spectrogram.png');
  }

  /** A signed URL to the spectrogram, or null while it has not been rendered. */
  async spectrogramUrl(version: VersionRow): Promise<string | null> {
    const key = this.spectrogramKey(version);
    if (!(await this.deps.blobs.head(key))) return null;
    return this.deps.blobs.signDownloadUrl(key, {
      expiresInSeconds: this.deps.signTtlSeconds,
      contentType: 'image/png',
    });
  }

  /**
   * Renders a version's spectrogram (the job's handler, on a worker node). Concurrent renders of the
   * same version on this node share one ffmpeg run; one already stored is not rendered again.
   */
  async ensureSpectrogram(versionId: string): Promise<void> {
    const version = await this.deps.versions.find(versionId);
    if (!version || version.status !== 'ready') return;
    const key = this.spectrogramKey(version);
    if (await this.deps.blobs.head(key)) return;
    let render = this.rendering.get(key);
    if (!render) {
      render = this.renderSpectrogram(version, key).finally(() => this.rendering.delete(key));
      this.rendering.set(key, render);
    }
    await render;
  }

  private async renderSpectrogram(version: VersionRow, key: string): Promise<void> {
    const output = this.deps.temp.file('spectrogram.png');
    try {
      await renderSpectrogram(this.deps.tools, await this.source.input(version), output);
      await this.deps.blobs.put(key, createReadStream(output), 'image/png');
    } finally {
      await rm(output, { force: true });
    }
  }

  /**
   * Where version B differs from version A, decoded from their originals as they stream (see
   * analyzeDifference); null when either is gone or not processed audio. An undecodable file is a
   * MediaError.
   */
  async difference(
    versionId: string,
    otherVersionId: string,
    onProgress: (fraction: number) => Promise<void> | void,
  ): Promise<DifferenceResult | null> {
    const [a, b] = [await this.deps.versions.find(versionId), await this.deps.versions.find(otherVersionId)];
    if (!a?.durationSeconds || !b?.durationSeconds || a.status !== 'ready' || b.status !== 'ready') return null;
    return analyzeDifference(
      this.deps.tools,
      { a: await this.source.input(a), b: await this.source.input(b) },
      { durationSeconds: a.durationSeconds, onProgress },
    );
  }

  /**
   * Two phases. The review needs the waveform, so the version is ready as soon as the peaks and
   * thumbnail are stored (progress 95); the loudness (EBU R128 and true peak) is metered from the
   * same bytes or decode meanwhile (a local WAV's split across every core) and stored once measured
   * (progress 96) while, at low CPU priority, the lossy playback preview is encoded (progress 97);
   * 100 once both are done. A failure of either is logged and ignored: the version stays
   * playable. All along, the stage's heartbeat (pg-boss's, while this runs) tells a slow job from a
   * dead one; a dead one is run again from the start.
   */
  async process(versionId: string, context: Pick<StageContext, 'log' | 'progress'>): Promise<void> {
    const version = await this.deps.versions.find(versionId);
    if (!version) return;
    const project = await this.deps.projects.find(version.projectId);
    if (!project) return;
    const announce = async (progress: number, status: VersionRow['status']) => {
      await this.deps.events.progress({ projectId: project.id, versionId, progress, status });
      await context.progress(progress / 100);
    };
    // Files of ANY projects (PDFs, videos, sessions) are stored as they are.
    if (project.type === 'ANY' && !isAudioExtension(version.fileExtension)) {
      await this.deps.versions.update(versionId, { status: 'ready', progress: 100 });
      await announce(100, 'ready');
      return;
    }
    // The folder marks the job as under way: left behind by a crash, it has the job queued again at start.
    const work = await this.deps.temp.folder(workFolderPrefix(versionId));
    try {
      const reviewable = await this.reviewPhase(version, work, context, announce);
      if (reviewable) await this.backgroundPhase(version, reviewable, work, context, announce);
    } finally {
      await this.deps.temp.remove(work);
    }
  }

  /** Probe, peaks, thumbnail and integrity: what a review needs. Null when the version is corrupt. */
  private async reviewPhase(
    version: VersionRow,
    work: string,
    context: Pick<JobContext, 'log'>,
    announce: (progress: number, status: VersionRow['status']) => Promise<void>,
  ): Promise<Reviewable | null> {
    const versionId = version.id;
    const previewPath = join(work, 'preview.m4a');
    try {
      const input = await this.source.input(version);
      const media = await probe(this.deps.tools, input);
      const preview = needsPreview(version.fileExtension, media);
      let lastReported = 0;
      let lastReportedAt = performance.now();
      const { bins, problems, loudness } = await this.source.peaks(
        version,
        input,
        media,
        preview ? previewPath : null,
        (fraction) => {
          const percent = Math.floor(fraction * 90);
          // Each report is a database write and an event: a few a second are plenty for a progress bar.
          if (percent >= lastReported + 5 && performance.now() - lastReportedAt >= PROGRESS_INTERVAL_MS) {
            lastReported = percent;
            lastReportedAt = performance.now();
            void this.deps.versions
              .update(versionId, { progress: percent })
              .then(() => announce(percent, 'processing'));
          }
        },
      );
      const verdict = judgeIntegrity({
        declared: await this.source.declaredLength(version),
        decodedSeconds: bins.frames / bins.sampleRate,
        probedSeconds: media.durationSeconds,
        problems,
      });
      if (problems.length > 0)
        context.log.warn({ versionId, problems: problems.slice(0, 5) }, 'decoder reported bad data');
      if (verdict.kind === 'corrupt') return await this.markCorrupt(versionId, verdict.error, announce);
      if (verdict.warning) context.log.warn({ versionId, warning: verdict.warning }, 'version plays with a warning');
      const key = (name: string) => versionBlobKey(version.projectId, versionId, name);
      await this.deps.blobs.put(key('peaks.json'), Buffer.from(JSON.stringify(bins.file())), 'application/json');
      await this.deps.blobs.put(key('waveform.png'), renderWaveformThumbnail(bins.coarse()), 'image/png');
      // The preview made for browsers that can't play the original is lossy AAC already: it serves both.
      if (preview) await this.deps.blobs.put(key('preview.m4a'), createReadStream(previewPath), 'audio/mp4');
      await this.deps.versions.update(versionId, {
        status: 'ready',
        progress: 95,
        error: null,
        warning: verdict.warning,
        durationSeconds: verdict.durationSeconds,
        media: {
          format: media.format,
          codec: media.codec,
          channels: media.channels,
          sampleRate: media.sampleRate,
          bitDepth: media.bitDepth,
          bitRate: media.bitRate,
        },
        peaksKey: key('peaks.json'),
        thumbnailKey: key('waveform.png'),
        previewKey: preview ? key('preview.m4a') : null,
        // A lossy preview made by an earlier run stays playable until this run replaces it.
        ...(preview ? { lossyPreviewKey: key('preview.m4a') } : {}),
      });
      await announce(95, 'ready');
      return { input, media, loudness, needsLossyPreview: !preview };
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      // The tool's words name server paths: they go to the log, users get a plain sentence.
      context.log.warn({ versionId, reason: error.message }, 'version is corrupt');
      return await this.markCorrupt(
        versionId,
        error.reason === 'no-audio' ? MEDIA_MESSAGES.noAudio : MEDIA_MESSAGES.unreadable,
        announce,
      );
    } finally {
      await rm(previewPath, { force: true });
    }
  }

  private async markCorrupt(
    versionId: string,
    message: string,
    announce: (progress: number, status: VersionRow['status']) => Promise<void>,
  ): Promise<null> {
    await this.deps.versions.update(versionId, { status: 'corrupt', error: message, warning: null, progress: 100 });
    await announce(100, 'corrupt');
    return null;
  }

  /** The lossy playback preview, then the loudness: neither holds up the review. */
  private async backgroundPhase(
    version: VersionRow,
    { input, media, loudness, needsLossyPreview }: Reviewable,
    work: string,
    context: Pick<JobContext, 'log'>,
    announce: (progress: number, status: VersionRow['status']) => Promise<void>,
  ): Promise<void> {
    const versionId = version.id;
    let progress = 95;
    // The loudness is stored the moment it is measured (it is metered while the waveform is made),
    // not after the preview's encode, which takes minutes for an hour's file; the two run side by
    // side, so the job takes as long as the longer of them.
    const loudnessStored = loudness
      .catch((error: unknown) => {
        context.log.warn({ versionId, err: error }, 'loudness analysis failed; ignored');
        return null;
      })
      .then(async (measured) => {
        if (!measured) return;
        // A version gone meanwhile: nothing to store, and the preview's own update cleans up.
        const kept = await this.deps.versions.update(versionId, { loudness: measured }).catch(() => null);
        if (!kept) return;
        progress = Math.max(progress, 96);
        await announce(progress, 'ready');
      });
    if (needsLossyPreview) {
      const key = await this.storeLossyPreview(version, input, media, work).catch((error: unknown) => {
        context.log.warn(
          { versionId, err: error },
          'lossy preview failed; playback without downloads stays unavailable',
        );
        return null;
      });
      if (key) {
        // The version may have gone meanwhile (deleted, its account erased): its new file goes too.
        const kept = await this.deps.versions
          .update(versionId, { lossyPreviewKey: key, progress: 97 })
          .catch(() => null);
        if (!kept) {
          await this.deps.blobs.delete(key).catch(() => undefined);
          await loudnessStored;
          return;
        }
        progress = 97;
        await announce(97, 'ready');
      }
    }
    await loudnessStored;
    await this.deps.versions.update(versionId, { progress: 100 });
    await announce(100, 'ready');
  }

  /**
   * Lossy previews for ready versions without one (processed before previews existed, or whose
   * encode failed), a few per call, so downloads-off playback works for them too.
   */
  async backfillLossyPreviews(log: JobContext['log'], limit = 10): Promise<number> {
    let made = 0;
    for (const version of await this.deps.versions.listMissingLossyPreview(limit)) {
      try {
        const media = version.media as Pick<ProbeResult, 'sampleRate' | 'channels'> | null;
        // A browser preview made for the original is lossy AAC already.
        const key = version.previewKey ?? (await this.backfillLossyPreview(version, media));
        await this.deps.versions.update(version.id, { lossyPreviewKey: key });
        made++;
      } catch (error) {
        log.warn({ versionId: version.id, err: error }, 'lossy preview backfill failed; tried again later');
      }
    }
    return made;
  }

  private async backfillLossyPreview(
    version: VersionRow,
    media: Pick<ProbeResult, 'sampleRate' | 'channels'> | null,
  ): Promise<string> {
    const work = await this.deps.temp.folder('lossy-backfill');
    try {
      return await this.storeLossyPreview(
        version,
        await this.source.input(version),
        media ?? { sampleRate: 48000, channels: 2 },
        work,
      );
    } finally {
      await this.deps.temp.remove(work);
    }
  }

  private async storeLossyPreview(
    version: VersionRow,
    input: string,
    media: Pick<ProbeResult, 'sampleRate' | 'channels'>,
    work: string,
  ): Promise<string> {
    const output = join(work, 'lossy.m4a');
    try {
      await encodeLossyPreview(this.deps.tools, input, output, media);
      const key = lossyPreviewKeyOf(version);
      await this.deps.blobs.put(key, createReadStream(output), 'audio/mp4');
      return key;
    } finally {
      await rm(output, { force: true });
    }
  }
}

interface Reviewable {
  input: string;
  media: ProbeResult;
  loudness: Promise<Loudness | null>;
  needsLossyPreview: boolean;
}
