import { Anchor, Center, Divider, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminUser } from '@mixroom/contracts';
import { useAdminUser } from '../queries';
import { PrivateData } from './private-data';
import { UserControls } from './user-controls';
import { UserCredits } from './user-credits';
import { UserPlans } from './user-plans';
import { UserUsage } from './user-usage';

/**
 * An expanded row: the account's private data (the grid's sections, each with its 'No …' text), then
 * what an operator does with it: plans, access, credits, and what the account uses.
 */
export function UserDetails({ user }: { user: AdminUser }) {
  const detail = useAdminUser(user.id);
  if (detail.isPending)
    return (
      <Center p="md">
        <Loader size="sm" />
      </Center>
    );
  if (detail.isError || !detail.data)
    return (
      <Text c="red" p="md" size="sm">
        {detail.error?.message ?? 'Something went wrong'}
      </Text>
    );
  // The row of the list may be a moment older than the detail: the detail's copy decides.
  const current = detail.data.user;
  return (
    <Stack gap="md" p="md" data-testid="user-details">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="lg">
        <PrivateData data={detail.data.privateData} />
      </SimpleGrid>
      <Divider />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        <UserPlans user={current} />
        <UserControls user={current} />
        <UserCredits userId={user.id} />
        <UserUsage detail={detail.data} />
      </SimpleGrid>
      <Anchor component={Link} to={`/admin/audit?target=${user.id}`} size="sm" w="fit-content">
        Audit log of this account
      </Anchor>
    </Stack>
  );
}
