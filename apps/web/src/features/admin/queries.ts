import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type PlanSku } from '@mixroom/shared';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/notify';
import {
  adjustCredits,
  auditLog,
  cancelToolTask,
  grantPlan,
  listUsers,
  revokePlan,
  serverOverview,
  setFlags,
  setStatus,
  toolTasks,
  userCredits,
  userDetail,
  type AdminUsersParams,
  type AuditParams,
} from './api';

export const adminKeys = {
  all: ['admin'] as const,
  users: (params: AdminUsersParams) => [...adminKeys.all, 'users', params] as const,
  user: (userId: string) => [...adminKeys.all, 'user', userId] as const,
  credits: (userId: string) => [...adminKeys.all, 'credits', userId] as const,
  audit: (params: AuditParams) => [...adminKeys.all, 'audit', params] as const,
  overview: () => [...adminKeys.all, 'overview'] as const,
  toolTasks: (status: 'active' | 'failed') => [...adminKeys.all, 'tool-tasks', status] as const,
};

export function useAdminUsers(params: AdminUsersParams) {
  return useQuery({
    queryKey: adminKeys.users(params),
    queryFn: ({ signal }) => listUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(userId: string) {
  return useQuery({ queryKey: adminKeys.user(userId), queryFn: ({ signal }) => userDetail(userId, signal) });
}

export function useUserCredits(userId: string) {
  return useQuery({ queryKey: adminKeys.credits(userId), queryFn: ({ signal }) => userCredits(userId, signal) });
}

export function useAuditLog(params: AuditParams) {
  return useQuery({
    queryKey: adminKeys.audit(params),
    queryFn: ({ signal }) => auditLog(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useServerOverview() {
  return useQuery({ queryKey: adminKeys.overview(), queryFn: ({ signal }) => serverOverview(signal) });
}

/** The AI tasks queue; refreshed every few seconds while the page is open (progress moves on workers). */
export function useToolTasks(status: 'active' | 'failed') {
  return useQuery({
    queryKey: adminKeys.toolTasks(status),
    queryFn: ({ signal }) => toolTasks(status, signal),
    refetchInterval: 3_000,
    placeholderData: keepPreviousData,
  });
}

/** Every admin change refreshes the admin screens; a refusal shows the server's reason. */
function useAdminMutation<I, R>(run: (input: I) => Promise<R>, success?: (input: I) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (_result, input) => {
      if (success) notify('success', 'Success!', success(input));
      return queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => notify('error', 'Error', error instanceof ApiError ? error.message : MESSAGES.genericError),
  });
}

export const useGrantPlan = () =>
  useAdminMutation((input: { userId: string; sku: PlanSku; endsAt: string | null }) =>
    grantPlan(input.userId, input.sku, input.endsAt),
  );

export const useRevokePlan = () =>
  useAdminMutation((input: { userId: string; grantId: string }) => revokePlan(input.userId, input.grantId));

export const useSetFlags = () =>
  useAdminMutation((input: { userId: string; isAdmin?: boolean; canBroadcast?: boolean }) => {
    const { userId, ...flags } = input;
    return setFlags(userId, flags);
  });

export const useSetStatus = () =>
  useAdminMutation((input: { userId: string; disabled: boolean }) => setStatus(input.userId, input.disabled));

export const useAdjustCredits = () =>
  useAdminMutation((input: { userId: string; amount: number; reason: string }) =>
    adjustCredits(input.userId, input.amount, input.reason),
  );

export const useCancelToolTask = () =>
  useAdminMutation(
    (input: { taskId: string; name: string }) => cancelToolTask(input.taskId),
    (input) => `“${input.name}” was cancelled. Nothing was charged.`,
  );
