import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatDate } from '../../../lib/format/format';
import { useAdjustCredits, useUserCredits } from '../queries';
import { Section } from './section';

/** The account's AI credits: balance, latest ledger entries, an adjustment with its reason. */
export function UserCredits({ userId }: { userId: string }) {
  const credits = useUserCredits(userId);
  const adjust = useAdjustCredits();
  const [amount, setAmount] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const value = typeof amount === 'number' ? amount : Number.NaN;
  const valid = Number.isInteger(value) && value !== 0 && reason.trim().length > 0;
  return (
    <Section title="Credits">
      <Text size="sm" fw={600} data-testid="admin-credits-balance">
        {credits.data ? `${credits.data.balance} credits` : '…'}
        {credits.data && (
          <Text span size="xs" c="dimmed" fw={400}>
            {' '}
            · {credits.data.perMonth} a month
          </Text>
        )}
      </Text>
      <Stack gap={0}>
        {credits.data?.entries.map((e) => (
          <Text key={e.id} size="xs" c="dimmed" truncate>
            {formatDate(e.at)} · {e.amount > 0 ? `+${e.amount}` : e.amount} · {e.reason}
          </Text>
        ))}
      </Stack>
      <Group gap="xs" align="end" mt={4}>
        <NumberInput
          size="xs"
          label="Add or take"
          placeholder="e.g. 50 or -20"
          value={amount}
          onChange={setAmount}
          allowDecimal={false}
          w={110}
        />
        <TextInput
          size="xs"
          label="Reason"
          placeholder="Why"
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 120 }}
        />
        <Button
          size="xs"
          disabled={!valid}
          loading={adjust.isPending}
          onClick={() =>
            adjust.mutate(
              { userId, amount: value, reason: reason.trim() },
              {
                onSuccess: () => {
                  setAmount('');
                  setReason('');
                },
              },
            )
          }
        >
          Adjust
        </Button>
      </Group>
    </Section>
  );
}
