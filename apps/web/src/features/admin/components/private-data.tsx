import { Badge, Group, Text } from '@mantine/core';
import type { AdminUserDetail } from '@mixroom/contracts';
import { formatDate } from '../../../lib/format/format';
import { Section } from './section';

type RoomCodes = { roomCodes: { role: string; code: string }[] } | null;

function Codes({ room, empty }: { room: RoomCodes; empty: string }) {
  if (!room || room.roomCodes.length === 0) return <Text size="sm">{empty}</Text>;
  return (
    <Group gap={6}>
      {room.roomCodes.map((c) => (
        <Badge key={`${c.role}:${c.code}`} variant="light" tt="none">
          {c.role}: {c.code}
        </Badge>
      ))}
    </Group>
  );
}

const fromSeconds = (seconds: number) => formatDate(new Date(seconds * 1000).toISOString());

/** The account's private data, each section with its 'No …' text when absent. */
export function PrivateData({ data }: { data: AdminUserDetail['privateData'] }) {
  return (
    <>
      <Section title="Store account">
        {data.storeAccount ? (
          data.storeAccount.subscriptions.map((s) => (
            <Text size="sm" key={`${s.sku}:${s.status}`}>
              {s.sku} · {s.status}
            </Text>
          ))
        ) : (
          <Text size="sm">No store account</Text>
        )}
      </Section>
      <Section title="Live Room">
        <Codes room={data.liveRoom} empty="No Live Room codes" />
      </Section>
      <Section title="Live Streaming Room">
        <Codes room={data.liveStreamingRoom} empty="No Live Streaming Room codes" />
      </Section>
      <Section title="User Extra Info">
        <Text size="sm">canBroadcast: {String(data.userExtraInfo.canBroadcast)}</Text>
        <Text size="sm">isAdmin: {String(data.userExtraInfo.isAdmin)}</Text>
      </Section>
      <Section title="Live trial">
        {data.liveTrial ? (
          <Text size="sm">
            {fromSeconds(data.liveTrial.start)} → {data.liveTrial.end ? fromSeconds(data.liveTrial.end) : 'no end'}
          </Text>
        ) : (
          <Text size="sm">No live trial</Text>
        )}
      </Section>
    </>
  );
}
