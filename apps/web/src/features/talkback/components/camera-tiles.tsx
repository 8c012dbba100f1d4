import { Box, SimpleGrid, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

function CameraTile({ stream, name, self }: { stream: MediaStream; name: string; self: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current && video.current.srcObject !== stream) video.current.srcObject = stream;
  }, [stream]);
  return (
    <Box
      pos="relative"
      data-testid="camera-tile"
      data-name={name}
      style={{ borderRadius: 8, overflow: 'hidden', background: 'black', aspectRatio: '16 / 9' }}
    >
      {/* The voice plays through the talkback's audio graph: the picture stays muted. */}
      <video
        ref={video}
        autoPlay
        muted
        playsInline
        aria-label={`${name}'s camera`}
        style={{ width: '100%', height: '100%', objectFit: 'cover', transform: self ? 'scaleX(-1)' : undefined }}
      />
      <Text
        size="xs"
        c="white"
        pos="absolute"
        bottom={4}
        left={6}
        px={6}
        style={{ background: 'rgba(0,0,0,0.55)', borderRadius: 4 }}
      >
        {self ? `${name} (you)` : name}
      </Text>
    </Box>
  );
}

/** The cameras that are on: this user's own preview first, then everyone else's. */
export function CameraTiles({
  cameras,
  selfId,
  nameOf,
}: {
  cameras: ReadonlyMap<string, MediaStream>;
  selfId: string | null;
  nameOf: (userId: string) => string;
}) {
  if (cameras.size === 0) return null;
  const order = [...cameras.keys()].sort((a, b) => Number(b === selfId) - Number(a === selfId));
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="xs" data-testid="cameras">
      {order.map((userId) => (
        <CameraTile key={userId} stream={cameras.get(userId)!} name={nameOf(userId)} self={userId === selfId} />
      ))}
    </SimpleGrid>
  );
}
