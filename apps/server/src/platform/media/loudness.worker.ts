import { parentPort, workerData } from 'node:worker_threads';
import { LoudnessMeter, type PcmFormat } from './loudness-meter';
import type { WavRange } from './loudness-parts';
import { readFileRange } from './wav-peaks';

/**
 * The loudness meter on its own thread (see meter-thread.ts): it reads a byte range of a PCM WAV
 * itself, or meters the chunks posted to it and acknowledges each, then posts the power of each
 * segment it keeps and the true peak (the caller joins the parts of a file and gates them).
 */
const input = workerData as {
  format: PcmFormat;
  file?: WavRange['bytes'];
  keep?: WavRange['keep'];
};
const port = parentPort!;
const meter = new LoudnessMeter(input.format);
const done = () => {
  const segments = meter.finishSegments(input.keep);
  port.postMessage({ type: 'done', segments }, [segments.powers.buffer as ArrayBuffer]);
};

if (input.file) {
  const frameBytes = (input.format.bitsPerSample / 8) * input.format.channels;
  void (async () => {
    for await (const chunk of readFileRange(input.file!.path, input.file!.start, input.file!.length, frameBytes)) {
      meter.push(chunk);
    }
    done();
  })().catch((error: unknown) => port.postMessage({ type: 'error', message: String(error) }));
} else {
  port.on('message', (message: { type: 'chunk'; data: Uint8Array } | { type: 'end' }) => {
    if (message.type === 'end') return done();
    meter.push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
    port.postMessage({ type: 'ack', bytes: message.data.byteLength });
  });
}
