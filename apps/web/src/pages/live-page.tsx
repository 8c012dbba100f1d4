import { Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { liveJoinedPath } from '@mixroom/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BroadcasterCard } from '../features/broadcast/components/broadcaster-card';
import { useBroadcastRoom } from '../features/broadcast/queries';
import { BRIDGE_INSTALLER_URL } from '../features/live';
import { InstructionsDialog } from '../features/live/components/instructions-dialog';
import { useMe } from '../features/users/queries';
import { GuestCard } from '../features/live/components/guest-card';
import { HostCard } from '../features/live/components/host-card';
import { useLiveRooms, useRegenerateCode } from '../features/live/queries';

/**
 * /live: the Host card (start, codes, link, instructions, installer), the Guest card (join by code)
 * and, for a user who may broadcast, the Broadcaster card.
 */
export function LivePage() {
  const rooms = useLiveRooms();
  const regenerate = useRegenerateCode();
  const navigate = useNavigate();
  const room = rooms.data;
  // The Broadcaster card: only for a user an administrator let broadcast, or whose plan does.
  const me = useMe().data;
  const broadcast = useBroadcastRoom(Boolean(me && (me.canBroadcast || me.limits.liveBroadcast)));
  const [instructions, setInstructions] = useState(false);
  return (
    <Stack gap="md" maw={1000}>
      <div>
        <Title order={2}>Live</Title>
        <Text c="dimmed" size="sm">
          Stream your DAW to listeners in studio quality, or join a session.
        </Text>
      </div>
      {rooms.isPending ? (
        <Center h={200}>
          <Loader />
        </Center>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <HostCard
            hostCode={room?.hostCode ?? null}
            guestCode={room?.guestCode ?? null}
            liveUrl={room?.liveUrl ?? null}
            regenerating={regenerate.isPending}
            onStart={() => room && void navigate(liveJoinedPath(room.hostCode, 'host'))}
            onRegenerate={() => {
              // A new room: both codes change together so the old guest link stops too.
              void regenerate.mutateAsync('host').then(() => regenerate.mutate('guest'));
            }}
          />
          <GuestCard onJoin={(code) => void navigate(liveJoinedPath(code, 'guest'))} />
          {broadcast.data && (
            <BroadcasterCard
              room={broadcast.data}
              installerUrl={BRIDGE_INSTALLER_URL}
              onStart={() =>
                broadcast.data && void navigate(liveJoinedPath(broadcast.data.broadcasterCode, 'broadcaster'))
              }
              onInstructions={() => setInstructions(true)}
            />
          )}
        </SimpleGrid>
      )}
      <InstructionsDialog opened={instructions} onClose={() => setInstructions(false)} />
    </Stack>
  );
}
