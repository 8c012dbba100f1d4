import { CLIENT_MESSAGE_TYPES, clientMessage, type ClientMessage, type ServerMessage } from '@mixroom/contracts';

type ErrorMessage = Extract<ServerMessage, { type: 'error' }>;

/**
 * Reads one client message. What can't be taken gets an error that says what was wrong (not JSON,
 * an unknown type, or which field of a known type is wrong); the socket stays open either way.
 */
export function parseClientMessage(text: string): { message: ClientMessage } | { error: ErrorMessage } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { error: { type: 'error', code: 'BAD_MESSAGE', message: 'A message must be JSON.' } };
  }
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !CLIENT_MESSAGE_TYPES.includes(type as ClientMessage['type'])) {
    const shown = typeof type === 'string' ? `"${type.slice(0, 40)}"` : 'missing';
    return { error: { type: 'error', code: 'UNKNOWN_TYPE', message: `Unknown message type (${shown}).` } };
  }
  const parsed = clientMessage.safeParse(raw);
  if (parsed.success) return { message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return {
    error: {
      type: 'error',
      code: 'BAD_MESSAGE',
      message: `Malformed "${type}" message${where}: ${issue?.message ?? 'invalid'}.`,
    },
  };
}
