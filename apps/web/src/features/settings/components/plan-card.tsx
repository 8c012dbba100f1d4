import { Badge, Button, Card, Group, ScrollArea, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format/format';
import { priceOf, type BillingInterval, type PlanCardModel } from '../plan-cards';
import classes from './plan-card.module.css';

/** The content area of every card is the same height, so prices and buttons line up. */
const CONTENT_HEIGHT = 400;
const ADMIN_HINT = 'Plans on this server are assigned by an administrator.';

function Feature({ line }: { line: string }) {
  if (line.startsWith('$')) {
    return (
      <Text className={classes.heading} size="xs" fw={700} tt="uppercase">
        {line.slice(1)}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <ThemeIcon size={18} radius="xl" color="teal" variant="light" mt={1}>
        <IconCheck size={12} />
      </ThemeIcon>
      <Text size="sm">{line}</Text>
    </Group>
  );
}

function LinkButton({ href, label, variant }: { href: string | null; label: string; variant: 'filled' | 'default' }) {
  if (!href) {
    return (
      <Button variant={variant} disabled fullWidth>
        {label}
      </Button>
    );
  }
  return (
    <Button component="a" href={href} target="_blank" rel="noopener noreferrer" variant={variant} fullWidth>
      {label}
    </Button>
  );
}

/** One plan: price for the chosen interval, its features, and Active / Buy / Manage. */
export function PlanCard({ card, interval, free }: { card: PlanCardModel; interval: BillingInterval; free: boolean }) {
  const { plan, active } = card;
  const price = priceOf(plan, interval);
  // Without a shop, plans are given by an administrator: the button says so instead of a dead Buy.
  const buy = (
    <LinkButton href={card.buy} label={card.buy || free ? 'Buy' : 'Ask your administrator'} variant="filled" />
  );
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      className={active ? classes.active : undefined}
      data-testid={`plan-${plan.sku}`}
    >
      <Group justify="space-between" wrap="nowrap">
        <Text fw={700} size="lg">
          {plan.name}
        </Text>
        {active && (
          <Badge color="teal" variant="light">
            Active
          </Badge>
        )}
        {!active && card.subscription?.trial && <Badge variant="light">Trial</Badge>}
      </Group>
      <Text size="sm" c="dimmed" mih={40}>
        {plan.description}
      </Text>
      <Group gap={6} align="baseline" mt="xs">
        <Text fz={28} fw={800}>
          {price.amount}
        </Text>
        <Text c="dimmed" size="sm">
          {price.per}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" h={18}>
        {active && card.activeUntil
          ? `Until ${formatDate(card.activeUntil)}`
          : interval === 'year' && !free
            ? 'Save 30% with a yearly plan'
            : ''}
      </Text>
      <ScrollArea h={CONTENT_HEIGHT} mt="sm" type="auto" offsetScrollbars>
        <Stack gap={4} className={classes.features}>
          {plan.features.map((line) => (
            <Feature key={line} line={line} />
          ))}
        </Stack>
      </ScrollArea>
      <Stack gap="xs" mt="md">
        {active && free ? (
          // The free plan's buttons are disabled: it is neither bought nor managed.
          <LinkButton href={null} label="Active" variant="default" />
        ) : active ? (
          card.manage ? (
            <LinkButton href={card.manage} label="Manage" variant="default" />
          ) : (
            <Tooltip label="Assigned by an administrator of this server." withArrow>
              <div>
                <LinkButton href={null} label="Manage" variant="default" />
              </div>
            </Tooltip>
          )
        ) : !card.buy && !free ? (
          <Tooltip label={ADMIN_HINT} withArrow>
            <div>{buy}</div>
          </Tooltip>
        ) : (
          buy
        )}
      </Stack>
    </Card>
  );
}
