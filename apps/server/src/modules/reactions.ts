import type { DomainEvent } from '@mixroom/contracts';
import type { Logger } from 'pino';
import type { EventBus } from '../platform/realtime/event-bus';
import type { Reactions } from './module';

/**
 * Runs the modules' reactions to domain events as they cross the bus. Best effort by design (see
 * `Reactions`): one failing handler is logged and neither stops the others nor the bus.
 */
export function watchReactions(
  bus: EventBus,
  declared: { module: string; reactions: Reactions }[],
  log: Logger,
): () => void {
  if (declared.length === 0) return () => undefined;
  return bus.subscribe((event: DomainEvent) => {
    for (const { module, reactions } of declared) {
      const handler = reactions[event.type] as ((e: DomainEvent) => Promise<void>) | undefined;
      if (!handler) continue;
      void handler(event).catch((error: unknown) =>
        log.warn({ err: error, module, type: event.type }, 'a reaction to an event failed'),
      );
    }
  });
}
