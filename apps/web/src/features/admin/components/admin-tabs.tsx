import { Tabs } from '@mantine/core';
import { IconHistory, IconServer, IconUsers } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { value: '/admin/users', label: 'Users', icon: IconUsers },
  { value: '/admin/audit', label: 'Audit log', icon: IconHistory },
  { value: '/admin/overview', label: 'Server', icon: IconServer },
];

/** The admin area's three screens. */
export function AdminTabs() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={location.pathname} onChange={(to) => to && void navigate(to)} variant="outline">
      <Tabs.List>
        {TABS.map((t) => (
          <Tabs.Tab key={t.value} value={t.value} leftSection={<t.icon size={16} />}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
