import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { TopicPolicy } from './access/topic.policy';
import type { AppConfig } from './config/config';
import { createCore, type CoreOptions } from './core';
import type { Database } from './db/database';
import { createModules, type ModuleServices } from './modules';
import type { AppModule } from './modules/module';
import { partsForNode, type NodeParts } from './modules/module-registry';
import type { BlobStore } from './platform/blob/blob-store';
import type { UrlSigner } from './platform/blob/url-signer';
import type { Clock } from './platform/clock/clock';
import type { TokenVerifier } from './platform/identity/token-verifier';
import type { JobQueue } from './platform/jobs/job-queue';
import type { Outbox } from './platform/jobs/outbox';
import type { Mailer } from './platform/mail/mailer';
import type { EventBus } from './platform/realtime/event-bus';
import type { PublicGrants } from './platform/realtime/public-grants';

/** Everything a node runs with, built once from the configuration. */
export interface AppContext {
  config: AppConfig;
  log: Logger;
  clock: Clock;
  database: Database;
  blobs: BlobStore;
  signer: UrlSigner;
  bus: EventBus;
  mailer: Mailer;
  jobs: JobQueue;
  outbox: Outbox;
  grants: PublicGrants;
  /** Every feature module, in the order they were built. */
  modules: AppModule[];
  /** What this node runs of them, by its roles. */
  parts: NodeParts;
  topics: TopicPolicy;
  verifyToken: TokenVerifier;
  provider: Provider | null;
  services: ModuleServices;
  /** Releases what the context holds, in reverse order of acquisition. */
  dispose(): Promise<void>;
}

export type ContextOptions = CoreOptions;

/** The composition root: the core, then the modules; it knows no module's insides. */
export async function createContext(config: AppConfig, log: Logger, options: ContextOptions = {}): Promise<AppContext> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const dispose = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const built = await createCore(config, log, options, cleanups);
    const { core } = built;
    const { modules, services, identity } = await createModules(built);
    const parts = partsForNode(modules, config.roles);
    return {
      config,
      log,
      clock: core.clock,
      database: built.database,
      blobs: core.blobs,
      signer: built.signer,
      bus: core.bus,
      mailer: built.mailer,
      jobs: core.jobs,
      outbox: core.outbox,
      grants: core.grants,
      modules,
      parts,
      topics: new TopicPolicy(parts.topics),
      verifyToken: identity.verifyToken,
      provider: identity.provider,
      services,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
