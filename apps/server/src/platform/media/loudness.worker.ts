import { parentPort, workerData } from 'node:worker_threads';
import { LoudnessMeter, type PcmFormat } from './loudness-meter';
import { readFileRange } from './wav-peaks';

/**
 * The loudness meter on its own thread (see loudness-task.ts): it reads a PCM WAV's sample bytes
 * itself, or meters the chunks posted to it and acknowledges each, then posts the measurements.
 */
const input = workerData as { format: PcmFormat; file?: { path: string; start: number; length: number } };
const meter = new LoudnessMeter(input.format);
const port = parentPort!;
const done = () => port.postMessage({ type: 'result', loudness: meter.finish() });

if (input.file) {
  const frameBytes = (input.format.bitsPerSample / 8) * input.format.channels;
  void (async () => {
    for await (const chunk of readFileRange(input.file!.path, input.file!.start, input.file!.length, frameBytes))
      meter.push(chunk);
    done();
  })().catch((error: unknown) => port.postMessage({ type: 'error', message: String(error) }));
} else {
  port.on('message', (message: { type: 'chunk'; data: Uint8Array } | { type: 'end' }) => {
    if (message.type === 'end') return done();
    meter.push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
    port.postMessage({ type: 'ack', bytes: message.data.byteLength });
  });
}
