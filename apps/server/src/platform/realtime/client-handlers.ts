import type { ClientMessage, ClientMessageType, ServerMessage } from '@mixroom/contracts';
import type { Actor } from '../identity/actor';

/** The socket a client message came from, as a module's handler sees it. */
export interface RealtimeSender {
  connectionId: string;
  /** The signed-in actor; null for a signed-out socket holding a public grant. */
  actor: Actor | null;
  /** The one topic a public grant opens; null for a signed-in socket. */
  grantTopic: string | null;
  /** Topics the socket follows now (each one checked by its rule). */
  topics: ReadonlySet<string>;
  reply(message: ServerMessage): void;
  /** Whether the socket is still open (a module that keeps senders drops the closed ones). */
  isOpen(): boolean;
}

/** A module's answer to one client message type (e.g. live signalling), declared by the module. */
export type ClientMessageHandler<T extends ClientMessageType = ClientMessageType> = (
  sender: RealtimeSender,
  message: Extract<ClientMessage, { type: T }>,
) => Promise<void>;

/** Message types the hub answers itself; a module may not take them over. */
export const CORE_CLIENT_MESSAGES: readonly ClientMessageType[] = [
  'auth',
  'grant',
  'subscribe',
  'unsubscribe',
  'ping',
  'presence.join',
  'presence.leave',
];

export type ClientMessageHandlers = Partial<{ [T in ClientMessageType]: ClientMessageHandler<T> }>;
