import type { ProbeResult } from '../../../platform/media/ffmpeg';

const PLAYABLE_CODECS = new Set([
  'mp3',
  'aac',
  'flac',
  'vorbis',
  'opus',
  'pcm_s16le',
  'pcm_s24le',
  'pcm_f32le',
  'pcm_u8',
  'alac',
]);
const PLAYABLE_EXTENSIONS = new Set(['mp3', 'm4a', 'aac', 'flac', 'wav', 'ogg', 'opus', 'webm']);

/** Browsers play most formats as they are; AIFF and exotic WAV codecs get an AAC preview. */
export function needsPreview(extension: string, media: ProbeResult): boolean {
  return !PLAYABLE_EXTENSIONS.has(extension) || !PLAYABLE_CODECS.has(media.codec);
}
