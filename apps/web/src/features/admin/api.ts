import type { AdminUsersResponse } from '@mixroom/contracts';
import type { PlanSku } from '@mixroom/shared';
import { api } from '../../lib/api-client';

export interface AdminUsersParams {
  search: string;
  page: number;
  pageSize: number;
}

export function listUsers(params: AdminUsersParams, signal?: AbortSignal) {
  const query = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
  if (params.search) query.set('search', params.search);
  return api<AdminUsersResponse>(`/api/admin/users?${query.toString()}`, signal ? { signal } : {});
}

export const grantPlan = (userId: string, sku: PlanSku, endsAt: string | null) =>
  api(`/api/admin/users/${userId}/plans`, { method: 'POST', body: { sku, endsAt } });

export const revokePlan = (userId: string, grantId: string) => api<void>(`/api/admin/users/${userId}/plans/${grantId}`, { method: 'DELETE' });
