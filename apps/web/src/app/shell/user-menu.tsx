import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth/auth-context';
import { useMe } from '../../features/users/queries';

export function UserMenu() {
  const { signOut } = useAuth();
  const me = useMe().data;
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Group gap={8} wrap="nowrap">
            <Avatar src={me?.photoUrl} name={me?.displayName} color="initials" radius="xl" size={32} />
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {me?.displayName}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{me?.email}</Menu.Label>
        <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => void navigate('/settings')}>
          Settings
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => signOut()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
