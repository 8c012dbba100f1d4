import { parentPort } from 'node:worker_threads';
import { startFileGet } from './file-get-copy';
import type { FileGetThreadRequest } from './file-get-protocol';

/**
 * The file-get thread: it runs the GETs it is sent, one at a time, and stays for the next (a thread
 * takes 0.1–0.4 s to start on a busy machine, a real share of a copy). Each message it posts names
 * its GET's id.
 */
let current: { id: number; stop(): void } | null = null;

parentPort?.on('message', (request: FileGetThreadRequest) => {
  if (request.type === 'stop') {
    if (current?.id === request.id) current.stop();
    return;
  }
  const { id } = request;
  const get = startFileGet(request.input, (message) => {
    if (message.type !== 'progress' && current?.id === id) current = null;
    parentPort?.postMessage({ id, ...message });
  });
  current = { id, stop: () => get.stop() };
});
