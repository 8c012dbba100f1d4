import { Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { liveJoinedPath } from '@mixroom/shared';
import { useNavigate } from 'react-router';
import { GuestCard } from '../features/live/components/guest-card';
import { HostCard } from '../features/live/components/host-card';
import { useLiveRooms, useRegenerateCode } from '../features/live/queries';

/** /live: the Host card (start, codes, link, instructions, installer) and the Guest card (join by code). */
export function LivePage() {
  const rooms = useLiveRooms();
  const regenerate = useRegenerateCode();
  const navigate = useNavigate();
  const room = rooms.data;
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
        </SimpleGrid>
      )}
    </Stack>
  );
}
