import { Badge, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Me } from '@mixroom/contracts';
import { useState } from 'react';
import { planCards, type BillingInterval } from '../plan-cards';
import { PlanCard } from './plan-card';

/** The plan cards with the monthly / annual switch. */
export function PlansSection({ me }: { me: Me }) {
  const [interval, setInterval] = useState<BillingInterval>('month');
  const cards = planCards(me, interval);
  const { billing, trial } = me.entitlements;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={3}>Plans</Title>
          <Text size="sm" c="dimmed">
            {billing.provider === 'admin'
              ? 'Plans on this server are assigned by an administrator.'
              : 'Plans are bought at the shop; your limits add up across the plans you hold.'}
            {trial && ` Your trial runs${trial.endsAt ? ` until ${new Date(trial.endsAt).toLocaleDateString()}` : ''}.`}
          </Text>
        </div>
        <Group gap="xs">
          <SegmentedControl
            value={interval}
            onChange={(value) => setInterval(value as BillingInterval)}
            data={[
              { label: 'Monthly', value: 'month' },
              { label: 'Annual', value: 'year' },
            ]}
            aria-label="Billing interval"
          />
          <Badge variant="light" color="teal">
            Annual saves 30%
          </Badge>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        {cards.map((card) => (
          <PlanCard key={card.plan.sku} card={card} interval={interval} free={card.plan.sku === 'FREE'} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
