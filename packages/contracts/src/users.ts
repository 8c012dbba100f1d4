import { PLAN_SKUS } from '@mixroom/shared';
import { z } from 'zod';
import { entitlementsSummary } from './billing';
import { isoDate } from './common';

export const planSku = z.enum(PLAN_SKUS);

export const planLimits = z.object({
  storageMb: z.number(),
  transferMaxBytes: z.number(),
  transfersPerMonth: z.number(),
  transferDurationDays: z.array(z.number()),
  transferPassword: z.boolean(),
  transferReload: z.boolean(),
  liveGuests: z.number(),
  liveMaxDurationMs: z.number(),
  liveRecording: z.boolean(),
  liveBroadcast: z.boolean(),
  liveCoHost: z.boolean(),
  creditsPerMonth: z.number(),
});

export const planGrant = z.object({
  id: z.uuid(),
  sku: planSku,
  startsAt: isoDate,
  endsAt: isoDate.nullable(),
  active: z.boolean(),
});

/** The signed-in user, with what they may do, so the web never re-derives rules. */
export const meResponse = z
  .object({
    id: z.uuid(),
    email: z.string(),
    displayName: z.string(),
    photoUrl: z.string().nullable(),
    isAdmin: z.boolean(),
    canBroadcast: z.boolean(),
    createdAt: isoDate,
    plans: z.array(planGrant),
    limits: planLimits,
    capabilities: z.object({ admin: z.boolean() }),
    entitlements: entitlementsSummary,
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof meResponse>;

export const adminUserRow = z.object({
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
  createdAt: isoDate,
  plans: z.array(planGrant),
});
export type AdminUserRow = z.infer<typeof adminUserRow>;

export const adminUsersQuery = z.object({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => [25, 50, 100].includes(n), { message: 'Page size must be 25, 50 or 100.' })
    .default(25),
});
export const adminUsersResponse = z
  .object({ total: z.number(), page: z.number(), pageSize: z.number(), users: z.array(adminUserRow) })
  .meta({ id: 'AdminUsers' });
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;

export const grantPlanBody = z.object({ sku: planSku, endsAt: isoDate.nullable().default(null) });
