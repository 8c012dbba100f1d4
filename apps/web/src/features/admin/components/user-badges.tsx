import { Badge } from '@mantine/core';
import type { AdminUser } from '@mixroom/contracts';

/** admin / disabled markers next to a name. */
export function UserBadges({ user }: { user: AdminUser }) {
  return (
    <>
      {user.isAdmin && (
        <Badge size="xs" variant="light">
          admin
        </Badge>
      )}
      {user.disabled && (
        <Badge size="xs" variant="light" color="red">
          disabled
        </Badge>
      )}
    </>
  );
}
