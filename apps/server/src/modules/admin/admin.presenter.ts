import type { AdminUser, AuditEntry } from '@mixroom/contracts';
import { ADMIN_ACTIONS } from '@mixroom/contracts';
import { presentGrant } from '../users';
import type { AuditRow, GrantRow, UserRow } from './admin.repository';

/** What the acting administrator may do to `user`, given how many enabled administrators there are. */
export function capabilitiesOf(user: UserRow, actorId: string, activeAdmins: number): AdminUser['capabilities'] {
  const activeAdmin = user.isAdmin && !user.disabledAt;
  const notTheLast = !activeAdmin || activeAdmins > 1;
  return {
    canMakeAdmin: !user.isAdmin && !user.disabledAt,
    canRemoveAdmin: user.isAdmin && notTheLast,
    canDisable: !user.disabledAt && user.id !== actorId && notTheLast,
    canEnable: Boolean(user.disabledAt),
  };
}

export function presentUser(
  user: UserRow,
  grants: GrantRow[],
  context: { now: Date; actorId: string; activeAdmins: number },
): AdminUser {
  const local = user.provider === 'password';
  return {
    id: user.id,
    uid: user.id,
    displayName: user.displayName,
    email: user.email,
    name: user.displayName,
    photoUrl: user.photoUrl,
    phoneNumber: user.phoneNumber,
    providerId: local ? 'mixroom' : user.provider,
    authProviders: [local ? 'password' : 'oidc'],
    isAdmin: user.isAdmin,
    canBroadcast: user.canBroadcast,
    disabled: Boolean(user.disabledAt),
    disabledAt: user.disabledAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    plans: grants.filter((g) => g.userId === user.id).map((g) => presentGrant(g, context.now)),
    capabilities: capabilitiesOf(user, context.actorId, context.activeAdmins),
  };
}

const isAction = (action: string): action is AuditEntry['action'] =>
  (ADMIN_ACTIONS as readonly string[]).includes(action);
const asRecord = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export function presentAudit(row: AuditRow): AuditEntry {
  if (!isAction(row.action)) throw new Error(`unknown audit action ${row.action}`);
  return {
    id: row.id,
    seq: row.seq,
    at: row.at.toISOString(),
    action: row.action,
    actor: { id: row.actorId, label: row.actorLabel },
    target: { id: row.targetUserId, label: row.targetLabel },
    before: asRecord(row.before),
    after: asRecord(row.after),
  };
}
