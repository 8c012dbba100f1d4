import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { CHANNELS, type SampleFormat } from './protocol.ts';

/** What to capture. One source per bridge: both socket pairs stream it. */
export type Source =
  | { kind: 'system'; device?: string | undefined }
  | { kind: 'input'; device: string }
  | { kind: 'file'; path: string; loop: boolean };

export type Platform = 'linux' | 'darwin' | 'win32';

export function currentPlatform(): Platform {
  const p = process.platform;
  return p === 'darwin' || p === 'win32' ? p : 'linux';
}

/** FFMPEG_PATH when set, else the first ffmpeg on PATH; null when there is none. */
export function locateFfmpeg(env: NodeJS.ProcessEnv = process.env, platform: Platform = currentPlatform()) {
  if (env.FFMPEG_PATH) return env.FFMPEG_PATH;
  const names = platform === 'win32' ? ['ffmpeg.exe', 'ffmpeg'] : ['ffmpeg'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, platform === 'win32' ? constants.F_OK : constants.X_OK);
        return candidate;
      } catch {
        // not in this folder
      }
    }
  }
  return null;
}

/**
 * The device the system source records on macOS when none is named: the usual loopback driver.
 * macOS has no way to record what plays without one; the user routes the DAW's output to it.
 */
export const MAC_LOOPBACK_DEVICE = 'BlackHole 2ch';

/** The ffmpeg arguments that open the source, before the output options. */
export function inputArgs(source: Source, platform: Platform = currentPlatform()): string[] {
  if (source.kind === 'file') {
    // -re reads the file at its own pace, so listeners hear it in real time instead of in a burst.
    return ['-re', ...(source.loop ? ['-stream_loop', '-1'] : []), '-i', source.path];
  }
  // Live devices: hand over what arrives at once instead of filling ffmpeg's probe buffers first.
  const live = ['-fflags', 'nobuffer'];
  if (platform === 'darwin') {
    const device = source.kind === 'system' ? (source.device ?? MAC_LOOPBACK_DEVICE) : source.device;
    // ":name" selects no video device and the named audio device.
    return [...live, '-f', 'avfoundation', '-i', `:${device}`];
  }
  if (platform === 'win32') {
    if (!source.device) {
      throw new Error(
        'on Windows, --source system needs --device: a loopback capture device such as "Stereo Mix" or ' +
          '"CABLE Output (VB-Audio Virtual Cable)"; see --list-devices',
      );
    }
    return [...live, '-f', 'dshow', '-audio_buffer_size', '20', '-i', `audio=${source.device}`];
  }
  // PulseAudio (and PipeWire's pulse server): every output has a ".monitor" source carrying what it
  // plays; @DEFAULT_MONITOR@ is the server's name for the default output's one.
  const device = source.kind === 'system' ? (source.device ?? '@DEFAULT_MONITOR@') : source.device;
  // 10 ms fragments (of 48 kHz stereo s16, pulse's default here) instead of the server's default
  // (often 25 ms or more) keep the latency low.
  return [...live, '-f', 'pulse', '-fragment_size', '1920', '-i', device];
}

/** Raw interleaved PCM on stdout, at the page's rate, always stereo. */
export function outputArgs(sampleRate: number, format: SampleFormat): string[] {
  return [
    '-vn',
    '-ac',
    String(CHANNELS),
    '-ar',
    String(sampleRate),
    '-c:a',
    `pcm_${format}`,
    '-f',
    format,
    // Write each packet as it is made: ffmpeg otherwise holds 32 KB (about 85 ms) before writing.
    '-flush_packets',
    '1',
    'pipe:1',
  ];
}

export function captureArgs(source: Source, sampleRate: number, format: SampleFormat, platform?: Platform) {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...inputArgs(source, platform),
    ...outputArgs(sampleRate, format),
  ];
}

export function describeSource(source: Source, platform: Platform = currentPlatform()): string {
  if (source.kind === 'file') return `file ${basename(source.path)}${source.loop ? ' (looped)' : ''}`;
  if (source.kind === 'input') return `input ${source.device}`;
  const fallback =
    platform === 'darwin' ? MAC_LOOPBACK_DEVICE : platform === 'linux' ? 'default output monitor' : '(none)';
  return `system audio (${source.device ?? fallback})`;
}

/** The command that prints the capture devices ffmpeg can open on this platform. */
export function listDevicesArgs(platform: Platform = currentPlatform()): string[] {
  if (platform === 'darwin') return ['-hide_banner', '-f', 'avfoundation', '-list_devices', 'true', '-i', ''];
  if (platform === 'win32') return ['-hide_banner', '-list_devices', 'true', '-f', 'dshow', '-i', 'dummy'];
  return ['-hide_banner', '-sources', 'pulse'];
}

/**
 * Prints the devices. ffmpeg lists them on stderr and, on macOS and Windows, then fails because
 * the dummy input does not open: that failure is expected and not reported.
 */
export function listDevices(ffmpeg: string, write: (text: string) => void, platform?: Platform): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, listDevicesArgs(platform), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => write(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => write(chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}
