import { SimpleGrid, Stack, Title } from '@mantine/core';
import { CreditsCard } from '../features/settings/components/credits-card';
import { LimitsCard } from '../features/settings/components/limits-card';
import { PlansSection } from '../features/settings/components/plans-section';
import { ProfileCard } from '../features/settings/components/profile-card';
import { StorageCard } from '../features/settings/components/storage-card';
import { PushCard } from '../features/users/components/push-card';
import { useMe } from '../features/users/queries';

/**
 * /settings: profile, available credits with their history, used storage, the plan cards and
 * notifications. Everything comes from the signed-in user, which refreshes when a plan is granted
 * or credits move (the realtime user.updated event), so the screen follows without a reload.
 */
export function SettingsPage() {
  const me = useMe().data;
  if (!me) return null;
  return (
    <Stack gap="lg" maw={1280}>
      <Title order={2}>Settings</Title>
      <ProfileCard me={me} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <CreditsCard credits={me.entitlements.credits} />
        <StorageCard storage={me.entitlements.storage} />
      </SimpleGrid>
      <PlansSection me={me} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <LimitsCard me={me} />
        <PushCard />
      </SimpleGrid>
    </Stack>
  );
}
