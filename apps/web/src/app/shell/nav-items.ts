import {
  IconBroadcast,
  IconFolders,
  IconSend,
  IconSettings,
  IconShieldLock,
  IconWand,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  children?: { label: string; to: string }[];
  adminOnly?: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  {
    label: 'Groups',
    to: '/groups',
    icon: IconFolders,
    children: [
      { label: 'All groups', to: '/groups' },
      { label: 'Trash', to: '/groups/trash' },
    ],
  },
  {
    label: 'Transfer',
    to: '/transfer',
    icon: IconSend,
    children: [
      { label: 'New transfer', to: '/transfer' },
      { label: 'My Transfers', to: '/transfer/history' },
      { label: 'File requests', to: '/transfer/requests' },
    ],
  },
  {
    label: 'Tools',
    to: '/tools',
    icon: IconWand,
    children: [
      { label: 'Stem Separation', to: '/tools/stemseparation' },
      { label: 'Voice Conversion', to: '/tools/revoice' },
      { label: 'My Tasks', to: '/tools/history' },
    ],
  },
  { label: 'Live', to: '/live', icon: IconBroadcast },
  { label: 'Settings', to: '/settings', icon: IconSettings },
  {
    label: 'Admin',
    to: '/admin/users',
    icon: IconShieldLock,
    adminOnly: true,
    children: [
      { label: 'Users', to: '/admin/users' },
      { label: 'Audit log', to: '/admin/audit' },
      { label: 'Server', to: '/admin/overview' },
    ],
  },
];
