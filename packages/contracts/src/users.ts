import { LIMITS, PLAN_SKUS } from '@mixroom/shared';
import { z } from 'zod';
import { entitlementsSummary } from './billing';
import { isoDate, safeName } from './common';

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
    capabilities: z.object({
      admin: z.boolean(),
      /** Whether the e-mail can be changed here (an external identity provider owns it otherwise). */
      changeEmail: z.boolean(),
    }),
    entitlements: entitlementsSummary,
    /** A new address waiting for the click in its confirmation mail. */
    pendingEmail: z.string().nullable(),
    notifications: z.object({ email: z.boolean(), push: z.boolean(), inApp: z.boolean() }),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof meResponse>;

const address = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax)
  .pipe(z.email({ message: 'Please enter a valid e-mail address.' }));

/** A new display name: the shared name rule, required, at most the display-name length. */
export const updateProfileBody = z.object({
  displayName: safeName(
    z
      .string()
      .trim()
      .min(1, { message: 'Please enter your name.' })
      .max(LIMITS.displayNameMax, { message: `Use at most ${LIMITS.displayNameMax} characters.` }),
  ),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

/** A profile picture, already cropped square by the browser: the image file's bytes in base64. */
export const profilePhotoBody = z.object({
  image: z
    .string()
    .min(8)
    .max(Math.ceil(LIMITS.avatarMaxBytes / 3) * 4, { message: 'The picture is too large (at most 5 MB).' })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { message: 'The picture could not be read.' }),
});

export const emailChangeBody = z.object({
  email: address,
  /** Asked again, so a session left open can't move the account to someone else's address. */
  currentPassword: z.string().min(1, { message: 'Please enter your current password.' }).max(LIMITS.passwordMax),
});
export const emailChangeConfirmBody = z.object({ token: z.string().min(20).max(200) });
export const emailChangeResponse = z.object({ message: z.string(), pendingEmail: z.string() });
export const emailChangeConfirmResponse = z.object({ message: z.string(), email: z.string() });

/** Channels a user hears notifications on (invitations, join requests, comments, account notices). */
export const notificationPreferences = z
  .object({ email: z.boolean(), push: z.boolean(), inApp: z.boolean() })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

export const dataExport = z
  .object({
    id: z.uuid(),
    status: z.enum(['queued', 'running', 'ready', 'failed']),
    progress: z.number(),
    createdAt: isoDate,
    finishedAt: isoDate.nullable(),
    expiresAt: isoDate.nullable(),
    sizeBytes: z.number().nullable(),
    /** A signed link that works without signing in until the archive expires (also sent by e-mail). */
    downloadUrl: z.string().nullable(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof dataExport>;
export const dataExportsResponse = z.object({ exports: z.array(dataExport) });
export const exportIdParam = z.object({ id: z.uuid() });
export const exportDownloadQuery = z.object({ token: z.string().min(10).max(1000) });

/** Deleting an account takes its own e-mail address, typed again. */
export const deleteAccountBody = z.object({
  email: z.string().trim().toLowerCase().max(LIMITS.emailMax),
  /**
   * The second confirmation while a plan given by an administrator runs: the plan ends with the
   * account (the server answers 409 PLAN_GRANTED without it).
   */
  endGrantedPlans: z.boolean().optional(),
});
export const avatarParam = z.object({ photoId: z.string().regex(/^[\w-]{16,64}$/) });
