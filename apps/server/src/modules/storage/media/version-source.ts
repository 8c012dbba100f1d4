import type { Readable } from 'node:stream';
import type { BlobStore } from '../../../platform/blob/blob-store';
import { DiskBlobStore } from '../../../platform/blob/disk-blob-store';
import {
  HEADER_BYTES,
  id3v2Length,
  readDeclaredLength,
  type DeclaredLength,
} from '../../../platform/media/audio-integrity';
import { decodePeaks, type DecodedPeaks, type MediaTools, type ProbeResult } from '../../../platform/media/ffmpeg';
import { readFileRange, readWavLayout, scanWavPeaks } from '../../../platform/media/wav-peaks';
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

  /** Waveform peaks: read straight from the bytes of a PCM WAV, else through an ffmpeg decode. */
  async peaks(
    version: VersionRow,
    input: string,
    media: ProbeResult,
    previewPath: string | null,
    onProgress: (fraction: number) => void,
  ): Promise<DecodedPeaks> {
    if (!previewPath && version.fileExtension === 'wav') {
      const size = (await this.blobs.head(version.blobKey))?.size ?? 0;
      const head = await streamToBuffer(
        await this.blobs.get(version.blobKey, { start: 0, end: Math.min(size, 65536) - 1 }),
      );
      const layout = readWavLayout(head, size);
      if (layout && layout.dataLength > 0) {
        // Local disk: large aligned reads. Object storage: the ranged stream.
        const samples =
          this.blobs instanceof DiskBlobStore
            ? readFileRange(
                this.blobs.localPath(version.blobKey),
                layout.dataStart,
                layout.dataLength,
                (layout.bitsPerSample / 8) * layout.channels,
              )
            : ((await this.blobs.get(version.blobKey, {
                start: layout.dataStart,
                end: layout.dataStart + layout.dataLength - 1,
              })) as AsyncIterable<Buffer>);
        // No decoder runs here, so none reports problems: a cut-off tail shows in the length check.
        return { bins: await scanWavPeaks(samples, layout, onProgress), problems: [] };
      }
    }
    return decodePeaks(this.tools, input, {
      sampleRate: media.sampleRate,
      channels: media.channels,
      durationSeconds: media.durationSeconds,
      ...(previewPath ? { previewPath } : {}),
      onProgress,
    });
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

async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
