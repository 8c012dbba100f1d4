import { parentPort, workerData } from 'node:worker_threads';
import { sanitizeNoteHtml } from './note-html';
import { renderNotePdf, type NotePdfInput } from './note-pdf';

// Runs inside a worker thread started by note-pdf.runner.ts: sanitizes the notes as the editor
// would save them, renders, posts the bytes, and ends.
const input = workerData as NotePdfInput;
const pdf = await renderNotePdf({ ...input, html: sanitizeNoteHtml(input.html) });
parentPort?.postMessage(pdf);
