import { useQueryClient } from '@tanstack/react-query';
import { LIVE_MESSAGES } from '@mixroom/shared';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify';
import { useRealtimeClient, useTopic } from '../../../lib/realtime/realtime-provider';
import { INITIAL_SNAPSHOT, LiveEngine, type LiveSourceKind } from '../../live';
import { broadcastApi } from '../api';
import { broadcastKeys, useBroadcastRoom, type BroadcastRoomView } from '../queries';
import { withOffset } from '../server-clock';

type Phase = 'prompt' | 'starting' | 'in';
const noopSubscribe = () => () => undefined;

/**
 * The broadcaster's room: after the first click it opens the broadcast (START), publishes the
 * chosen source through the live engine to the broadcast's WHIP URL, follows the broadcast's topic
 * for listeners and state, and ends the broadcast on Stop or Exit.
 */
export function useBroadcastSession(code: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const realtime = useRealtimeClient();
  const room = useBroadcastRoom(true);
  const [phase, setPhase] = useState<Phase>('prompt');
  const [engine, setEngine] = useState<LiveEngine | null>(null);
  const engineRef = useRef<LiveEngine | null>(null);
  const snapshot = useSyncExternalStore(
    engine?.subscribe ?? noopSubscribe,
    () => engine?.snapshot ?? INITIAL_SNAPSHOT,
    () => INITIAL_SNAPSHOT,
  );
  const data = room.data ?? null;
  useTopic(data && phase === 'in' ? `broadcast:${data.viewerCode}` : null);

  useEffect(() => {
    if (!realtime || !data) return;
    return realtime.onEvent((event) => {
      if (event.type !== 'broadcast.changed' || event.data.code !== data.viewerCode) return;
      const { listeners } = event.data;
      if (event.data.action === 'listeners' && listeners !== null)
        queryClient.setQueryData<BroadcastRoomView>(broadcastKeys.room(), (old) => old && { ...old, listeners });
      else void queryClient.invalidateQueries({ queryKey: broadcastKeys.room() });
    });
  }, [realtime, data, queryClient]);

  useEffect(() => () => engineRef.current?.destroy(), []);

  const start = useCallback(async () => {
    setPhase('starting');
    try {
      const opened = await broadcastApi.start(code);
      queryClient.setQueryData(broadcastKeys.room(), withOffset(opened));
      const next = new LiveEngine(async () => {
        const token = await broadcastApi.mediaToken(code);
        return { url: token.url, token: token.token, iceServers: token.iceServers };
      });
      engineRef.current = next;
      setEngine(next);
      setPhase('in');
      await next.publish(opened.bitrate);
    } catch (error) {
      notify('error', 'Live', error instanceof Error ? error.message : String(error));
      void navigate('/live');
    }
  }, [code, navigate, queryClient]);

  const setSource = useCallback(
    (source: LiveSourceKind) => void engineRef.current?.setSource(source).catch(() => undefined),
    [],
  );

  /** Ends the broadcast for everyone: the publisher stops, listeners see it ended. */
  const stop = useCallback(async () => {
    engineRef.current?.stopPublishing();
    const ended = await broadcastApi.stop(code);
    queryClient.setQueryData(broadcastKeys.room(), withOffset(ended));
  }, [code, queryClient]);

  const resume = useCallback(async () => {
    const opened = await broadcastApi.start(code);
    queryClient.setQueryData(broadcastKeys.room(), withOffset(opened));
    await engineRef.current?.publish(opened.bitrate);
  }, [code, queryClient]);

  const exit = useCallback(async () => {
    if (engineRef.current?.publishing) await stop().catch(() => undefined);
    engineRef.current?.destroy();
    engineRef.current = null;
    void navigate('/live');
  }, [navigate, stop]);

  const copyLink = useCallback(async () => {
    if (!data) return;
    await navigator.clipboard.writeText(data.roomLink).catch(() => undefined);
    notify('success', 'Live', LIVE_MESSAGES.roomLinkCopiedTopBar);
  }, [data]);

  return { phase, room: data, roomError: room.error, engine, snapshot, start, stop, resume, exit, setSource, copyLink };
}
