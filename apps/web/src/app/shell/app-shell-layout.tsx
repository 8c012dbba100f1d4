import { AppShell, Burger, Group, NavLink, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { activitiesStore } from '../../features/uploads/activities-store';
import { ActivitiesPanel } from '../../features/uploads/components/activities-panel';
import { JoinRequestDialog } from '../../features/sharing/components/join-request-dialog';
import { Logo } from '../../components/logo';
import { useMe } from '../../features/users/queries';
import { RealtimeProvider } from '../../lib/realtime/realtime-provider';
import { REALTIME_HANDLERS } from '../realtime-handlers';
import { NavGroup } from './nav-group';
import { NAV_ITEMS } from './nav-items';
import { NotificationsBell } from './notifications-bell';
import { UserMenu } from './user-menu';

/** The signed-in frame: header, side navigation (a drawer below 1000 px) and the realtime link. */
export function AppShellLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const me = useMe().data;
  // Leaving the page while uploads run asks first; they resume if the user comes back. Downloads
  // are not counted: the browser's own downloader carries on after the page is gone.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (
        activitiesStore
          .snapshot()
          .some((a) => a.kind === 'upload' && (a.state === 'Started' || a.state === 'In Progress'))
      )
        event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || me?.capabilities.admin);
  const isActive = (to: string) => pathname === to || (to !== '/' && pathname.startsWith(`${to}/`));

  return (
    <RealtimeProvider userId={me?.id ?? null} isAdmin={me?.capabilities.admin ?? false} handlers={REALTIME_HANDLERS}>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 250, breakpoint: 'md', collapsed: { mobile: !opened } }}
        padding="lg"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Toggle navigation" />
              <Logo to="/groups" />
            </Group>
            <Group gap="sm" wrap="nowrap">
              <NotificationsBell />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" aria-label="Main navigation">
          <ScrollArea>
            {items.map((item) =>
              item.children ? (
                <NavGroup
                  key={item.to}
                  item={{ ...item, children: item.children }}
                  pathname={pathname}
                  isActive={isActive}
                  onNavigate={close}
                />
              ) : (
                <NavLink
                  key={item.to}
                  label={item.label}
                  leftSection={<item.icon size={18} stroke={1.6} />}
                  component={Link}
                  to={item.to}
                  active={isActive(item.to)}
                  onClick={close}
                  variant="light"
                />
              ),
            )}
          </ScrollArea>
        </AppShell.Navbar>
        {/* The end of every page can scroll clear of the Activities panel (it publishes its room). */}
        <AppShell.Main style={{ paddingBottom: 'calc(var(--mantine-spacing-lg) + var(--activities-room, 0px))' }}>
          <Outlet />
          <ActivitiesPanel />
          <JoinRequestDialog />
        </AppShell.Main>
      </AppShell>
    </RealtimeProvider>
  );
}
