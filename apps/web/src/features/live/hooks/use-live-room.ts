import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_LIVE_BITRATE, LIVE_ERROR_CODES, LIVE_MESSAGES, type LiveBitrate } from '@mixroom/shared';
import { createElement, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { ApiError, getAccessToken } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useRealtimeClient } from '../../../lib/realtime/realtime-provider';
import { liveApi } from '../api';
import { LiveEngine } from '../live-engine';
import { INITIAL_SNAPSHOT, type LiveSourceKind } from '../live-engine-state';
import { tabInstanceId } from '../links';
import { liveKeys, useLiveSession } from '../queries';

export type RoomType = 'host' | 'guest';
type Phase = 'prompt' | 'entering' | 'in';

/** An alert with one OK button (the spec's 'alert'); resolves when closed. */
function alert(title: string, message: string): Promise<void> {
  return new Promise((resolve) => {
    modals.open({
      title,
      centered: true,
      children: createElement('p', { style: { margin: 0 } }, message),
      onClose: resolve,
    });
  });
}

/**
 * A live room from the first click to leaving: enters (host start / guest join), listens to every
 * other publisher, publishes while allowed, follows the room's topic and presence, counts the free
 * time down, and guards leaving (in-app and tab close). Leaving tells the server; a hidden page does
 * so with a keepalive request.
 */
export function useLiveRoom(code: string, type: RoomType) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const realtime = useRealtimeClient();
  const instanceId = useMemo(() => tabInstanceId(), []);
  const [phase, setPhase] = useState<Phase>('prompt');
  const [engine, setEngine] = useState<LiveEngine | null>(null);
  const leaving = useRef(false);
  const token = useRef<string | null>(null);

  const session = useLiveSession(code, phase === 'in');
  const data = session.data ?? null;
  const snapshot = useSyncExternalStore(
    engine?.subscribe ?? noopSubscribe,
    () => engine?.snapshot ?? INITIAL_SNAPSHOT,
    () => INITIAL_SNAPSHOT,
  );

  // --- leaving -----------------------------------------------------------------------------------

  const cleanUp = useCallback(() => {
    if (leaving.current) return;
    leaving.current = true;
    engine?.destroy();
    void liveApi.leave(code, instanceId).catch(() => undefined);
  }, [engine, code, instanceId]);

  /** Leaves without asking (Exit confirmed, expiry, a newer tab, the host ended the room). */
  const forceExit = useCallback(() => {
    cleanUp();
    void navigate('/live/');
  }, [cleanUp, navigate]);

  // Guard: an in-app navigation while in the room asks first; closing the tab asks the browser's way.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      phase === 'in' && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modals.openConfirmModal({
      title: LIVE_MESSAGES.leaveTitle,
      centered: true,
      children: createElement('p', { style: { margin: 0 } }, LIVE_MESSAGES.leaveConfirm),
      labels: { confirm: 'Leave', cancel: 'Stay' },
      onConfirm: () => {
        cleanUp();
        blocker.proceed();
      },
      onCancel: () => blocker.reset(),
    });
  }, [blocker, cleanUp]);

  useEffect(() => {
    if (phase !== 'in') return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = LIVE_MESSAGES.leaveConfirm;
    };
    // The tab goes: leave with a request that outlives the page.
    const pageHide = () => {
      if (leaving.current || !token.current) return;
      void fetch(`/api/live/${encodeURIComponent(code)}/leave`, {
        method: 'POST',
        keepalive: true,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.current}` },
        body: JSON.stringify({ instanceId }),
      }).catch(() => undefined);
    };
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pagehide', pageHide);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pagehide', pageHide);
    };
  }, [phase, code, instanceId]);

  // The access token for the pagehide request, kept fresh while in the room.
  useEffect(() => {
    if (phase !== 'in') return;
    const refresh = () => void getAccessToken().then((t) => (token.current = t));
    refresh();
    const timer = setInterval(refresh, 30_000);
    return () => clearInterval(timer);
  }, [phase]);

  // Unmounting (the guard let a navigation through, or Exit) cleans up.
  const cleanUpRef = useRef(cleanUp);
  useEffect(() => {
    cleanUpRef.current = cleanUp;
  }, [cleanUp]);
  useEffect(() => () => cleanUpRef.current(), []);

  // --- entering ----------------------------------------------------------------------------------

  /** 'Click Ok to start': the click creates the AudioContext, then the room is entered. */
  const begin = useCallback(async () => {
    setPhase('entering');
    const created = new LiveEngine(async (mode) => {
      const grant = await liveApi.mediaToken(code, mode);
      return {
        url: grant.url,
        token: grant.token,
        iceServers: grant.iceServers,
        slotCount: grant.slotCount,
        lossless: grant.lossless,
      };
    });
    setEngine(created);
    try {
      const entered = type === 'host' ? await liveApi.start(code, instanceId) : await liveApi.join(code, instanceId);
      queryClient.setQueryData(liveKeys.session(code), entered);
      setPhase('in');
      void created.listen();
    } catch (error) {
      created.destroy();
      leaving.current = true;
      const apiCode = error instanceof ApiError ? error.code : '';
      if (apiCode === LIVE_ERROR_CODES.roomFull) await alert(LIVE_MESSAGES.roomFullTitle, LIVE_MESSAGES.roomFull);
      else if (apiCode === LIVE_ERROR_CODES.freeTierExpired)
        await alert(LIVE_MESSAGES.freeTierExpiredTitle, LIVE_MESSAGES.freeTierExpired);
      else if (apiCode === LIVE_ERROR_CODES.notStarted || (error instanceof ApiError && error.status === 404))
        await alert(LIVE_MESSAGES.notStartedTitle, LIVE_MESSAGES.notStarted);
      else await alert('Live', error instanceof Error ? error.message : String(error));
      void navigate('/live/');
    }
  }, [code, type, instanceId, queryClient, navigate]);

  // --- publishing follows the session's word ------------------------------------------------------

  const canPublish = data?.you.canPublish ?? false;
  const ownBitrate = (data?.streams.find((s) => s.userId === data.you.userId)?.bitrate ??
    data?.bitrate ??
    DEFAULT_LIVE_BITRATE) as LiveBitrate;
  useEffect(() => {
    if (!engine || phase !== 'in') return;
    if (canPublish && !engine.publishing)
      void engine.publish(ownBitrate).catch((e: Error) => notify('error', 'Live', e.message));
    if (!canPublish && engine.publishing) engine.stopPublishing();
    // ownBitrate is read at the start only; later changes go through setQuality.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [engine, phase, canPublish]);

  // --- whose audio each received slot carries (the server's slot map, on this socket only) --------

  const viewState = snapshot.viewState;
  const roomCode = data?.code ?? null;
  useEffect(() => {
    if (!realtime || !engine || !roomCode || phase !== 'in') return;
    const code = roomCode;
    const follow = () => {
      const resourceId = engine.viewerResourceId;
      if (resourceId) realtime.send({ type: 'live.slots', code, resourceId });
    };
    // Again after a reconnect (`ready`) and whenever the listener reconnected to a new resource.
    follow();
    return realtime.onMessage((message) => {
      if (message.type === 'ready') follow();
      if (message.type === 'live.slots' && message.code === code) engine.setSlotOwners(message.slots);
    });
  }, [realtime, engine, roomCode, phase, viewState]);

  // --- the room's topic, presence and events ------------------------------------------------------

  const topic = data ? `live:${data.code}` : null;
  const [present, setPresentIds] = useState<Set<string>>(new Set());
  useEffect(() => {
    if (!realtime || !topic || phase !== 'in') return;
    const stop = realtime.watchPresence(topic, 'room', (users) => setPresentIds(new Set(users.map((u) => u.id))));
    realtime.setPresent(topic, 'room', true);
    const stopEvents = realtime.onEvent((event) => {
      if (event.type !== 'live.changed' || `live:${event.data.code}` !== topic) return;
      const self = data?.you.userId;
      if (event.data.action === 'expired') {
        forceExit();
        void alert(LIVE_MESSAGES.freeTierExpiredTitle, LIVE_MESSAGES.freeTierExpired);
      } else if (event.data.action === 'ended' && type !== 'host') {
        notify('info', 'Live', LIVE_MESSAGES.sessionEnded);
        forceExit();
      } else if (
        event.data.action === 'takeover' &&
        event.data.userId === self &&
        event.data.instanceId !== instanceId
      ) {
        notify('info', 'Live', LIVE_MESSAGES.replacedByOtherTab);
        forceExit();
      }
    });
    return () => {
      realtime.setPresent(topic, 'room', false);
      stop();
      stopEvents();
    };
  }, [realtime, topic, phase, data?.you.userId, forceExit, instanceId, type]);

  // --- free time ------------------------------------------------------------------------------------

  const [remainingMs, setRemainingMs] = useState<number | null>(null);
  const serverRemaining = data?.remainingMs ?? null;
  useEffect(() => {
    if (serverRemaining === null) {
      const timer = setTimeout(() => setRemainingMs(null), 0);
      return () => clearTimeout(timer);
    }
    const until = Date.now() + serverRemaining;
    const tick = () => setRemainingMs(Math.max(0, until - Date.now()));
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [serverRemaining, data?.lastUpdate]);
  useEffect(() => {
    if (remainingMs !== 0 || phase !== 'in') return;
    forceExit();
    void alert(LIVE_MESSAGES.freeTierExpiredTitle, LIVE_MESSAGES.freeTierExpired);
  }, [remainingMs, phase, forceExit]);

  // The room is gone (host regenerated its code, or ended): leave.
  useEffect(() => {
    if (phase === 'in' && session.error instanceof ApiError && session.error.status === 404) {
      notify('info', LIVE_MESSAGES.notStartedTitle, LIVE_MESSAGES.sessionEnded);
      forceExit();
    }
  }, [phase, session.error, forceExit]);

  // --- controls ------------------------------------------------------------------------------------

  const setQuality = useCallback(
    async (bitrate: LiveBitrate) => {
      if (!engine) return;
      const updated = await liveApi.settings(code, { bitrate });
      queryClient.setQueryData(liveKeys.session(code), updated);
      await engine.setBitrate(bitrate);
    },
    [engine, code, queryClient],
  );

  const setSource = useCallback(
    async (source: LiveSourceKind, deviceId?: string | null) => {
      if (!engine) return;
      const wire = source === 'plugin' ? 0 : source === 'driver' ? 1 : null;
      void liveApi
        .settings(code, { source: wire })
        .then((updated) => queryClient.setQueryData(liveKeys.session(code), updated))
        .catch(() => undefined);
      await engine.setSource(source, deviceId);
    },
    [engine, code, queryClient],
  );

  const setLossless = useCallback(
    (on: boolean) => {
      if (engine) void engine.setLossless(on).catch((e: Error) => notify('error', 'Live', e.message));
    },
    [engine],
  );

  const setCoHost = useCallback(
    async (userId: string, enabled: boolean) => {
      try {
        const updated = await liveApi.coHost(code, userId, enabled);
        queryClient.setQueryData(liveKeys.session(code), updated);
      } catch (error) {
        notify('warning', 'Live', error instanceof Error ? error.message : String(error));
      }
    },
    [code, queryClient],
  );

  return {
    phase,
    begin,
    engine,
    snapshot,
    session: data,
    present,
    remainingMs,
    forceExit,
    setQuality,
    setSource,
    setLossless,
    setCoHost,
    alert,
  };
}

const noopSubscribe = () => () => undefined;
