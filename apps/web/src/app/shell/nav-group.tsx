import { NavLink } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { NavItem } from './nav-items';

/**
 * A navigation entry with children. It opens whenever the current route is one of its children,
 * including after a redirect (/admin → /admin/users), and otherwise stays as the user left it.
 */
export function NavGroup({
  item,
  pathname,
  isActive,
  onNavigate,
}: {
  item: NavItem & { children: NonNullable<NavItem['children']> };
  pathname: string;
  isActive: (to: string) => boolean;
  onNavigate: () => void;
}) {
  const inside = item.children.some((child) => isActive(child.to));
  const [opened, setOpened] = useState(inside);
  // Entering one of its routes opens it, decided while rendering (no effect, no second paint).
  const [wasInside, setWasInside] = useState(inside);
  if (inside !== wasInside) {
    setWasInside(inside);
    if (inside) setOpened(true);
  }
  return (
    <NavLink
      label={item.label}
      leftSection={<item.icon size={18} stroke={1.6} />}
      opened={opened}
      onChange={setOpened}
      variant="light"
    >
      {item.children.map((child) => (
        <NavLink
          key={child.to}
          label={child.label}
          component={Link}
          to={child.to}
          active={pathname === child.to}
          onClick={onNavigate}
          variant="light"
        />
      ))}
    </NavLink>
  );
}
