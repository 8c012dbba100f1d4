import { Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Mixroom home">
      <Group gap={8} wrap="nowrap">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <Text fw={800} size="lg" className="mixroom-gradient-text">
          Mixroom
        </Text>
      </Group>
    </Link>
  );
}
