import { adminEndpoints as endpoints, adminToolEndpoints } from '@mixroom/contracts';
import type { PlanSku } from '@mixroom/shared';
import { call } from '../../lib/api-client';

export interface AdminUsersParams {
  search: string;
  page: number;
  pageSize: number;
}

export interface AuditParams {
  actor: string;
  target: string;
  page: number;
  pageSize: number;
}

export function listUsers(params: AdminUsersParams, signal?: AbortSignal) {
  return call(endpoints.users, {
    query: { page: params.page, pageSize: params.pageSize, ...(params.search ? { search: params.search } : {}) },
    signal,
  });
}

export const userDetail = (userId: string, signal?: AbortSignal) =>
  call(endpoints.user, { params: { id: userId }, signal });

export const grantPlan = (userId: string, sku: PlanSku, endsAt: string | null) =>
  call(endpoints.grantPlan, { params: { id: userId }, body: { sku, endsAt } });

export const revokePlan = (userId: string, grantId: string) =>
  call(endpoints.revokePlan, { params: { id: userId, grantId } });

export const setFlags = (userId: string, flags: { isAdmin?: boolean; canBroadcast?: boolean }) =>
  call(endpoints.setFlags, { params: { id: userId }, body: flags });

export const setStatus = (userId: string, disabled: boolean) =>
  call(endpoints.setStatus, { params: { id: userId }, body: { disabled } });

export const userCredits = (userId: string, signal?: AbortSignal) =>
  call(endpoints.credits, { params: { id: userId }, query: { limit: 5 }, signal });

export const adjustCredits = (userId: string, amount: number, reason: string) =>
  call(endpoints.adjustCredits, { params: { id: userId }, body: { amount, reason } });

export function auditLog(params: AuditParams, signal?: AbortSignal) {
  return call(endpoints.audit, {
    query: {
      page: params.page,
      pageSize: params.pageSize,
      ...(params.actor ? { actor: params.actor } : {}),
      ...(params.target ? { target: params.target } : {}),
    },
    signal,
  });
}

export const serverOverview = (signal?: AbortSignal) => call(endpoints.overview, { signal });

/** The AI tasks queue: running and pending, or failed, oldest first. */
export const toolTasks = (status: 'active' | 'failed', signal?: AbortSignal) =>
  call(adminToolEndpoints.tasks, { query: { status, limit: 100 }, signal });

export const cancelToolTask = (taskId: string) => call(adminToolEndpoints.cancel, { params: { id: taskId } });
