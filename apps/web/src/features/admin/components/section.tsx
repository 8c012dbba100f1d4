import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled block of the expanded row. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4} miw={0}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  );
}
