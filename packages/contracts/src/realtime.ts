import { z } from 'zod';

/**
 * Topics a client may subscribe to. The server decides, per topic, whether the actor may see it.
 * `user:{id}` carries a user's own events; `admin` carries events only administrators see.
 */
export const topic = z.string().regex(/^(user|admin|group|project|job):?[\w-]*$/, { message: 'Unknown topic.' });

/** A domain event as it travels on the bus and over the WebSocket. */
export const domainEvent = z.object({
  topic,
  type: z.string(),
  /** Query-key roots the web should invalidate; kept on the event so the client holds no mapping table. */
  data: z.record(z.string(), z.unknown()).default({}),
  at: z.number(),
});
export type DomainEvent = z.infer<typeof domainEvent>;

export const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1) }),
  z.object({ type: z.literal('subscribe'), topic }),
  z.object({ type: z.literal('unsubscribe'), topic }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.string() }),
  z.object({ type: z.literal('subscribed'), topic }),
  z.object({ type: z.literal('denied'), topic, reason: z.string() }),
  z.object({ type: z.literal('event'), event: domainEvent }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;

/** Event types the foundation emits; features add their own. */
export const EVENT_TYPES = {
  userUpdated: 'user.updated',
  jobProgress: 'job.progress',
  jobCompleted: 'job.completed',
  jobFailed: 'job.failed',
} as const;
