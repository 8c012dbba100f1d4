import { Badge } from '@mantine/core';
import type { AdminUser } from '@mixroom/contracts';

/**
 * admin / disabled markers next to a name, never shrunk to "AD…": a badge clips its label, so
 * without a minimum of its own text a table would size the name's column as if it had none.
 */
export function UserBadges({ user }: { user: AdminUser }) {
  return (
    <>
      {user.isAdmin && (
        <Badge size="xs" variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
          admin
        </Badge>
      )}
      {user.disabled && (
        <Badge size="xs" variant="light" color="red" style={{ flexShrink: 0, minWidth: 'max-content' }}>
          disabled
        </Badge>
      )}
    </>
  );
}
