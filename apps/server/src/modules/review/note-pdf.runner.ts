import { AppError } from '../../http/app-error';
import { runWorkerTask, WorkerGate, WorkerLimitError } from '../../platform/threads/worker-task';
import type { NotePdfInput } from './note-pdf';

/**
 * What one PDF export may take. A 200,000-character note (the most a note holds) renders in well
 * under a second; these bounds only stop input built to be slow, and leave room for a busy machine.
 */
export const NOTE_PDF_LIMITS = { timeoutMs: 20_000, maxHeapMb: 256, running: 2, waiting: 8 } as const;

export const NOTE_PDF_MESSAGES = {
  tooComplex: 'These notes are too long or too complex to export as a PDF. Shorten them and try again.',
  busy: 'Too many PDF exports are running right now. Please try again in a moment.',
} as const;

const gate = new WorkerGate(NOTE_PDF_LIMITS);
const task = new URL('./note-pdf.worker.ts', import.meta.url);

/** Renders notes to a PDF in a worker thread, within NOTE_PDF_LIMITS; a limit reached is a 422 or 503. */
export async function renderNotePdfIsolated(input: NotePdfInput): Promise<Buffer> {
  try {
    const bytes = await gate.run(() => runWorkerTask<Uint8Array>(task, input, NOTE_PDF_LIMITS));
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (!(error instanceof WorkerLimitError)) throw error;
    if (error.limit === 'busy') throw new AppError(503, 'BUSY', NOTE_PDF_MESSAGES.busy);
    throw new AppError(422, 'NOTE_TOO_COMPLEX', NOTE_PDF_MESSAGES.tooComplex);
  }
}
