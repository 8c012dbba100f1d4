import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../../platform/blob/blob-store';
import { DiskBlobStore } from '../../../platform/blob/disk-blob-store';
import {
  HEADER_BYTES,
  id3v2Length,
  readDeclaredLength,
  type DeclaredLength,
} from '../../../platform/media/audio-integrity';
import {
  decodePeaks,
  measureLoudness,
  type DecodedPeaks,
  type Loudness,
  type MediaTools,
  type ProbeResult,
} from '../../../platform/media/ffmpeg';
import { LoudnessMeter } from '../../../platform/media/loudness-meter';
import { LoudnessTask } from '../../../platform/media/loudness-task';
import { readFileRange, readWavLayout, scanWavPeaks, type WavLayout } from '../../../platform/media/wav-peaks';
import type { VersionRow } from '../projects/versions.repository';

/**
 * Reading a version's stored original for the media job: where the tools read it (a local path or
 * a signed URL), waveform peaks straight from a PCM WAV's bytes, and the length its header declares.
 */
export class VersionSource {
  constructor(
    private readonly blobs: BlobStore,
    private readonly tools: MediaTools,
  ) {}

  /** What ffmpeg opens: the file on disk, or a signed URL to it in object storage. */
  async input(version: VersionRow): Promise<string> {
    if (this.blobs instanceof DiskBlobStore) return this.blobs.localPath(version.blobKey);
    return this.blobs.signDownloadUrl(version.blobKey, { expiresInSeconds: 6 * 3600 });
  }

  /**
   * Waveform peaks (read straight from the bytes of a PCM WAV, else through an ffmpeg decode) and,
   * beside them, the loudness: metered on a worker thread from the same bytes or the same decode,
   * while the peaks are made. Only files of more than two channels (whose channel weights depend on
   * their layout) are measured by ffmpeg's ebur128 in a run of its own.
   */
  async peaks(
    version: VersionRow,
    input: string,
    media: ProbeResult,
    previewPath: string | null,
    onProgress: (fraction: number) => void,
  ): Promise<DecodedPeaks & { loudness: Promise<Loudness | null> }> {
    if (!previewPath && version.fileExtension === 'wav') {
      const size = (await this.blobs.head(version.blobKey))?.size ?? 0;
      const head = await streamToBuffer(
        await this.blobs.get(version.blobKey, { start: 0, end: Math.min(size, 65536) - 1 }),
      );
      const layout = readWavLayout(head, size);
      if (layout && layout.dataLength > 0) return this.scanWav(version, input, layout, onProgress);
    }
    const format = { channels: media.channels, sampleRate: media.sampleRate, bitsPerSample: 32, float: true };
    const meter = LoudnessMeter.supports(format) ? LoudnessTask.fed(format) : null;
    const loudness = meter ? meter.result : measureLoudness(this.tools, input);
    loudness.catch(() => undefined);
    try {
      const decoded = await decodePeaks(this.tools, input, {
        sampleRate: media.sampleRate,
        channels: media.channels,
        durationSeconds: media.durationSeconds,
        ...(previewPath ? { previewPath } : {}),
        ...(meter ? { pcm: meter } : {}),
        onProgress,
      });
      return { ...decoded, loudness };
    } catch (error) {
      await meter?.stop();
      throw error;
    }
  }

  private async scanWav(
    version: VersionRow,
    input: string,
    layout: WavLayout,
    onProgress: (fraction: number) => void,
  ): Promise<DecodedPeaks & { loudness: Promise<Loudness | null> }> {
    const frameBytes = (layout.bitsPerSample / 8) * layout.channels;
    const local = this.blobs instanceof DiskBlobStore ? this.blobs.localPath(version.blobKey) : null;
    const range = { path: local ?? '', start: layout.dataStart, length: layout.dataLength };
    // On local disk the meter reads the samples itself, split across every core, while this
    // thread makes the waveform (the version is ready long before its loudness is known); from
    // object storage the scan below hands the meter every chunk it reads.
    const meter = LoudnessMeter.supports(layout)
      ? local
        ? LoudnessTask.ofFile(layout, range, availableParallelism())
        : LoudnessTask.fed(layout)
      : null;
    const loudness = meter ? meter.result : measureLoudness(this.tools, input);
    loudness.catch(() => undefined);
    try {
      const samples = local
        ? readFileRange(local, layout.dataStart, layout.dataLength, frameBytes)
        : ((await this.blobs.get(version.blobKey, {
            start: layout.dataStart,
            end: layout.dataStart + layout.dataLength - 1,
          })) as AsyncIterable<Buffer>);
      const fed = meter && !local ? feeding(samples, meter) : samples;
      // No decoder runs here, so none reports problems: a cut-off tail shows in the length check.
      return { bins: await scanWavPeaks(fed, layout, onProgress), problems: [], loudness };
    } catch (error) {
      await meter?.stop();
      throw error;
    }
  }

  /** What the file's own header promises (WAV, AIFF, FLAC, MP3), read from its first bytes. */
  async declaredLength(version: VersionRow): Promise<DeclaredLength | null> {
    const size = (await this.blobs.head(version.blobKey))?.size ?? version.fileSize;
    const read = async (start: number) =>
      start < size
        ? streamToBuffer(
            await this.blobs.get(version.blobKey, { start, end: Math.min(size, start + HEADER_BYTES) - 1 }),
          )
        : Buffer.alloc(0);
    const head = await read(0);
    // MP3 (and some FLAC) files open with an ID3 tag, cover art included: the audio header follows it.
    const tag = id3v2Length(head);
    return readDeclaredLength(tag > 0 ? await read(tag) : head, size);
  }
}

/** The chunks of `samples`, each also posted to the meter, waiting whenever the meter is behind. */
async function* feeding(samples: AsyncIterable<Buffer>, meter: LoudnessTask): AsyncGenerator<Buffer> {
  for await (const chunk of samples) {
    if (!meter.push(chunk)) await meter.drained();
    yield chunk;
  }
  meter.end();
}

async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
