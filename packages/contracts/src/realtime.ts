import { z } from 'zod';
import { comment } from './comments';
import { BROADCAST_CHANGE_ACTIONS } from './broadcast';
import { liveChangeAction, liveSlot } from './live';

/**
 * Topic kinds, declared once: the schema below is built from this table and the server composes
 * one rule per kind (each contributed by the module that owns it) and refuses to start without it.
 * - `user:{id}` carries a user's own events (root-level storage changes, sharing, join requests);
 * - `admin` carries events only administrators see;
 * - `group:{id}` a folder's content, `project:{id}` a project's review (comments, notes, presence).
 * - `system` is the servers' own channel: no client may follow it.
 * - `live:{code}` a live room by its guest code (host and admitted guests; presence in scope `room`).
 * - `broadcast:{code}` a broadcast by its viewer code (its broadcaster, signed-in listeners, grant sockets).
 */
export const TOPIC_KINDS = {
  user: 'id',
  group: 'id',
  project: 'id',
  admin: 'none',
  system: 'none',
  live: 'id',
  broadcast: 'id',
} as const;
export type TopicKind = keyof typeof TOPIC_KINDS;

const kindsWith = (shape: 'id' | 'none') =>
  Object.entries(TOPIC_KINDS)
    .filter(([, s]) => s === shape)
    .map(([kind]) => kind)
    .join('|');
const TOPIC_PATTERN = new RegExp(`^((${kindsWith('id')}):[\\w-]{1,64}|${kindsWith('none')})$`);

export const topic = z.string().max(80).regex(TOPIC_PATTERN, { message: 'Unknown topic.' });

/** Splits a topic into its kind and id ('' for kinds without an id); null when it is not a topic. */
export function parseTopic(value: string): { kind: TopicKind; id: string } | null {
  if (!TOPIC_PATTERN.test(value)) return null;
  const [kind, id = ''] = value.split(':') as [TopicKind, string?];
  return { kind, id };
}

/** Who is present: enough to draw an avatar without another request. */
export const presenceUser = z.object({ id: z.string(), displayName: z.string(), photoUrl: z.string().nullable() });
export type PresenceUser = z.infer<typeof presenceUser>;

const itemKind = z.enum(['group', 'project']);

/**
 * Every event that travels on the bus, one schema per type. The web's realtime hook switches on
 * `type` and reads `data` with its exact shape; nothing is matched by strings and cast.
 */
export const eventPayloads = {
  'user.updated': z.object({ userId: z.string() }),
  'job.progress': z.object({
    jobId: z.string(),
    name: z.string(),
    percent: z.number(),
    message: z.string().nullable(),
  }),
  'job.completed': z.object({ jobId: z.string(), name: z.string() }),
  'job.failed': z.object({ jobId: z.string(), name: z.string(), message: z.string() }),
  'storage.changed': z.object({ itemId: z.string(), kind: itemKind, action: z.string() }),
  'version.progress': z.object({
    projectId: z.string(),
    versionId: z.string(),
    progress: z.number(),
    status: z.enum(['uploading', 'processing', 'ready', 'corrupt']),
  }),
  'attachment.changed': z.object({ attachmentId: z.string(), action: z.string() }),
  'download.progress': z.object({ downloadId: z.string(), percent: z.number() }),
  'comment.changed': z.object({
    versionId: z.string(),
    action: z.enum(['created', 'replied', 'edited', 'deleted', 'resolved', 'reopened']),
    /** The new comment, presented as non-authors see it, when it fits the bus's payload limit. */
    comment: comment.optional(),
  }),
  'note.changed': z.object({ versionId: z.string() }),
  /** A version's verdict changed: shown live and told to everyone who may see the project. */
  'approval.changed': z.object({
    projectId: z.string(),
    projectName: z.string(),
    versionId: z.string(),
    versionNumber: z.number(),
    approval: z.enum(['none', 'needs_changes', 'approved']),
    by: z.string(),
    byId: z.string(),
  }),
  /**
   * How far the "what changed" lane of B against A got (on A's `project:{id}`), and when it is
   * ready or failed. Ids only: a client that asked for the pair refetches it.
   */
  'difference.progress': z.object({
    versionId: z.string(),
    otherVersionId: z.string(),
    status: z.enum(['pending', 'ready', 'failed']),
    progress: z.number(),
  }),
  /**
   * Someone joined or left a presence scope (e.g. one version's review) under the event's topic.
   * Held on the sockets, never in a table: a closed tab leaves at once.
   */
  'presence.changed': z.object({
    scope: z.string(),
    user: presenceUser,
    state: z.enum(['online', 'offline']),
    /** The node and socket that joined or left; servers count a user's tabs by it, clients ignore it. */
    holder: z.string().optional(),
  }),
  /** A node is alive (every few seconds, on `system`); `hello` when it starts and wants presence again. */
  'presence.node': z.object({ nodeId: z.string(), hello: z.boolean() }),
  'sharing.changed': z.object({ resourceId: z.string() }),
  'join.requested': z.object({ resourceId: z.string(), userId: z.string() }),
  'join.decided': z.object({ resourceId: z.string(), userId: z.string(), status: z.enum(['approved', 'rejected']) }),
  /**
   * Someone's access may have changed (membership, role, trash, public link, sign-out). Servers
   * re-check the topics of the named users' sockets (every socket when `userIds` is null) before
   * they deliver any later event. Travels on `system` only.
   */
  'access.changed': z.object({ userIds: z.array(z.string()).nullable() }),
  /**
   * Sign-in sessions (grants) ended before their access tokens expired: every node refuses those
   * tokens until `until` (ms since the epoch). Travels on `system` only.
   */
  'session.revoked': z.object({ grantIds: z.array(z.string()), until: z.number() }),
  /** A notice for one user, sent only when they want in-app notifications (e.g. a shared item is gone). */
  notice: z.object({ title: z.string(), body: z.string(), url: z.string() }),
  /**
   * One of the owner's transfers changed (on `user:{ownerId}`): created, sent (every file is in),
   * updated (expiry, password, reload), file (a file finished processing), downloaded (a recipient
   * started or finished a download; counts and the log moved), deleted.
   */
  'transfer.changed': z.object({
    transferId: z.string(),
    action: z.enum(['created', 'sent', 'updated', 'file', 'downloaded', 'deleted']),
  }),
  /**
   * One of the user's AI tasks changed (on `user:{id}`): its status and the session that moved, with
   * that session's progress (-1 before it starts, then 0..100). Small on purpose; clients refetch the task.
   */
  /**
   * A live room changed (on `live:{code}`, code = the guest code): the session started or ended,
   * someone joined or left, a co-host was enabled, a stream's settings changed, a newer tab took
   * over (`instanceId` is the new tab: an older tab of `userId` cleans up), the free time ran out
   * ('expired': 'Free Tier Time Expired'), or a minute of it passed ('tick', `remainingMs`). Small on
   * purpose; clients refetch the session.
   */
  /**
   * Between nodes only (topic `system`, never delivered to a socket): a node whose socket follows a
   * listening resource asks the node that holds it for its slot map…
   */
  'live.slots.requested': z.object({ code: z.string(), resourceId: z.string(), userId: z.string() }),
  /** …and the holder tells every node, then again at each change; `slots` null: the resource is gone. */
  'live.slots.changed': z.object({
    code: z.string(),
    resourceId: z.string(),
    userId: z.string(),
    slots: z.array(liveSlot).nullable(),
  }),
  'live.changed': z.object({
    code: z.string(),
    action: liveChangeAction,
    userId: z.string().nullable(),
    instanceId: z.string().nullable(),
    remainingMs: z.number().nullable(),
  }),
  /**
   * A broadcast changed (on `broadcast:{code}`, code = the viewer code): title or countdown
   * (`settings`), it went live or ended, its listener count moved, or its code was replaced
   * (`revoked`: the link leads nowhere now). Clients refetch the public view.
   */
  'broadcast.changed': z.object({
    code: z.string(),
    action: z.enum(BROADCAST_CHANGE_ACTIONS),
    listeners: z.number().int().nullable(),
  }),
  'task.changed': z.object({
    taskId: z.string(),
    action: z.enum(['created', 'progress', 'completed', 'failed', 'deleted']),
    status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED']),
    session: z
      .object({
        id: z.string(),
        type: z.enum(['STEMSEPARATION', 'VC', 'VST']),
        status: z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED']),
        progress: z.number(),
        /** Seconds of a running separation's stems finished and playable already; null when none. */
        previewSeconds: z.number().nullable(),
      })
      .nullable(),
  }),
} as const;

export type EventType = keyof typeof eventPayloads;
export type EventData<T extends EventType> = z.infer<(typeof eventPayloads)[T]>;

const eventOf = <T extends EventType>(type: T) =>
  z.object({ topic, type: z.literal(type), data: eventPayloads[type], at: z.number() });

/** A domain event as it travels on the bus and over the WebSocket. */
export const domainEvent = z.discriminatedUnion('type', [
  eventOf('user.updated'),
  eventOf('job.progress'),
  eventOf('job.completed'),
  eventOf('job.failed'),
  eventOf('storage.changed'),
  eventOf('version.progress'),
  eventOf('attachment.changed'),
  eventOf('download.progress'),
  eventOf('comment.changed'),
  eventOf('note.changed'),
  eventOf('approval.changed'),
  eventOf('difference.progress'),
  eventOf('presence.changed'),
  eventOf('presence.node'),
  eventOf('sharing.changed'),
  eventOf('join.requested'),
  eventOf('join.decided'),
  eventOf('access.changed'),
  eventOf('session.revoked'),
  eventOf('notice'),
  eventOf('transfer.changed'),
  eventOf('task.changed'),
  eventOf('live.changed'),
  eventOf('live.slots.requested'),
  eventOf('live.slots.changed'),
  eventOf('broadcast.changed'),
]);
export type DomainEvent = z.infer<typeof domainEvent>;

/** What a service hands the bus: the bus stamps `at`. */
export type DomainEventInput = { [T in EventType]: { topic: string; type: T; data: EventData<T> } }[EventType];

/** A presence scope under a topic, e.g. `version:{id}` under `project:{id}`. */
const presenceScope = z.string().regex(/^[\w:-]{1,80}$/, { message: 'Unknown presence scope.' });

/**
 * Everything a client may say. The socket answers a message of an unknown type or a wrong shape
 * with an `error` naming what was wrong, and stays open.
 * - `auth`: a signed-in user's access token (again whenever it is renewed);
 * - `grant`: a signed-out visitor's public grant, good for one public resource's topic only;
 * - `presence.join` / `presence.leave`: be seen in a scope of a topic the socket follows; closing
 *   the socket leaves every scope.
 */
export const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(8192) }),
  z.object({ type: z.literal('grant'), grant: z.string().min(1).max(2048) }),
  z.object({ type: z.literal('subscribe'), topic }),
  z.object({ type: z.literal('unsubscribe'), topic }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('presence.join'), topic, scope: presenceScope }),
  z.object({ type: z.literal('presence.leave'), topic, scope: presenceScope }),
  /**
   * Live signalling: follow the slot map of one's own WHEP resource in a room whose `live:{code}`
   * topic the socket follows; answered at once and on every change with `live.slots`. SDP never
   * travels here (WHIP/WHEP carry it over HTTP).
   */
  z.object({
    type: z.literal('live.slots'),
    code: z.string().min(1).max(64),
    resourceId: z.string().min(1).max(128),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;
export type ClientMessageType = ClientMessage['type'];
export const CLIENT_MESSAGE_TYPES: readonly ClientMessageType[] = clientMessage.options.map(
  (option) => option.shape.type.value,
);

export const serverMessage = z.discriminatedUnion('type', [
  /** Signed in (`userId`) or holding a public grant (`userId` null, `topic` the grant's one topic). */
  z.object({ type: z.literal('ready'), userId: z.string().nullable(), topic: topic.optional() }),
  z.object({ type: z.literal('subscribed'), topic }),
  z.object({ type: z.literal('denied'), topic, reason: z.string() }),
  /** The server took a topic away: the actor no longer has access to it. */
  z.object({ type: z.literal('revoked'), topic }),
  z.object({ type: z.literal('event'), event: domainEvent }),
  /** Everyone present in a scope, sent to a socket when it joins. */
  z.object({ type: z.literal('presence'), topic, scope: z.string(), users: z.array(presenceUser) }),
  z.object({ type: z.literal('pong') }),
  /**
   * Events may have been lost (this node's link to the event fan-out was down for a while): the
   * client refetches what it shows, as after a reconnect of its own.
   */
  z.object({ type: z.literal('resync') }),
  /** The slot map of the socket's own WHEP resource: which publisher (user id) each recvonly mid carries. */
  z.object({ type: z.literal('live.slots'), code: z.string(), resourceId: z.string(), slots: z.array(liveSlot) }),
  /** A message the server could not take; `code` says why (BAD_MESSAGE, UNKNOWN_TYPE, NOT_SUBSCRIBED …). */
  z.object({ type: z.literal('error'), message: z.string(), code: z.string().optional() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;

/** Event types the foundation emits. */
export const EVENT_TYPES = {
  userUpdated: 'user.updated',
  jobProgress: 'job.progress',
  jobCompleted: 'job.completed',
  jobFailed: 'job.failed',
} as const satisfies Record<string, EventType>;
