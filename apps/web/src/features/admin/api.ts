import { adminEndpoints as endpoints } from '@mixroom/contracts';
import type { PlanSku } from '@mixroom/shared';
import { call } from '../../lib/api-client';

export interface AdminUsersParams {
  search: string;
  page: number;
  pageSize: number;
}

export function listUsers(params: AdminUsersParams, signal?: AbortSignal) {
  return call(endpoints.users, {
    query: { page: params.page, pageSize: params.pageSize, ...(params.search ? { search: params.search } : {}) },
    signal,
  });
}

export const grantPlan = (userId: string, sku: PlanSku, endsAt: string | null) =>
  call(endpoints.grantPlan, { params: { id: userId }, body: { sku, endsAt } });

export const revokePlan = (userId: string, grantId: string) =>
  call(endpoints.revokePlan, { params: { id: userId, grantId } });
