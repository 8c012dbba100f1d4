import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconMapQuestion } from '@tabler/icons-react';
import { Link } from 'react-router';

const TEXTS = {
  folder: { title: 'Folder not found', text: 'This folder does not exist, or its address is incomplete.' },
  version: { title: 'Version not found', text: 'This version does not exist, or its address is incomplete.' },
} as const;

/** An address naming no folder or version (a mistyped or cut link): say so and offer the way back. */
export function MissingItem({ kind }: { kind: keyof typeof TEXTS }) {
  const page = TEXTS[kind];
  return (
    <Center mih="60vh" p="lg">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <IconMapQuestion size={56} stroke={1.3} color="var(--mantine-color-violet-4)" />
        <Title order={2}>{page.title}</Title>
        <Text c="dimmed">{page.text}</Text>
        <Button component={Link} to="/groups" mt="sm">
          Back to my groups
        </Button>
      </Stack>
    </Center>
  );
}
