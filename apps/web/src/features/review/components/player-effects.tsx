import { Text } from '@mantine/core';
import { useEffect } from 'react';
import { PLAYER } from '@mixroom/shared';
import { usePlayer, usePlayerState } from '../hooks/use-player';
import { usePlayerShortcuts, type ShortcutHandlers } from '../hooks/use-player-shortcuts';
import { usePresenceHeartbeat } from '../hooks/use-presence';

/** Shortcuts, presence and the corrupt-audio check need the player that the waveform creates. */
export function PlayerEffects({
  projectId,
  versionId,
  onLoadError,
  shortcuts,
}: {
  projectId: string;
  versionId: string;
  onLoadError: () => void;
  shortcuts: ShortcutHandlers;
}) {
  const player = usePlayer();
  const playing = usePlayerState((s) => s.playing);
  const error = usePlayerState((s) => s.error);
  usePlayerShortcuts(player, shortcuts);
  const inactive = usePresenceHeartbeat(projectId, versionId, playing);
  useEffect(() => {
    if (error) onLoadError();
  }, [error, onLoadError]);
  return inactive ? (
    <Text size="xs" c="dimmed" mt={4}>
      You are shown as away after {PLAYER.inactivityTimeoutMs / 60_000} minutes without activity.
    </Text>
  ) : null;
}
