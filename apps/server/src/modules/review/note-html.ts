import { NOTE_LIMITS } from '@mixroom/shared';
import { HTMLElement, NodeType, parse, type Node } from 'node-html-parser';

/** A run of text with the marks the notes editor can set. */
export interface NoteRun {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  code: boolean;
  sizePt: number | null;
}

/** One line of the document as the PDF lays it out. */
export interface NoteBlock {
  kind: 'paragraph' | 'heading' | 'bullet' | 'ordered' | 'quote' | 'code' | 'rule';
  /** Heading level 1–5, or the item's number in an ordered list. */
  level: number;
  depth: number;
  runs: NoteRun[];
}

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'blockquote', 'pre', 'ul', 'ol', 'li', 'hr']);
const MARKS: Record<string, keyof Pick<NoteRun, 'bold' | 'italic' | 'underline' | 'strike' | 'code'>> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  u: 'underline',
  s: 'strike',
  del: 'strike',
  code: 'code',
};
const SIZES = new Set<number>(NOTE_LIMITS.fontSizesPt);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The font size a span sets, when it is one the editor offers (anything else is dropped). */
function spanSize(element: HTMLElement): number | null {
  const match = /font-size:\s*(\d+)pt/i.exec(element.getAttribute('style') ?? '');
  const size = match ? Number(match[1]) : NaN;
  return SIZES.has(size) ? size : null;
}

const tagOf = (node: Node) => (node instanceof HTMLElement ? node.rawTagName.toLowerCase() : '');

/**
 * Keeps only what the notes editor produces: paragraphs, headings 1–5, lists, quotes, code, rules,
 * bold/italic/underline/strike and the offered font sizes. Scripts, handlers, links and foreign
 * styles go; text stays. What is stored is therefore safe to render anywhere.
 */
export function sanitizeNoteHtml(html: string): string {
  const walk = (node: Node): string => {
    if (node.nodeType === NodeType.TEXT_NODE) return escapeText(node.text);
    if (!(node instanceof HTMLElement)) return '';
    const tag = tagOf(node);
    if (tag === 'script' || tag === 'style' || tag === 'iframe' || tag === 'object') return '';
    const inner = node.childNodes.map(walk).join('');
    if (tag === 'br' || tag === 'hr') return `<${tag}>`;
    if (BLOCKS.has(tag) || MARKS[tag]) return `<${tag}>${inner}</${tag}>`;
    if (tag === 'span') {
      const size = spanSize(node);
      return size ? `<span style="font-size: ${size}pt">${inner}</span>` : inner;
    }
    return inner;
  };
  return parse(html, { comment: false }).childNodes.map(walk).join('');
}

const plainRun = (text: string, marks: Omit<NoteRun, 'text'>): NoteRun => ({ text, ...marks });

/** The document as lines of styled runs, in reading order (for the PDF export). */
export function noteBlocks(html: string): NoteBlock[] {
  const blocks: NoteBlock[] = [];
  const none: Omit<NoteRun, 'text'> = {
    bold: false,
    italic: false,
    underline: false,
    strike: false,
    code: false,
    sizePt: null,
  };

  const inline = (node: Node, marks: Omit<NoteRun, 'text'>, runs: NoteRun[]) => {
    if (node.nodeType === NodeType.TEXT_NODE) {
      if (node.text) runs.push(plainRun(node.text, marks));
      return;
    }
    if (!(node instanceof HTMLElement)) return;
    const tag = tagOf(node);
    if (tag === 'br') return runs.push(plainRun('\n', marks));
    const mark = MARKS[tag];
    const next = {
      ...marks,
      ...(mark ? { [mark]: true } : {}),
      ...(tag === 'span' && spanSize(node) ? { sizePt: spanSize(node) } : {}),
    };
    for (const child of node.childNodes) inline(child, next, runs);
  };

  const block = (node: Node, context: { depth: number; list: 'bullet' | 'ordered' | null; quote: boolean }) => {
    const tag = tagOf(node);
    if (tag === 'ul' || tag === 'ol') {
      let index = 0;
      for (const child of node.childNodes) {
        if (tagOf(child) !== 'li') continue;
        index += 1;
        const runs: NoteRun[] = [];
        const nested: Node[] = [];
        for (const part of child.childNodes) {
          if (tagOf(part) === 'ul' || tagOf(part) === 'ol') nested.push(part);
          else if (tagOf(part) === 'p') part.childNodes.forEach((n) => inline(n, none, runs));
          else inline(part, none, runs);
        }
        blocks.push({ kind: tag === 'ul' ? 'bullet' : 'ordered', level: index, depth: context.depth, runs });
        for (const list of nested) block(list, { ...context, depth: context.depth + 1 });
      }
      return;
    }
    if (tag === 'blockquote') return node.childNodes.forEach((child) => block(child, { ...context, quote: true }));
    if (tag === 'hr') return blocks.push({ kind: 'rule', level: 0, depth: context.depth, runs: [] });
    const heading = /^h([1-5])$/.exec(tag);
    const runs: NoteRun[] = [];
    node.childNodes.forEach((child) => inline(child, tag === 'pre' ? { ...none, code: true } : none, runs));
    if (node.nodeType === NodeType.TEXT_NODE && node.text.trim()) runs.push(plainRun(node.text, none));
    if (!runs.length && tag !== 'p') return;
    blocks.push({
      kind: heading ? 'heading' : tag === 'pre' ? 'code' : context.quote ? 'quote' : 'paragraph',
      level: heading ? Number(heading[1]) : 0,
      depth: context.depth,
      runs,
    });
  };

  for (const node of parse(html, { comment: false }).childNodes) block(node, { depth: 0, list: null, quote: false });
  return blocks;
}

/** The notes as plain text, for search and for checking an export. */
export function noteText(html: string): string {
  return noteBlocks(html)
    .map((b) => b.runs.map((r) => r.text).join(''))
    .join('\n');
}
