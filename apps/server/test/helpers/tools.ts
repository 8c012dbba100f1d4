import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { Task, Version } from '@mixroom/contracts';
import { uploadFile } from '../../../web/src/features/uploads/upload-engine';
import { call } from './api';
import { storageClient } from './storage-client';
import { waitFor } from './wait-for';

/** The tools screens' client: a tools upload through the web's upload engine, then the task. */
export function toolsClient(baseUrl: string, token: string) {
  const client = storageClient(baseUrl, token);
  const api = client.api;
  return {
    api,
    storage: client,
    raw: (path: string, init: { method?: string; body?: unknown } = {}) => call(baseUrl, path, { ...init, token }),
    /** Uploads a file for a task's input; answers the upload's id. */
    async upload(path: string, fileName = basename(path)): Promise<string> {
      const file = await openAsBlob(path);
      const ticket = await api<{ upload: { id: string; size: number; partSize: number; partCount: number } }>(
        '/api/tools/uploads',
        { method: 'POST', body: { fileName, size: file.size } },
      );
      const none = {} as Version;
      await uploadFile({ api, ticket: { upload: ticket.upload, version: none }, file, complete: async () => none });
      return ticket.upload.id;
    },
    task: (id: string) => api<Task>(`/api/tools/tasks/${id}`),
    /** Waits until the task ends (COMPLETED or FAILED) and answers it. */
    settled: (id: string, timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const task = await api<Task>(`/api/tools/tasks/${id}`);
          return task.status === 'COMPLETED' || task.status === 'FAILED' ? task : null;
        },
        { timeoutMs, intervalMs: 100, what: `task ${id} to end` },
      ),
  };
}

/** What ffprobe reads of a file: codec and duration. */
export function probeFile(path: string): { codec: string; seconds: number } {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name:format=duration',
    '-of',
    'json',
    path,
  ]).toString();
  const parsed = JSON.parse(out) as { streams: { codec_name: string }[]; format: { duration: string } };
  return { codec: parsed.streams[0]!.codec_name, seconds: Number(parsed.format.duration) };
}

/** Silence of a given length that costs almost nothing to make and store (FLAC, 8 kHz mono). */
export function longSilence(path: string, seconds: number): string {
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=8000:cl=mono`,
    '-t',
    String(seconds),
    '-c:a',
    'flac',
    path,
  ]);
  return path;
}

/** A short "song": a low tone in both channels, a higher one in the centre, some noise. */
export function shortMix(path: string, seconds = 4): string {
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=110:sample_rate=44100:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=660:sample_rate=44100:duration=${seconds}`,
    '-filter_complex',
    '[0:a][1:a]amix=inputs=2:normalize=0,volume=0.4,aformat=channel_layouts=stereo[out]',
    '-map',
    '[out]',
    path,
  ]);
  return path;
}
