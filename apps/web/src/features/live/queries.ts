import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LiveRoomRole } from '@mixroom/shared';
import { liveApi } from './api';

export const liveKeys = {
  all: ['live'] as const,
  rooms: () => [...liveKeys.all, 'rooms'] as const,
  session: (code: string) => [...liveKeys.all, 'session', code] as const,
};

/** The user's host and guest codes (the server creates them on first read). */
export const useLiveRooms = () =>
  useQuery({ queryKey: liveKeys.rooms(), queryFn: ({ signal }) => liveApi.rooms(signal) });

/** A new host or guest code; the old one stops at once. */
export const useRegenerateCode = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: LiveRoomRole) => liveApi.regenerate(role),
    onSuccess: (room) => queryClient.setQueryData(liveKeys.rooms(), room),
  });
};

/** The session as the caller sees it, refetched on every `live.changed` of its room. */
export const useLiveSession = (code: string, enabled: boolean) =>
  useQuery({
    queryKey: liveKeys.session(code),
    queryFn: ({ signal }) => liveApi.get(code, signal),
    enabled,
    retry: false,
    meta: { silent: true },
  });
