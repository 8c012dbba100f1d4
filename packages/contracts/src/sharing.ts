import { isRecipientEmail, LIMITS } from '@mixroom/shared';
import { z } from 'zod';
import { isoDate } from './common';
import { crumb, version } from './storage';

export const resourceType = z.enum(['group', 'project']);
export const resourceParams = z.object({ type: resourceType, id: z.uuid() });

export const shareUser = z.object({
  id: z.uuid(),
  displayName: z.string(),
  email: z.string(),
  photoUrl: z.string().nullable(),
  role: z.enum(['PUBLISHER', 'EDITOR', 'VIEWER']),
  /** Whether the actor may remove this user (publisher; or the user themself on a group). */
  canRemove: z.boolean(),
});

/** The Share dialog's content, with what the actor may change. */
export const shareInfo = z
  .object({
    resource: z.object({ type: resourceType, id: z.uuid(), name: z.string() }),
    users: z.array(shareUser),
    publicLink: z.object({ url: z.string().nullable(), isActive: z.boolean() }),
    inviteUrl: z.string(),
    maxUsers: z.number(),
    capabilities: z.object({ canTogglePublicLink: z.boolean(), canInvite: z.boolean(), canManageUsers: z.boolean() }),
  })
  .meta({ id: 'ShareInfo' });
export type ShareInfo = z.infer<typeof shareInfo>;

export const publicLinkBody = z.object({ isActive: z.boolean() });
export const inviteEmailsBody = z.object({
  emails: z
    // The same address rule as a transfer's recipients.
    .array(z.string().trim().refine(isRecipientEmail, { message: 'Please add a valid email' }))
    .min(1, { message: 'Please add a valid email' })
    .max(20, { message: 'At most 20 e-mails at a time.' }),
});
export const permissionBody = z.object({ permission: z.enum(['VIEWER', 'EDITOR']) });
export const userParams = resourceParams.extend({ userId: z.uuid() });

export const joinRequest = z.object({
  resourceType,
  resourceId: z.uuid(),
  resourceName: z.string(),
  user: z.object({ id: z.uuid(), displayName: z.string(), photoUrl: z.string().nullable() }),
  publisherId: z.uuid(),
  status: z.enum(['pending', 'approved', 'rejected']),
  createdAt: isoDate,
});
export type JoinRequest = z.infer<typeof joinRequest>;
export const joinRequestsResponse = z
  .object({ incoming: z.array(joinRequest), outgoing: z.array(joinRequest) })
  .meta({ id: 'JoinRequests' });
/** What an invitation link offers, for a visitor who is not signed in yet (the code is the secret). */
export const invitationPreview = z
  .object({ type: resourceType, name: z.string(), inviter: z.string() })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof invitationPreview>;

export const joinTarget = z.object({
  type: resourceType,
  id: z.uuid(),
  name: z.string(),
  isMember: z.boolean(),
  request: z.enum(['pending', 'approved', 'rejected']).nullable(),
});
/** The invitation code (from /j/{code}) proves the asker was invited; an item id alone proves nothing. */
const inviteCode = z.string().min(1).max(100);
export const joinTargetQuery = z.object({ invite: inviteCode.optional() });
export const createJoinRequestBody = z.object({ type: resourceType, id: z.uuid(), invite: inviteCode.optional() });
export const decideJoinParams = z.object({
  resourceId: z.uuid(),
  userId: z.uuid(),
  decision: z.enum(['approve', 'reject']),
});

/** A shared folder or project as a visitor with the public link sees it. */
export const publicItem = z.object({
  kind: resourceType,
  id: z.uuid(),
  name: z.string(),
  updatedAt: isoDate,
  size: z.number().nullable(),
  /** Whether the visitor may download this project's original (its publisher's setting). */
  canDownload: z.boolean().optional(),
  latestVersion: version
    .pick({
      id: true,
      number: true,
      name: true,
      fileName: true,
      fileExtension: true,
      fileSize: true,
      status: true,
      durationSeconds: true,
      thumbnailUrl: true,
    })
    .nullable(),
});
export const publicListing = z
  .object({
    title: z.string(),
    root: z.object({ type: resourceType, id: z.uuid(), name: z.string() }),
    breadcrumb: z.array(crumb),
    items: z.array(publicItem),
    canDownload: z.boolean(),
  })
  .meta({ id: 'PublicListing' });
export type PublicListing = z.infer<typeof publicListing>;

/** A signed-out visitor's realtime grant: it opens a socket that follows this one topic only. */
export const realtimeGrant = z
  .object({ grant: z.string(), topic: z.string(), expiresInSeconds: z.number() })
  .meta({ id: 'RealtimeGrant' });
export const publicQuery = z.object({ token: z.string().min(20).max(100), folder: z.uuid().optional() });

export const MAX_USERS_PER_GROUP = LIMITS.usersPerGroup;
