import { ActionIcon, Badge, Button, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminUser } from '@mixroom/contracts';
import { PLAN_SKUS, PLANS, type PlanSku } from '@mixroom/shared';
import { formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { useGrantPlan, useRevokePlan } from '../queries';
import { Section } from './section';

/** The end of the chosen day in the administrator's time zone, or null for no end. */
const endOfDay = (date: string) => (date ? new Date(`${date}T23:59:59`).toISOString() : null);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** Plans granted to the account: active ones can be revoked; a new grant may end on a date. */
export function UserPlans({ user }: { user: AdminUser }) {
  const [sku, setSku] = useState<PlanSku | null>(null);
  const [until, setUntil] = useState('');
  const grant = useGrantPlan();
  const revoke = useRevokePlan();
  const plans = [...user.plans].reverse();
  return (
    <Section title="Plans">
      {!plans.some((p) => p.active) && <Text size="sm">No plans (Free)</Text>}
      {plans.map((p) => (
        <Group key={p.id} gap="xs" wrap="nowrap">
          {/* The plan's whole name: the dates beside it wrap instead. */}
          <Badge variant="light" color={p.active ? 'teal' : 'gray'} style={{ flexShrink: 0, minWidth: 'max-content' }}>
            {PLANS[p.sku].name}
          </Badge>
          <Text size="xs" c="dimmed">
            {formatDate(p.startsAt)} → {p.endsAt ? formatDate(p.endsAt) : 'no end'}
            {!p.active && ' · ended'}
          </Text>
          {p.active && (
            <Tooltip label="Revoke: the plan ends now">
              <ActionIcon
                size="sm"
                variant="subtle"
                color="red"
                aria-label={`Revoke ${PLANS[p.sku].name}`}
                onClick={() => revoke.mutate({ userId: user.id, grantId: p.id })}
              >
                <IconX size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ))}
      <Group gap="xs" mt={4} align="end">
        <Select
          size="xs"
          label="Plan"
          placeholder="Choose a plan"
          value={sku}
          onChange={(value) => setSku(value as PlanSku | null)}
          data={PLAN_SKUS.filter((s) => s !== 'FREE').map((s) => ({ value: s, label: PLANS[s].name }))}
          w={190}
        />
        <TextInput
          size="xs"
          type="date"
          label="Until (optional)"
          value={until}
          min={tomorrow()}
          onChange={(e) => setUntil(e.currentTarget.value)}
          w={150}
        />
        <Button
          size="xs"
          disabled={!sku}
          loading={grant.isPending}
          onClick={() =>
            sku &&
            grant.mutate(
              { userId: user.id, sku, endsAt: endOfDay(until) },
              {
                onSuccess: () => {
                  notify('success', 'Success!', `${PLANS[sku].name} granted to ${user.displayName}`);
                  setSku(null);
                  setUntil('');
                },
              },
            )
          }
        >
          Grant
        </Button>
      </Group>
    </Section>
  );
}
