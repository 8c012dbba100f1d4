import type { DurationsAnswer, DurationsBody } from '@mixroom/contracts';
import { extensionOf, isAudioExtension } from '@mixroom/shared';
import type { Drive } from '../../platform/drives/drive';
import type { Actor } from '../../platform/identity/actor';
import { HEADER_BYTES, id3v2Length, readDeclaredLength } from '../../platform/media/audio-integrity';
import { connectorPath } from './connectors.service';

/** Files read at once per request: a folder's headers arrive together without crowding the provider. */
const PARALLEL_READS = 4;
/** Lengths remembered, by account, path, size and date: a folder opened again costs no read. */
const REMEMBERED = 10_000;
/** ID3 tags (cover art) past this are not skipped: the length would cost a read of megabytes. */
const ID3_SKIP_MAX = 4 * 1024 * 1024;

export interface ConnectorDurationsDeps {
  /** The caller's linked account as a drive (404 when it is not theirs, or gone). */
  open: (userId: string, connectorId: string) => Promise<Drive>;
}

/**
 * How long the audio files of a linked folder are, before anyone plays them: the server reads each
 * file's first 64 KiB from the provider (a ranged read, never the file) and takes the length its
 * header declares (WAV, RF64, AIFF, FLAC, MP3 with a Xing/VBRI frame). Formats whose header does not
 * say (a CBR MP3 without one, AAC with its index at the end) are null, as is a file that cannot be read.
 */
export class ConnectorDurationsService {
  private readonly remembered = new Map<string, number | null>();

  constructor(private readonly deps: ConnectorDurationsDeps) {}

  async durations(
    actor: Actor,
    connectorId: string,
    body: DurationsBody,
    signal?: AbortSignal,
  ): Promise<DurationsAnswer> {
    const drive = await this.deps.open(actor.userId, connectorId);
    const files = body.files.map((file) => ({ ...file, path: connectorPath(file.path) }));
    const durations: Record<string, number | null> = {};
    const pending = files.filter((file) => {
      const known = this.remembered.get(this.keyOf(connectorId, file));
      if (known !== undefined) durations[file.path] = known;
      else if (!isAudioExtension(extensionOf(file.path))) durations[file.path] = null;
      return known === undefined && isAudioExtension(extensionOf(file.path));
    });
    let next = 0;
    const reader = async () => {
      for (let file = pending[next++]; file; file = pending[next++]) {
        if (signal?.aborted) return;
        const seconds = await this.lengthOf(drive, file.path, signal);
        durations[file.path] = seconds;
        this.remember(this.keyOf(connectorId, file), seconds);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, pending.length) }, reader));
    return { durations };
  }

  /** The declared length, or null when the header does not say or the file cannot be read. */
  private async lengthOf(drive: Drive, path: string, signal?: AbortSignal): Promise<number | null> {
    try {
      const head = await readHead(drive, path, 0, signal);
      if (!head) return null;
      // MP3s (and some FLACs) start with an ID3 tag; the audio's own header follows it.
      const tag = id3v2Length(head.bytes);
      if (tag === 0) return readDeclaredLength(head.bytes, head.size)?.declaredSeconds ?? null;
      if (tag > ID3_SKIP_MAX || tag >= head.size) return null;
      const after = tag < head.bytes.length ? head.bytes.subarray(tag) : null;
      const audio =
        after && after.length >= HEADER_BYTES / 2 ? after : (await readHead(drive, path, tag, signal))?.bytes;
      return audio ? (readDeclaredLength(audio, head.size - tag)?.declaredSeconds ?? null) : null;
    } catch {
      // A file gone, refused or unreadable has no length to show; the others still do.
      return null;
    }
  }

  private keyOf(connectorId: string, file: DurationsBody['files'][number]): string {
    return JSON.stringify([connectorId, file.path, file.size, file.modifiedAt]);
  }

  private remember(key: string, seconds: number | null): void {
    // A bound on memory: forgetting only costs a read.
    if (this.remembered.size >= REMEMBERED) this.remembered.clear();
    this.remembered.set(key, seconds);
  }
}

/** Up to HEADER_BYTES of `path` from `start`, and the file's whole size; null for an empty file. */
async function readHead(
  drive: Drive,
  path: string,
  start: number,
  signal?: AbortSignal,
): Promise<{ bytes: Buffer; size: number } | null> {
  const read = await drive.read(path, { range: { start, end: start + HEADER_BYTES - 1 }, signal });
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of read.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    // A provider that ignores the range sends the whole file: the head is all that is wanted.
    if (length >= HEADER_BYTES) break;
  }
  read.body.destroy();
  if (length === 0) return null;
  return { bytes: Buffer.concat(chunks).subarray(0, HEADER_BYTES), size: read.size };
}
