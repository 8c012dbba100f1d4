import { ActionIcon, Badge, Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminUserRow } from '@mixroom/contracts';
import { PLAN_SKUS, PLANS, type PlanSku } from '@mixroom/shared';
import { formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { useGrantPlan, useRevokePlan } from '../queries';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

/** A user's private data, each section with its 'No …' text when absent. */
export function UserDetails({ user }: { user: AdminUserRow }) {
  const [sku, setSku] = useState<PlanSku | null>(null);
  const grant = useGrantPlan();
  const revoke = useRevokePlan();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} p="md" spacing="lg">
      <Section title="Product store account">
        <Text size="sm">No store account</Text>
      </Section>
      <Section title="Live Room">
        <Text size="sm">No Live Room</Text>
      </Section>
      <Section title="Live Streaming Room">
        <Text size="sm">No Live Streaming Room</Text>
      </Section>
      <Section title="User Extra Info">
        <Text size="sm">isAdmin: {String(user.isAdmin)}</Text>
        <Text size="sm">canBroadcast: {String(user.canBroadcast)}</Text>
      </Section>
      <Section title="Live trial">
        <Text size="sm">No live trial</Text>
      </Section>
      <Section title="Plans">
        {user.plans.length === 0 && <Text size="sm">No plans (Free)</Text>}
        {user.plans.map((p) => (
          <Group key={p.id} gap="xs">
            <Badge variant="light" color={p.active ? 'teal' : 'gray'}>
              {PLANS[p.sku].name}
            </Badge>
            <Text size="xs" c="dimmed">
              {formatDate(p.startsAt)} → {p.endsAt ? formatDate(p.endsAt) : 'no end'}
            </Text>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label="Revoke plan"
              onClick={() => revoke.mutate({ userId: user.id, grantId: p.id })}
            >
              <IconTrash size={14} />
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs" mt={4}>
          <Select
            size="xs"
            placeholder="Plan"
            value={sku}
            onChange={(value) => setSku(value as PlanSku | null)}
            data={PLAN_SKUS.filter((s) => s !== 'FREE').map((s) => ({ value: s, label: `${PLANS[s].name} (${s})` }))}
            w={200}
          />
          <Button
            size="xs"
            disabled={!sku}
            loading={grant.isPending}
            onClick={() =>
              sku &&
              grant.mutate(
                { userId: user.id, sku, endsAt: null },
                { onSuccess: () => notify('success', 'Success!', `${PLANS[sku].name} granted to ${user.displayName}`) },
              )
            }
          >
            Grant
          </Button>
        </Group>
      </Section>
    </SimpleGrid>
  );
}
