import type { FastifyInstance } from 'fastify';
import type { AccessChanges } from '../access/access-changes';
import type { ItemAccessRepository } from '../access/item-access.repository';
import type { ItemPolicy } from '../access/item.policy';
import type { PublicLinkPolicy } from '../access/public-link.policy';
import type { AppConfig } from '../config/config';
import type { Db, UnitOfWork } from '../db/database';
import type { BlobStore } from '../platform/blob/blob-store';
import type { Clock } from '../platform/clock/clock';
import type { FaultPoints } from '../platform/faults/fault-points';
import type { JobDefinition } from '../platform/jobs/job-definition';
import type { JobQueue } from '../platform/jobs/job-queue';
import type { Outbox } from '../platform/jobs/outbox';
import type { EventBus } from '../platform/realtime/event-bus';
import type { TokenSigner } from '../platform/secrets/token-signer';
import type { TempSpace } from '../platform/temp/temp-space';
import type { Logger } from 'pino';
import type { UserDataContribution } from './user-data';

/** What every module is built from: the platform's drivers and the access layer's policies. */
export interface CoreDeps {
  config: AppConfig;
  log: Logger;
  db: Db;
  unitOfWork: UnitOfWork;
  blobs: BlobStore;
  bus: EventBus;
  jobs: JobQueue;
  outbox: Outbox;
  clock: Clock;
  faults: FaultPoints;
  tokens: TokenSigner;
  /** Temporary files under DATA_DIR/tmp, swept at start. */
  temp: TempSpace;
  /** Storage-area facts for access decisions, and the policies built on them. */
  facts: ItemAccessRepository;
  items: ItemPolicy;
  links: PublicLinkPolicy;
  accessChanges: AccessChanges;
}

/** Registers a module's HTTP routes on the API app. */
export type RouteRegistration = (app: FastifyInstance) => PromiseLike<unknown>;

/**
 * A feature module as the composition root sees it: the routes it serves (on API nodes), the jobs
 * it processes (on worker nodes) and the services other modules may call. Realtime topics are
 * decided centrally by the access layer's topic policy, since every topic is about a resource.
 */
export interface AppModule<S = object> {
  name: string;
  routes: RouteRegistration[];
  jobs: JobDefinition[];
  services: S;
  /** The module's part of a user's own data: exported on request, erased with the account. */
  userData?: UserDataContribution;
  /** Runs on worker nodes once the job queue has started: resumes work a crashed node left half done. */
  onStart?: () => Promise<void>;
}
