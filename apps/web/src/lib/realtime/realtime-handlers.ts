import type { QueryClient } from '@tanstack/react-query';
import type { DomainEvent } from '@mixroom/contracts';

/** What a handler may touch: the query cache, and who is signed in (to tell their own events apart). */
export interface RealtimeHandlerContext {
  queryClient: QueryClient;
  selfId: string;
}

/**
 * One feature's reactions to server events, by event type, each with its exact payload. Features
 * export such an object and the app root registers them, so the realtime hook knows no feature.
 */
export type RealtimeHandlers = {
  [T in DomainEvent['type']]?: (event: Extract<DomainEvent, { type: T }>, context: RealtimeHandlerContext) => void;
};

/** Runs every registered handler of the event's type, in registration order. */
export function dispatchEvent(
  registry: readonly RealtimeHandlers[],
  event: DomainEvent,
  context: RealtimeHandlerContext,
): void {
  for (const handlers of registry) {
    // The map's key and the event's type agree, so the handler takes this very event.
    const handle = handlers[event.type] as ((event: DomainEvent, context: RealtimeHandlerContext) => void) | undefined;
    handle?.(event, context);
  }
}
