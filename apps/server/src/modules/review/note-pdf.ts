import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import { noteBlocks, type NoteBlock, type NoteRun } from './note-html';

const require = createRequire(import.meta.url);
// DejaVu covers Latin, Greek, Cyrillic and most symbols engineers type (♯, ♭, ±, →): the PDF's
// built-in Helvetica would garble them.
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONTS = {
  regular: join(fontDir, 'DejaVuSans.ttf'),
  bold: join(fontDir, 'DejaVuSans-Bold.ttf'),
  italic: join(fontDir, 'DejaVuSans-Oblique.ttf'),
  boldItalic: join(fontDir, 'DejaVuSans-BoldOblique.ttf'),
  mono: join(fontDir, 'DejaVuSansMono.ttf'),
};

/** Heading sizes in points, level 1–5; body text is 12 pt like the editor's default. */
const HEADING_PT = [0, 24, 20, 16, 14, 12];
const BODY_PT = 12;

/**
 * pdfkit breaks a word wider than the line by measuring ever longer prefixes of it, which grows with
 * the square of its length: one 20,000-character word took 10 s, 200,000 ran out of memory. A word
 * longer than LONG_WORD is therefore handed over in PIECE-character pieces, each its own text call:
 * the line may break between them, and none is long enough to be slow.
 */
const LONG_WORD = 48;
const PIECE = 24;

/** `text` as pieces to write one after another: long words cut, everything else as it was. */
export function cutLongWords(text: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const token of text.split(/(\s+)/)) {
    if (token.length <= LONG_WORD) {
      current += token;
      continue;
    }
    // By code points, so no piece ends in half a surrogate pair.
    const chars = Array.from(token);
    for (let at = 0; at < chars.length; at += PIECE) {
      pieces.push(current + chars.slice(at, at + PIECE).join(''));
      current = '';
    }
  }
  if (current || pieces.length === 0) pieces.push(current);
  return pieces;
}

const fontFor = (run: NoteRun, heading: boolean) => {
  if (run.code) return 'mono';
  const bold = run.bold || heading;
  if (bold && run.italic) return 'boldItalic';
  return bold ? 'bold' : run.italic ? 'italic' : 'regular';
};

function writeBlock(doc: PDFKit.PDFDocument, block: NoteBlock): void {
  const left = doc.page.margins.left + block.depth * 18;
  const width = doc.page.width - doc.page.margins.right - left;
  if (block.kind === 'rule') {
    doc
      .moveDown(0.3)
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .strokeColor('#999999')
      .stroke()
      .moveDown(0.5);
    return;
  }
  const heading = block.kind === 'heading';
  const prefix = block.kind === 'bullet' ? '•  ' : block.kind === 'ordered' ? `${block.level}.  ` : '';
  const runs = block.runs.length
    ? block.runs
    : [{ text: ' ', bold: false, italic: false, underline: false, strike: false, code: false, sizePt: null }];
  const base = heading ? HEADING_PT[block.level]! : BODY_PT;
  doc.x = left;
  if (heading) doc.moveDown(0.4);
  doc.fillColor(block.kind === 'quote' ? '#555555' : '#111111');
  // One paragraph is one pdfkit text flow: the first call places it, the others continue it.
  const parts = prefix ? [{ text: prefix, font: 'regular', size: base, underline: false, strike: false }] : [];
  for (const run of runs)
    for (const text of cutLongWords(run.text))
      parts.push({
        text,
        font: fontFor(run, heading),
        size: run.sizePt ?? base,
        underline: run.underline,
        strike: run.strike,
      });
  parts.forEach((part, index) => {
    const options = { continued: index < parts.length - 1, underline: part.underline, strike: part.strike, lineGap: 2 };
    doc.font(part.font).fontSize(part.size);
    if (index === 0) doc.text(part.text, left, doc.y, { ...options, width });
    else doc.text(part.text, options);
  });
  doc.moveDown(heading ? 0.3 : 0.35);
}

export interface NotePdfInput {
  title: string;
  subtitle: string;
  html: string;
}

/**
 * Renders version notes (sanitized HTML) to a PDF: a title line, then the notes as written. CPU-bound
 * and as heavy as its input: requests run it in a worker thread with limits (note-pdf.runner.ts).
 */
export function renderNotePdf(input: NotePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: input.title, Creator: 'Mixroom' } });
  for (const [name, path] of Object.entries(FONTS)) doc.registerFont(name, path);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('bold').fontSize(18).fillColor('#111111').text(input.title);
  doc.font('regular').fontSize(10).fillColor('#666666').text(input.subtitle).moveDown(1);
  for (const block of noteBlocks(input.html)) writeBlock(doc, block);
  doc.end();
  return done;
}
