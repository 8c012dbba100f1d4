import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { isAudioExtension } from '@mixroom/shared';
import type { BlobStore } from '../../platform/blob/blob-store';
import { DiskBlobStore } from '../../platform/blob/disk-blob-store';
import type { JobContext } from '../../platform/jobs/job-definition';
import {
  decodePeaks,
  measureLoudness,
  MediaError,
  probe,
  renderSpectrogram,
  type Loudness,
  type MediaTools,
  type ProbeResult,
} from '../../platform/media/ffmpeg';
import type { PeakBins } from '../../platform/media/peaks';
import { readFileRange, readWavLayout, scanWavPeaks } from '../../platform/media/wav-peaks';
import { renderWaveformThumbnail } from '../../platform/media/png';
import type { ProjectsRepository } from './projects.repository';
import type { StorageEvents } from './storage.events';
import type { VersionRow, VersionsRepository } from './versions.repository';

const PROGRESS_INTERVAL_MS = 500;
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

  /** Waveform peaks: read straight from the bytes of a PCM WAV, else through an ffmpeg decode. */
  private async peaks(
    version: VersionRow,
    input: string,
    media: ProbeResult,
    previewPath: string | null,
    onProgress: (fraction: number) => void,
  ): Promise<PeakBins> {
    if (!previewPath && version.fileExtension === 'wav') {
      const size = (await this.blobs.head(version.blobKey))?.size ?? 0;
      const head = await streamToBuffer(await this.blobs.get(version.blobKey, { start: 0, end: Math.min(size, 65536) - 1 }));
      const layout = readWavLayout(head, size);
      if (layout && layout.dataLength > 0) {
        // Local disk: large aligned reads. Object storage: the ranged stream.
        const samples =
          this.blobs instanceof DiskBlobStore
            ? readFileRange(this.blobs.localPath(version.blobKey), layout.dataStart, layout.dataLength, (layout.bitsPerSample / 8) * layout.channels)
            : ((await this.blobs.get(version.blobKey, { start: layout.dataStart, end: layout.dataStart + layout.dataLength - 1 })) as AsyncIterable<Buffer>);
        return scanWavPeaks(samples, layout, onProgress);
      }
    }
    return decodePeaks(this.tools, input, {
      sampleRate: media.sampleRate,
      durationSeconds: media.durationSeconds,
      ...(previewPath ? { previewPath } : {}),
      onProgress,
    });
  }

  /**
   * Two phases, side by side on two cores. The review needs the waveform, so the version is ready
   * as soon as the peaks, thumbnail and preview are stored (progress 95); the loudness pass (EBU
   * R128 with 4× oversampled true peak, several times slower than a decode) fills in after and
   * brings progress to 100. A loudness failure is logged and ignored (spec 2 §8).
   */
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
    let loudness: Promise<Loudness | null> | null = null;
    try {
      const input = await this.input(version);
      const media = await probe(this.tools, input);
      const preview = needsPreview(version.fileExtension, media);
      loudness = measureLoudness(this.tools, input);
      // Keep an early loudness failure from surfacing as an unhandled rejection while peaks run.
      loudness.catch(() => undefined);
      let lastReported = 0;
      let lastReportedAt = performance.now();
      const bins = await this.peaks(version, input, media, preview ? previewPath : null, (fraction) => {
        const percent = Math.floor(fraction * 90);
        // Each report is a database write and an event: a few a second are plenty for a progress bar.
        if (percent >= lastReported + 5 && performance.now() - lastReportedAt >= PROGRESS_INTERVAL_MS) {
          lastReported = percent;
          lastReportedAt = performance.now();
          void this.versions.update(versionId, { progress: percent }).then(() => announce(percent, 'processing'));
        }
      });
      const base = `projects/${project.id}/${versionId}`;
      await this.blobs.put(`${base}/peaks.json`, Buffer.from(JSON.stringify(bins.file())), 'application/json');
      await this.blobs.put(`${base}/waveform.png`, renderWaveformThumbnail(bins.coarse()), 'image/png');
      if (preview) await this.blobs.put(`${base}/preview.m4a`, createReadStream(previewPath), 'audio/mp4');
      await this.versions.update(versionId, {
        status: 'ready',
        progress: 95,
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
        peaksKey: `${base}/peaks.json`,
        thumbnailKey: `${base}/waveform.png`,
        previewKey: preview ? `${base}/preview.m4a` : null,
      });
      await announce(95, 'ready');
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      context.log.warn({ versionId, reason: error.message }, 'version is corrupt');
      await this.versions.update(versionId, { status: 'corrupt', error: error.message, progress: 100 });
      await announce(100, 'corrupt');
      return;
    } finally {
      await rm(previewPath, { force: true });
    }
    const measured = await loudness.catch((error: unknown) => {
      context.log.warn({ versionId, err: error }, 'loudness analysis failed; ignored');
      return null;
    });
    await this.versions.update(versionId, { loudness: measured, progress: 100 });
    await announce(100, 'ready');
  }
}

async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
