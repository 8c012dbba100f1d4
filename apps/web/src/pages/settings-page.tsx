import { SimpleGrid, Stack, Title } from '@mantine/core';
import { ConnectorsCard } from '../features/connectors/components/connectors-card';
import { CreditsCard } from '../features/settings/components/credits-card';
import { DeleteAccountCard } from '../features/settings/components/delete-account-card';
import { LimitsCard } from '../features/settings/components/limits-card';
import { PlansSection } from '../features/settings/components/plans-section';
import { PrivacyCard } from '../features/settings/components/privacy-card';
import { ProfileCard } from '../features/settings/components/profile-card';
import { StorageCard } from '../features/settings/components/storage-card';
import { PushDeviceToggle } from '../features/users/components/push-device-toggle';
import { useMe } from '../features/users/queries';

/**
 * /settings: profile (picture, display name, e-mail), available credits with their history, used
 * storage, privacy (notification channels, download my data), the plan cards, limits, the linked
 * storage accounts and delete account. Everything but the linked accounts comes from the signed-in
 * user, which refreshes when a plan is granted or credits move (the realtime user.updated event), so
 * the screen follows without a reload.
 * Cards stack in one column below 1000 px.
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
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <PrivacyCard me={me} pushDevice={<PushDeviceToggle />} />
        <LimitsCard me={me} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ConnectorsCard />
      </SimpleGrid>
      <PlansSection me={me} />
      <DeleteAccountCard me={me} />
    </Stack>
  );
}
