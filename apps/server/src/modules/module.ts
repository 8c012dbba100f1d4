import type { FastifyInstance, FastifyReply } from 'fastify';
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
import type { ClientMessageHandlers } from '../platform/realtime/client-handlers';
import type { PublicGrants } from '../platform/realtime/public-grants';
import type { TopicRules } from '../access/topic.policy';
import type { DomainEvent, EventType } from '@mixroom/contracts';
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
  /** Signed grants for signed-out realtime sockets (one public resource each). */
  grants: PublicGrants;
  /** Temporary files under DATA_DIR/tmp, swept at start. */
  temp: TempSpace;
  /** Storage-area facts for access decisions, and the policies built on them. */
  facts: ItemAccessRepository;
  items: ItemPolicy;
  links: PublicLinkPolicy;
  accessChanges: AccessChanges;
}

/** What the HTTP app lends routes that need more than the request (the web app's page). */
export interface HttpSurface {
  serveApp: (reply: FastifyReply) => Promise<unknown>;
}

/** Registers a module's HTTP routes on the API app. */
export type RouteRegistration = (app: FastifyInstance, surface: HttpSurface) => PromiseLike<unknown>;

/** What a node does: serve the API and the web app, process jobs, carry live media. */
export type NodeRole = 'api' | 'worker' | 'sfu';
export const NODE_ROLES: readonly NodeRole[] = ['api', 'worker', 'sfu'];

/**
 * A module's reaction to another module's domain event, run on every node that runs the module when
 * the event crosses the bus. Best effort: a failure is logged. An effect that must follow a change
 * (a mail, a charge) goes through the outbox in the change's transaction instead.
 */
export type Reactions = { [T in EventType]?: (event: Extract<DomainEvent, { type: T }>) => Promise<void> };

/**
 * A feature module as the composition root sees it: everything it brings, declared in one place.
 * The root builds the core, builds each module from the core and the services of modules built
 * before it, and loops; it knows no module's insides. On a node, a module's parts run only where
 * the node has one of the module's `roles`:
 * - `routes` are served by API nodes; `anyNodeRoutes` (health checks) by every node running it;
 * - `jobs` are known to every node (so any node may send them) and processed by worker nodes;
 * - `onStart` / `onStop` run on every node running the module (after the queue started; before the
 *   database closes);
 * - `topics` are the realtime topic rules of the kinds it owns; `clientMessages` its answers to
 *   client messages on the socket; `reactions` its handlers of domain events.
 */
export interface AppModule<S = object> {
  name: string;
  /** Roles this module runs on; default: api and worker. */
  roles?: readonly NodeRole[];
  routes?: RouteRegistration[];
  anyNodeRoutes?: RouteRegistration[];
  jobs?: JobDefinition[];
  services: S;
  /** The module's part of a user's own data: exported on request, erased with the account. */
  userData?: UserDataContribution;
  /** Resumes work a stopped node left half done; runs once the job queue has started. */
  onStart?: () => Promise<void>;
  onStop?: () => Promise<void>;
  topics?: Partial<TopicRules>;
  clientMessages?: ClientMessageHandlers;
  reactions?: Reactions;
}
