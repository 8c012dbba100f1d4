import { z } from 'zod';

const check = z.object({ ok: z.boolean(), latencyMs: z.number(), detail: z.string().optional() });

export const healthResponse = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    checks: z.object({ database: check, storage: check, queue: check }),
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponse>;
