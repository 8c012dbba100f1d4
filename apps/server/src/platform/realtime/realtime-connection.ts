import type { DomainEvent } from '@mixroom/contracts';
import type { RawData, WebSocket } from 'ws';
import type { Actor } from '../identity/actor';

/** One socket as the realtime hub keeps it: who is behind it, what it follows, what waits for it. */
export interface Connection {
  id: string;
  socket: WebSocket;
  token: string | null;
  actor: Actor | null;
  photoUrl: string | null;
  /** The sign-in session behind the token, when the token names one. */
  sessionId: string | null;
  /** Set for a signed-out socket: the one topic its public grant opens. */
  grantTopic: string | null;
  topics: Set<string>;
  alive: boolean;
  expiry: NodeJS.Timeout | null;
  /** Re-checks under way; while any runs, events wait in the backlog. */
  checking: number;
  backlog: DomainEvent[];
  /** Messages are taken one after another: a join must find the subscription sent before it. */
  queue: Promise<void>;
}

/** A socket just accepted: nobody signed in yet, following nothing. */
export function newConnection(id: string, socket: WebSocket): Connection {
  return {
    id,
    socket,
    token: null,
    actor: null,
    photoUrl: null,
    sessionId: null,
    grantTopic: null,
    topics: new Set(),
    alive: true,
    expiry: null,
    checking: 0,
    backlog: [],
    queue: Promise.resolve(),
  };
}

/** A WebSocket frame's text, whichever shape ws hands it in. */
export function rawToText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(new Uint8Array(data)).toString('utf8');
}
