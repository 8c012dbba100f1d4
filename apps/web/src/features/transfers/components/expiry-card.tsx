import { Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { formatDate } from '../../../lib/format/format';
import { expiryFromDateField, toDateField } from '../transfer-rules';

/** The expiry date, movable within the server's bounds (the creation … the creation plus the plan's longest duration). */
export function ExpiryCard({
  expiresAt,
  range,
  saving,
  onChange,
}: {
  expiresAt: string;
  range: { min: string; max: string };
  saving: boolean;
  onChange: (expiresAt: Date) => void;
}) {
  const bounds = { min: new Date(range.min), max: new Date(range.max) };
  const current = new Date(expiresAt);
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="xs">
        <Text fw={600}>Expiry</Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label="Expiration date"
            value={toDateField(current)}
            min={toDateField(bounds.min)}
            max={toDateField(bounds.max)}
            disabled={saving}
            w={200}
            onChange={(event) => {
              const next = expiryFromDateField(event.currentTarget.value, bounds);
              if (next && next.getTime() !== current.getTime()) onChange(next);
            }}
          />
          <Text size="sm" c="dimmed" pb={8}>
            Up to {formatDate(bounds.max.toISOString())}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}
