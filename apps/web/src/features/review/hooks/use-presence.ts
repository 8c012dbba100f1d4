import { useEffect, useRef, useState } from 'react';
import type { PresenceUser } from '@mixroom/contracts';
import { PLAYER } from '@mixroom/shared';
import { useRealtimeClient } from '../../../lib/realtime/realtime-provider';
import { IdleWatch } from '../idle-watch';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** A version's presence scope under its project's topic. */
const where = (projectId: string, versionId: string) => ({
  topic: `project:${projectId}`,
  scope: `version:${versionId}`,
});

/**
 * Shown on the review while it is open and the user active: the socket joins the version's scope;
 * after five minutes without input it leaves, and joins again on the next input. Closing the tab
 * closes the socket, which leaves at once. Returns whether the user counts as inactive.
 */
export function usePresenceHeartbeat(
  projectId: string | undefined,
  versionId: string | undefined,
  playing: boolean,
): boolean {
  const client = useRealtimeClient();
  const [inactive, setInactive] = useState(false);
  // Listening counts as activity: a reviewer playing a long mix is not idle.
  const playingRef = useRef(playing);
  useEffect(() => {
    playingRef.current = playing;
  }, [playing]);

  useEffect(() => {
    if (!client || !projectId || !versionId) return;
    const { topic, scope } = where(projectId, versionId);
    const stopWatching = client.watchPresence(topic, scope, () => undefined);
    const watch = new IdleWatch(PLAYER.inactivityTimeoutMs, {
      onIdle: () => {
        setInactive(true);
        client.setPresent(topic, scope, false);
      },
      onActive: () => {
        setInactive(false);
        client.setPresent(topic, scope, true);
      },
      busy: () => playingRef.current,
    });
    const onActivity = () => watch.activity();
    client.setPresent(topic, scope, true);
    watch.start();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    return () => {
      watch.stop();
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
      client.setPresent(topic, scope, false);
      stopWatching();
    };
  }, [client, projectId, versionId]);

  return inactive;
}

/** Everyone present on a version's review right now, this user included. */
export function usePresenceUsers(projectId: string, versionId: string): PresenceUser[] {
  const client = useRealtimeClient();
  const [users, setUsers] = useState<PresenceUser[]>([]);
  useEffect(() => {
    if (!client) return;
    const { topic, scope } = where(projectId, versionId);
    return client.watchPresence(topic, scope, setUsers);
  }, [client, projectId, versionId]);
  return users;
}
