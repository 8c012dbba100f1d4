import type { JobDefinition } from '../platform/jobs/job-definition';
import type { ClientMessageHandlers } from '../platform/realtime/client-handlers';
import type { AppModule, NodeRole, Reactions, RouteRegistration } from './module';
import type { UserDataContribution } from './user-data';
import type { TopicRules } from '../access/topic.policy';

const DEFAULT_ROLES: readonly NodeRole[] = ['api', 'worker'];

/** What one node runs of the modules, given its roles. */
export interface NodeParts {
  /** Modules with at least one of the node's roles. */
  running: AppModule[];
  routes: RouteRegistration[];
  anyNodeRoutes: RouteRegistration[];
  /** Every job type, so any node may send any job. */
  knownJobs: JobDefinition[];
  /** Names of the jobs this node processes. */
  workedJobs: Set<string>;
  starts: (() => Promise<void>)[];
  stops: (() => Promise<void>)[];
  clientMessages: ClientMessageHandlers;
  reactions: { module: string; reactions: Reactions }[];
  /** Authorization facts and user data hold on every node, whatever runs there. */
  topics: { module: string; topics: Partial<TopicRules> }[];
  userData: UserDataContribution[];
}

export function partsForNode(modules: AppModule[], roles: Record<NodeRole, boolean>): NodeParts {
  const running = modules.filter((m) => (m.roles ?? DEFAULT_ROLES).some((role) => roles[role]));
  const clientMessages: ClientMessageHandlers = {};
  for (const module of running)
    for (const [type, handler] of Object.entries(module.clientMessages ?? {})) {
      if (type in clientMessages) throw new Error(`Client message "${type}" is answered by two modules.`);
      Object.assign(clientMessages, { [type]: handler });
    }
  const worked = roles.worker ? running.flatMap((m) => m.jobs ?? []) : [];
  return {
    running,
    routes: roles.api ? running.flatMap((m) => m.routes ?? []) : [],
    anyNodeRoutes: running.flatMap((m) => m.anyNodeRoutes ?? []),
    knownJobs: modules.flatMap((m) => m.jobs ?? []),
    workedJobs: new Set(worked.map((job) => job.name)),
    starts: running.flatMap((m) => (m.onStart ? [m.onStart] : [])),
    stops: running.flatMap((m) => (m.onStop ? [m.onStop] : [])),
    clientMessages,
    reactions: running.flatMap((m) => (m.reactions ? [{ module: m.name, reactions: m.reactions }] : [])),
    topics: modules.flatMap((m) => (m.topics ? [{ module: m.name, topics: m.topics }] : [])),
    userData: modules.flatMap((m) => (m.userData ? [m.userData] : [])),
  };
}
