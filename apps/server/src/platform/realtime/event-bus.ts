import type { DomainEvent, DomainEventInput } from '@mixroom/contracts';

export type EventHandler = (event: DomainEvent) => void;

/**
 * Domain events leave services through this bus. Every node receives every event (so a browser
 * connected to node B sees what happened on node A); each node's hub then filters by subscription.
 */
export interface EventBus {
  publish(event: DomainEventInput): Promise<void>;
  /**
   * For news whose loss harms nothing lasting (a screen refetches on reconnect): a failure is
   * logged, never thrown, so the change it follows still answers success.
   */
  publishOrLog(event: DomainEventInput): Promise<void>;
  subscribe(handler: EventHandler): () => void;
  /**
   * Called when this node hears events again after a gap in which some may have been lost (the
   * database connection that carries them was down); returns the unsubscribe. A bus that can't lose
   * events (in process) never calls it.
   */
  onResumed(handler: () => void): () => void;
  close(): Promise<void>;
}
