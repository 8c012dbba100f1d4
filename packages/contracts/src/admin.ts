import { z } from 'zod';
import { entitlementsSummary } from './billing';
import { isoDate } from './common';
import { planGrant, planLimits, planSku } from './users';

/** What the signed-in administrator may do to this account; the screens copy no rule. */
export const adminUserCapabilities = z.object({
  /** Make the account an administrator (not for disabled accounts). */
  canMakeAdmin: z.boolean(),
  /** Take the administrator flag away; false for the last active administrator. */
  canRemoveAdmin: z.boolean(),
  /** Disable the account; false for oneself and for the last active administrator. */
  canDisable: z.boolean(),
  canEnable: z.boolean(),
});

/** One row of the admin grid: the account's columns, its flags, plans and what may be done to it. */
export const adminUser = z.object({
  id: z.uuid(),
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  name: z.string(),
  photoUrl: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  providerId: z.string(),
  authProviders: z.array(z.string()),
  isAdmin: z.boolean(),
  canBroadcast: z.boolean(),
  disabled: z.boolean(),
  disabledAt: isoDate.nullable(),
  createdAt: isoDate,
  plans: z.array(planGrant),
  capabilities: adminUserCapabilities,
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUserList = z
  .object({ total: z.number(), page: z.number(), pageSize: z.number(), users: z.array(adminUser) })
  .meta({ id: 'AdminUserList' });
export type AdminUserList = z.infer<typeof adminUserList>;

export const adminUserListQuery = z.object({
  /** Part of an e-mail or a name, or a whole uid. */
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => [25, 50, 100].includes(n), { message: 'Page size must be 25, 50 or 100.' })
    .default(25),
});

const roomCode = z.object({ role: z.string(), code: z.string() });

/** The private data of an account, as the admin grid expands it; null where there is none. */
export const adminPrivateData = z.object({
  /** The account at the product store (the shop's subscriptions), if the user has bought there. */
  storeAccount: z
    .object({
      subscriptions: z.array(z.object({ sku: z.string(), status: z.string(), manageUrl: z.string().nullable() })),
    })
    .nullable(),
  liveRoom: z.object({ roomCodes: z.array(roomCode) }).nullable(),
  liveStreamingRoom: z.object({ roomCodes: z.array(roomCode) }).nullable(),
  userExtraInfo: z.object({ canBroadcast: z.boolean(), isAdmin: z.boolean() }),
  /** A trial of a Live plan, in epoch seconds. */
  liveTrial: z.object({ start: z.number(), end: z.number().nullable() }).nullable(),
  /** The elapsed time (ms) of the user's current live session, counted in one-minute steps. */
  liveRoomSession: z.object({ elapsed: z.number() }).nullable().optional(),
});

/** One account in full: its row, private data, merged limits and usage. */
export const adminUserDetail = z
  .object({
    user: adminUser,
    privateData: adminPrivateData,
    skus: z.array(planSku),
    limits: planLimits,
    usage: entitlementsSummary,
  })
  .meta({ id: 'AdminUserDetail' });
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

export type AdminPlanGrant = z.infer<typeof planGrant>;

export const adminGrantBody = z.object({ sku: planSku, endsAt: isoDate.nullable().default(null) });

export const adminFlagsBody = z
  .object({ isAdmin: z.boolean().optional(), canBroadcast: z.boolean().optional() })
  .refine((b) => b.isAdmin !== undefined || b.canBroadcast !== undefined, { message: 'Nothing to change.' });

export const adminStatusBody = z.object({ disabled: z.boolean() });

export const ADMIN_ACTIONS = [
  'plan.granted',
  'plan.revoked',
  'flags.changed',
  'credits.adjusted',
  'account.disabled',
  'account.enabled',
  /** The user deleted their own account (the entry keeps its id, not its e-mail or name). */
  'account.deleted',
] as const;

export const auditEntry = z.object({
  id: z.uuid(),
  seq: z.number().int(),
  at: isoDate,
  action: z.enum(ADMIN_ACTIONS),
  actor: z.object({ id: z.string().nullable(), label: z.string() }),
  target: z.object({ id: z.string().nullable(), label: z.string() }),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = z.object({
  /** The administrator: a uid, or part of an e-mail. */
  actor: z.string().trim().max(200).optional(),
  /** The account acted on: a uid, or part of an e-mail. */
  target: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => [25, 50, 100].includes(n), { message: 'Page size must be 25, 50 or 100.' })
    .default(25),
});

export const auditPage = z
  .object({ total: z.number(), page: z.number(), pageSize: z.number(), entries: z.array(auditEntry) })
  .meta({ id: 'AuditLog' });
export type AuditPage = z.infer<typeof auditPage>;

const queueFigures = z.object({ queued: z.number(), active: z.number(), failed: z.number() });

/** The server at a glance, for whoever runs it. */
export const serverOverview = z
  .object({
    version: z.string(),
    nodeVersion: z.string(),
    roles: z.array(z.string()),
    database: z.object({ driver: z.enum(['pglite', 'postgres']) }),
    storage: z.object({ driver: z.enum(['disk', 's3']), usedBytes: z.number(), files: z.number() }),
    queue: queueFigures.extend({ queues: z.array(queueFigures.extend({ name: z.string() })) }),
    users: z.object({ total: z.number(), admins: z.number(), disabled: z.number(), newThisMonth: z.number() }),
    identity: z.object({ mode: z.enum(['embedded', 'external']), issuer: z.string() }),
    startedAt: isoDate,
  })
  .meta({ id: 'ServerOverview' });
export type ServerOverview = z.infer<typeof serverOverview>;
