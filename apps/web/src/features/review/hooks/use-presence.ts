import { useEffect, useRef, useState } from 'react';
import { PLAYER, PRESENCE } from '@mixroom/shared';
import { getAccessToken } from '../../../lib/api-client';
import { reviewApi } from '../api';
import { IdleWatch } from '../idle-watch';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Online while the review is open and the user active; offline on leaving, on closing the tab, and
 * after five minutes without input. Returns whether the
 * user counts as inactive.
 */
export function usePresenceHeartbeat(versionId: string | undefined, playing: boolean): boolean {
  const [inactive, setInactive] = useState(false);
  // Listening counts as activity: a reviewer playing a long mix is not idle.
  const playingRef = useRef(playing);
  useEffect(() => {
    playingRef.current = playing;
  }, [playing]);

  useEffect(() => {
    if (!versionId) return;
    const announce = (state: 'online' | 'offline') =>
      void reviewApi.setPresence(versionId, state).catch(() => undefined);
    const watch = new IdleWatch(PLAYER.inactivityTimeoutMs, {
      onIdle: () => {
        setInactive(true);
        announce('offline');
      },
      onActive: () => {
        setInactive(false);
        announce('online');
      },
      busy: () => playingRef.current,
    });
    const onActivity = () => watch.activity();
    // A closing tab cannot await fetch: keepalive lets the request outlive the page.
    const onLeave = () =>
      void getAccessToken().then((token) =>
        fetch(`/api/versions/${versionId}/presence`, {
          method: 'PUT',
          keepalive: true,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ state: 'offline' }),
        }),
      );
    announce('online');
    watch.start();
    const renew = setInterval(() => !watch.isIdle && announce('online'), PRESENCE.renewMs);
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    window.addEventListener('pagehide', onLeave);
    return () => {
      watch.stop();
      clearInterval(renew);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
      window.removeEventListener('pagehide', onLeave);
      announce('offline');
    };
  }, [versionId]);

  return inactive;
}
