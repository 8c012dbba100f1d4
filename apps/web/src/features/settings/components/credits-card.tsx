import { Button, Card, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { CreditEntry, EntitlementsSummary } from '@mixroom/contracts';
import { IconSparkles } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format/format';
import { useMyCredits } from '../queries';

function Amount({ entry }: { entry: CreditEntry }) {
  return (
    <Text size="sm" fw={600} c={entry.amount >= 0 ? 'teal' : 'red'} ta="right">
      {entry.amount > 0 ? `+${entry.amount}` : `−${Math.abs(entry.amount)}`}
    </Text>
  );
}

/** Available AI credits, when they renew, and the ledger of every change. */
export function CreditsCard({ credits }: { credits: EntitlementsSummary['credits'] }) {
  const ledger = useMyCredits();
  const entries = ledger.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Card withBorder radius="lg" padding="lg" h="100%">
      <Group gap="xs" mb="xs">
        <IconSparkles size={20} color="var(--mantine-color-violet-4)" />
        <Text fw={700}>Available credits</Text>
      </Group>
      <Text size="xl" fw={700} data-testid="credits-balance">
        {credits.balance.toLocaleString()}{' '}
        <Text span c="dimmed" size="md" fw={400}>
          credits
        </Text>
      </Text>
      <Text size="xs" c="dimmed">
        {credits.perMonth} credits every month, next on {formatDate(credits.renewsAt)}. Unused credits carry over.
      </Text>
      <Text fw={600} size="sm" mt="md" mb={4}>
        History
      </Text>
      <ScrollArea.Autosize mah={220} type="auto">
        {entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            {ledger.isPending ? 'Loading…' : 'No credits used yet.'}
          </Text>
        ) : (
          <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing={0}>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td w={96}>
                    <Text size="xs" c="dimmed">
                      {formatDate(entry.at)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={1}>
                      {entry.reason}
                    </Text>
                  </Table.Td>
                  <Table.Td w={56}>
                    <Amount entry={entry} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ScrollArea.Autosize>
      {ledger.hasNextPage && (
        <Stack align="center" mt="xs">
          <Button
            variant="subtle"
            size="xs"
            loading={ledger.isFetchingNextPage}
            onClick={() => void ledger.fetchNextPage()}
          >
            Show older
          </Button>
        </Stack>
      )}
    </Card>
  );
}
