import { Anchor, Group, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { ReactNode } from 'react';
import type { ProjectItem, Version } from '@mixroom/contracts';
import { VerdictBadge } from '../../../components/verdict-badge';
import { PresenceAvatars } from './presence-avatars';
import { VerdictMenu } from './verdict-menu';
import { VersionPicker } from './version-picker';

/**
 * Back to the folder, the project's name, the version picker (with each verdict), the verdict and
 * the version's menu (storage's, passed in by the page).
 */
export function ReviewHeader({
  item,
  versions,
  version,
  versionMenu,
}: {
  item: ProjectItem;
  versions: Version[];
  version: Version;
  versionMenu: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="sm" wrap="wrap" style={{ minWidth: 0 }}>
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Anchor
            component={Link}
            to={item.groupId ? `/groups/${item.groupId}` : '/groups'}
            aria-label="Back to the folder"
          >
            <IconArrowLeft size={20} />
          </Anchor>
          <Title order={3} lineClamp={1} style={{ minWidth: 0 }}>
            {item.name}
          </Title>
        </Group>
        <Group gap="sm" wrap="wrap" style={{ minWidth: 0, maxWidth: '100%' }}>
          <VersionPicker
            versions={versions}
            value={version.number}
            onChange={(number) => void navigate(`/version/${item.id}/${number}`)}
            badge={(v) => <VerdictBadge approval={v.approval} size="xs" />}
          />
          <Group gap="sm" wrap="nowrap">
            <VerdictMenu version={version} canEdit={item.capabilities.canEdit} />
            {versionMenu}
          </Group>
        </Group>
      </Group>
      <PresenceAvatars projectId={item.id} versionId={version.id} />
    </Group>
  );
}
