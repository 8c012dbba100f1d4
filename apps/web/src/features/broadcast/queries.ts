import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BroadcastRoom, PublicBroadcast } from '@mixroom/contracts';
import type { BroadcastRoomRole } from '@mixroom/shared';
import { broadcastApi } from './api';
import { withOffset } from './server-clock';

export const broadcastKeys = {
  all: ['broadcast'] as const,
  room: () => [...broadcastKeys.all, 'room'] as const,
  public: (code: string) => [...broadcastKeys.all, 'public', code] as const,
};

/** The user's streaming room; asked only when the user may broadcast (others get 403). */
export const useBroadcastRoom = (enabled: boolean) =>
  useQuery({
    queryKey: broadcastKeys.room(),
    queryFn: async ({ signal }) => withOffset(await broadcastApi.room(signal)),
    enabled,
    retry: false,
  });

/** The room with the device's offset from the server's clock. */
export type BroadcastRoomView = BroadcastRoom & { offset: number };
export type PublicBroadcastView = PublicBroadcast & { offset: number };

const useRoomMutation = <T>(fn: (input: T) => Promise<BroadcastRoom>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (room) => queryClient.setQueryData(broadcastKeys.room(), withOffset(room)),
  });
};

export const useBroadcastSettings = () =>
  useRoomMutation((body: { title?: string; countdownTime?: number | null }) => broadcastApi.settings(body));

export const useRegenerateBroadcastCode = () =>
  useRoomMutation((role: BroadcastRoomRole) => broadcastApi.regenerate(role));

/** A new stream key: the answer is the only time it is seen in full. */
export const useNewStreamKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => broadcastApi.streamKey(),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: broadcastKeys.room() }),
  });
};

/** A broadcast as a visitor sees it, by its viewer code. */
export const usePublicBroadcast = (code: string) =>
  useQuery({
    queryKey: broadcastKeys.public(code),
    queryFn: async ({ signal }) => withOffset(await broadcastApi.publicView(code, signal)),
    retry: false,
    meta: { silent: true },
  });
