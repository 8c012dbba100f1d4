import { inputProblem } from './names';

/** Where a refused value sits in a request ("body.files.0.path") and why. */
export interface InputIssue {
  path: string;
  message: string;
}

/** A value met on the walk, with how it was reached (the path is only spelled out for a refusal). */
interface Step {
  value: unknown;
  key: string;
  parent: Step | null;
}

const pathOf = (step: Step): string => {
  const keys: string[] = [];
  for (let at: Step | null = step; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * The first string (value or object key) in parsed input that the input rule refuses, or null.
 * Walks with its own stack, so a deeply nested body cannot exhaust the call stack; it visits each
 * value once, and the body limit bounds how many there are.
 */
export function scanInput(value: unknown, root: string, multiline: boolean): InputIssue | null {
  const stack: Step[] = [{ value, key: root, parent: null }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const current = step.value;
    if (typeof current === 'string') {
      const message = inputProblem(current, multiline);
      if (message) return { path: pathOf(step), message };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: String(i), parent: step });
    } else if (isPlainObject(current)) {
      for (const [key, child] of Object.entries(current)) {
        const keyMessage = inputProblem(key, false);
        if (keyMessage) return { path: pathOf(step), message: keyMessage };
        stack.push({ value: child, key, parent: step });
      }
    }
  }
  return null;
}

/**
 * Parsed JSON, a query or params (the HTTP layer builds those on prototypes of its own), never the
 * bytes of an upload part or a stream: they are not text.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date) return false;
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}
