import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAudioExtension } from '@mixroom/shared';
import type { BlobStore } from '../../platform/blob/blob-store';
import { DiskBlobStore } from '../../platform/blob/disk-blob-store';
import type { JobContext } from '../../platform/jobs/job-definition';
import { analyze, MediaError, probe, renderSpectrogram, type MediaTools, type ProbeResult } from '../../platform/media/ffmpeg';
import { renderWaveformThumbnail } from '../../platform/media/png';
import type { ProjectsRepository } from './projects.repository';
import type { StorageEvents } from './storage.events';
import type { VersionRow, VersionsRepository } from './versions.repository';

const PLAYABLE_CODECS = new Set(['mp3', 'aac', 'flac', 'vorbis', 'opus', 'pcm_s16le', 'pcm_s24le', 'pcm_f32le', 'pcm_u8', 'alac']);
const PLAYABLE_EXTENSIONS = new Set(['mp3', 'm4a', 'aac', 'flac', 'wav', 'ogg', 'opus', 'webm']);

/** Browsers play most formats as they are; AIFF and exotic WAV codecs get an AAC preview. */
export function needsPreview(extension: string, media: ProbeResult): boolean {
  return !PLAYABLE_EXTENSIONS.has(extension) || !PLAYABLE_CODECS.has(media.codec);
}

/**
 * The media pipeline of DESIGN.md: probe → one decode pass (loudness, true peak, peaks, preview) →
 * thumbnail. An undecodable file marks the version corrupt with the reason: never a crash.
 */
export class MediaService {
  /** Spectrograms being rendered, so a second viewer waits for the first render instead of starting another. */
  private readonly rendering = new Map<string, Promise<void>>();

  constructor(
    private readonly versions: VersionsRepository,
    private readonly projects: ProjectsRepository,
    private readonly blobs: BlobStore,
    private readonly tools: MediaTools,
    private readonly events: StorageEvents,
    private readonly signTtlSeconds: number,
  ) {}

  /** The spectrogram image of a processed version, rendered on first demand and kept with its files. */
  async spectrogramUrl(version: VersionRow): Promise<string> {
    const key = `projects/${version.projectId}/${version.id}/spectrogram.png`;
    if (!(await this.blobs.head(key))) {
      let render = this.rendering.get(key);
      if (!render) {
        render = this.renderSpectrogram(version, key).finally(() => this.rendering.delete(key));
        this.rendering.set(key, render);
      }
      await render;
    }
    return this.blobs.signDownloadUrl(key, { expiresInSeconds: this.signTtlSeconds, contentType: 'image/png' });
  }

  private async renderSpectrogram(version: VersionRow, key: string): Promise<void> {
    const output = join(tmpdir(), `mixroom-spectrogram-${randomUUID()}.png`);
    try {
      await renderSpectrogram(this.tools, await this.input(version), output);
      await this.blobs.put(key, createReadStream(output), 'image/png');
    } finally {
      await rm(output, { force: true });
    }
  }

  private async input(version: VersionRow): Promise<string> {
    if (this.blobs instanceof DiskBlobStore) return this.blobs.localPath(version.blobKey);
    return this.blobs.signDownloadUrl(version.blobKey, { expiresInSeconds: 6 * 3600 });
  }

  async process(versionId: string, context: Pick<JobContext, 'log' | 'progress'>): Promise<void> {
    const version = await this.versions.find(versionId);
    if (!version) return;
    const project = await this.projects.find(version.projectId);
    if (!project) return;
    const announce = async (progress: number, status: VersionRow['status']) => {
      await this.events.progress(project.groupId, { projectId: project.id, versionId, progress, status });
      await context.progress(progress);
    };
    // Files of ANY projects (PDFs, videos, sessions) are stored as they are.
    if (project.type === 'ANY' && !isAudioExtension(version.fileExtension)) {
      await this.versions.update(versionId, { status: 'ready', progress: 100 });
      await announce(100, 'ready');
      return;
    }
    const previewPath = join(tmpdir(), `mixroom-preview-${randomUUID()}.m4a`);
    try {
      const input = await this.input(version);
      const media = await probe(this.tools, input);
      const preview = needsPreview(version.fileExtension, media);
      let lastReported = 0;
      const result = await analyze(this.tools, input, {
        durationSeconds: media.durationSeconds,
        ...(preview ? { previewPath } : {}),
        onProgress: (fraction) => {
          const percent = Math.floor(fraction * 90);
          if (percent >= lastReported + 5) {
            lastReported = percent;
            void this.versions.update(versionId, { progress: percent }).then(() => announce(percent, 'processing'));
          }
        },
      });
      const base = `projects/${project.id}/${versionId}`;
      await this.blobs.put(`${base}/peaks.json`, Buffer.from(JSON.stringify(result.peaks)), 'application/json');
      await this.blobs.put(`${base}/waveform.png`, renderWaveformThumbnail(result.thumbnailLevels), 'image/png');
      if (preview) await this.blobs.put(`${base}/preview.m4a`, createReadStream(previewPath), 'audio/mp4');
      await this.versions.update(versionId, {
        status: 'ready',
        progress: 100,
        error: null,
        durationSeconds: media.durationSeconds,
        media: {
          format: media.format,
          codec: media.codec,
          channels: media.channels,
          sampleRate: media.sampleRate,
          bitDepth: media.bitDepth,
          bitRate: media.bitRate,
        },
        loudness: result.loudness,
        peaksKey: `${base}/peaks.json`,
        thumbnailKey: `${base}/waveform.png`,
        previewKey: preview ? `${base}/preview.m4a` : null,
      });
      await announce(100, 'ready');
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      context.log.warn({ versionId, reason: error.message }, 'version is corrupt');
      await this.versions.update(versionId, { status: 'corrupt', error: error.message, progress: 100 });
      await announce(100, 'corrupt');
    } finally {
      await rm(previewPath, { force: true });
    }
  }
}
