import { z } from 'zod';

const check = z.object({ ok: z.boolean(), latencyMs: z.number(), detail: z.string().optional() });

export const healthResponse = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    checks: z.object({ database: check, storage: check, queue: check }),
    /** The answering node's memory and event-loop delay (last 10 s window), for balancers and soak tests. */
    process: z.object({
      rssBytes: z.number(),
      heapUsedBytes: z.number(),
      eventLoopDelayMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
    }),
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponse>;
