import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../platform/jobs/job-definition';
import type { AppModule } from './module';
import { partsForNode } from './module-registry';

const job = (name: string) => defineJob({ name, schema: z.object({}) }, async () => undefined);
const started: string[] = [];

function moduleOn(name: string, roles: AppModule['roles']): AppModule {
  return {
    name,
    roles,
    routes: [async () => undefined],
    anyNodeRoutes: [async () => undefined],
    jobs: [job(`${name}.work`)],
    services: {},
    onStart: async () => void started.push(name),
    onStop: async () => undefined,
    clientMessages: {},
    reactions: { 'user.updated': async () => undefined },
    topics: {},
    userData: { blobPrefixes: async () => [], export: async () => undefined },
  };
}

describe('a node runs the parts of the modules its roles call for', () => {
  const live = moduleOn('live-media', ['sfu']);
  const storage = moduleOn('storage', undefined);

  it('registers nothing of a module whose role the node lacks', () => {
    const parts = partsForNode([live], { api: true, worker: true, sfu: false });
    expect(parts.running).toEqual([]);
    expect(parts.routes).toEqual([]);
    expect(parts.anyNodeRoutes).toEqual([]);
    expect([...parts.workedJobs]).toEqual([]);
    expect(parts.starts).toEqual([]);
    expect(parts.stops).toEqual([]);
    expect(parts.reactions).toEqual([]);
    // Any node may still send its jobs, and its authorization facts and user data hold everywhere.
    expect(parts.knownJobs.map((j) => j.name)).toEqual(['live-media.work']);
    expect(parts.userData).toHaveLength(1);
  });

  it('serves routes only on API nodes and works jobs only on worker nodes', () => {
    const worker = partsForNode([live, storage], { api: false, worker: true, sfu: false });
    expect(worker.running.map((m) => m.name)).toEqual(['storage']);
    expect(worker.routes).toEqual([]);
    expect(worker.anyNodeRoutes).toHaveLength(1);
    expect([...worker.workedJobs]).toEqual(['storage.work']);

    const api = partsForNode([live, storage], { api: true, worker: false, sfu: true });
    expect(api.running.map((m) => m.name)).toEqual(['live-media', 'storage']);
    expect(api.routes).toHaveLength(2);
    expect([...api.workedJobs]).toEqual([]);
    expect(api.starts).toHaveLength(2);
  });

  it('refuses two modules answering the same client message', () => {
    const handler = async () => undefined;
    const a = { ...moduleOn('a', undefined), clientMessages: { 'presence.leave': handler } };
    const b = { ...moduleOn('b', undefined), clientMessages: { 'presence.leave': handler } };
    expect(() => partsForNode([a, b], { api: true, worker: true, sfu: true })).toThrow(/answered by two modules/);
  });
});
