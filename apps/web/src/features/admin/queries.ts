import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanSku } from '@mixroom/shared';
import { grantPlan, listUsers, revokePlan, type AdminUsersParams } from './api';

export const adminKeys = {
  all: ['admin'] as const,
  users: (params: AdminUsersParams) => [...adminKeys.all, 'users', params] as const,
};

export function useAdminUsers(params: AdminUsersParams) {
  return useQuery({
    queryKey: adminKeys.users(params),
    queryFn: ({ signal }) => listUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useGrantPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; sku: PlanSku; endsAt: string | null }) =>
      grantPlan(input.userId, input.sku, input.endsAt),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useRevokePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: string; grantId: string }) => revokePlan(input.userId, input.grantId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
