import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import type { StreamState } from '../../live';
import { broadcastApi } from '../api';
import { GrantSocket } from '../grant-socket';
import { goneAsUnauthorized, PublicPlayer } from '../public-player';
import { broadcastKeys, usePublicBroadcast, type PublicBroadcastView } from '../queries';

export type PublicPhase = 'loading' | 'gone' | 'not-started' | 'live' | 'ended';

/**
 * A listener's broadcast: the public view (refetched on every change the broadcast's topic tells
 * of, through a grant socket), the player made on the first click, and what a replaced link means
 * (everything stops; the page says there is no such room).
 */
export function usePublicListening(code: string) {
  const queryClient = useQueryClient();
  const view = usePublicBroadcast(code);
  const [gone, setGone] = useState(false);
  const [player, setPlayer] = useState<PublicPlayer | null>(null);
  const [streamState, setStreamState] = useState<StreamState>('new');
  const [volume, setVolumeState] = useState(1);
  const playerRef = useRef<PublicPlayer | null>(null);

  useEffect(() => {
    // A replaced link: everything stops at once and the page says there is no such room.
    const leave = () => {
      setGone(true);
      playerRef.current?.destroy();
      playerRef.current = null;
      setPlayer(null);
    };
    const socket = new GrantSocket({
      grant: async () => (await broadcastApi.publicAccess(code)).realtime,
      onEvent: (event) => {
        if (event.type !== 'broadcast.changed' || event.data.code !== code) return;
        if (event.data.action === 'revoked') return leave();
        const { listeners } = event.data;
        if (event.data.action === 'listeners' && listeners !== null)
          queryClient.setQueryData<PublicBroadcastView>(
            broadcastKeys.public(code),
            (old) => old && { ...old, listeners },
          );
        else void queryClient.invalidateQueries({ queryKey: broadcastKeys.public(code) });
      },
      onFollowing: () => void queryClient.invalidateQueries({ queryKey: broadcastKeys.public(code) }),
      onRevoked: leave,
    });
    socket.connect();
    return () => socket.close();
  }, [code, queryClient]);

  useEffect(() => () => playerRef.current?.destroy(), []);

  const play = useCallback(() => {
    if (playerRef.current) return;
    const next = new PublicPlayer(async () => {
      const access = await broadcastApi.publicAccess(code).catch(goneAsUnauthorized);
      return { url: access.media.url, token: access.media.token, iceServers: access.media.iceServers, slotCount: 1 };
    }, setStreamState);
    next.setVolume(volume);
    playerRef.current = next;
    setPlayer(next);
    void next.play().catch(() => undefined);
  }, [code, volume]);

  const setVolume = useCallback((value: number) => {
    setVolumeState(value);
    playerRef.current?.setVolume(value);
  }, []);

  const missing = view.error instanceof ApiError && view.error.status === 404;
  const phase: PublicPhase = gone || missing ? 'gone' : (view.data?.state ?? 'loading');
  return {
    view: view.data ?? null,
    phase,
    offset: view.data?.offset ?? 0,
    player,
    streamState,
    play,
    volume,
    setVolume,
  };
}
