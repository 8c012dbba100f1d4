import { spawn } from 'node:child_process';
import { toolCommand, tracked } from './tool-processes';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaTools } from './ffmpeg';

export type ImageType = 'png' | 'jpeg' | 'webp';

/** Larger sides than this are refused before decoding: a small file can still unpack into gigabytes. */
const MAX_SIDE = 8000;

/** The image type from the file's first bytes (never from a name or a declared type). */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

/** An image ffmpeg can't read, or one too large to decode safely. */
export class ImageError extends Error {}

function run(binary: string, args: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = tracked(spawn(...toolCommand(binary, args), { stdio: ['ignore', 'pipe', 'pipe'] }));
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

/** Width and height of the first video stream (an image is a one-frame video to ffprobe). */
export async function imageSize(tools: MediaTools, input: string): Promise<{ width: number; height: number }> {
  const result = await run(tools.ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'json',
    input,
  ]);
  const stream = (JSON.parse(result.stdout.toString() || '{}') as { streams?: { width?: number; height?: number }[] })
    .streams?.[0];
  if (result.code !== 0 || !stream?.width || !stream.height) throw new ImageError('The picture could not be read.');
  return { width: stream.width, height: stream.height };
}

/**
 * A square JPEG of `size` pixels: the middle square of the picture (the browser crops already; a
 * picture sent otherwise is centre-cropped rather than squashed), transparency laid on white.
 */
export async function squareJpeg(tools: MediaTools, bytes: Buffer, type: ImageType, size: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'mixroom-image-'));
  try {
    const input = join(dir, `source.${type}`);
    await writeFile(input, bytes);
    const { width, height } = await imageSize(tools, input);
    if (width > MAX_SIDE || height > MAX_SIDE)
      throw new ImageError(`The picture is too large (at most ${MAX_SIDE} pixels a side).`);
    const result = await run(tools.ffmpeg, [
      '-v',
      'error',
      '-i',
      input,
      '-f',
      'lavfi',
      '-i',
      `color=c=white:s=${size}x${size}`,
      '-filter_complex',
      `[0:v]scale=${size}:${size}:force_original_aspect_ratio=increase,crop=${size}:${size},format=rgba[fg];[1:v][fg]overlay=shortest=1,format=yuvj420p`,
      '-frames:v',
      '1',
      '-q:v',
      '3',
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ]);
    if (result.code !== 0 || result.stdout.length === 0) throw new ImageError('The picture could not be read.');
    return result.stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
