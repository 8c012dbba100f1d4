import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthEndpoints } from '@mixroom/contracts';
import { APP_VERSION } from '@mixroom/shared';
import { route } from '../../http/endpoint';
import type { ProcessStats } from './process-stats';

type Probe = () => Promise<void>;

async function measure(probe: Probe): Promise<{ ok: boolean; latencyMs: number; detail?: string }> {
  const started = performance.now();
  try {
    await probe();
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Liveness and readiness in one: 200 when database, storage and queue answer, else 503. */
export const healthRoutes: FastifyPluginAsyncZod<{
  database: Probe;
  storage: Probe;
  queue: Probe;
  process: () => ProcessStats;
}> = async (app, probes) => {
  route(app, healthEndpoints.health, async (_request, reply) => {
    const [database, storage, queue] = await Promise.all([
      measure(probes.database),
      measure(probes.storage),
      measure(probes.queue),
    ]);
    const ok = database.ok && storage.ok && queue.ok;
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'degraded',
      version: APP_VERSION,
      checks: { database, storage, queue },
      process: probes.process(),
    });
  });
};
