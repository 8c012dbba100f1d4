import { Anchor, Group, Select, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { ProjectItem, Version } from '@mixroom/contracts';
import { VerdictBadge } from '../../storage/components/verdict-badge';
import { VersionMenu } from '../../storage/components/version-menu';
import { PresenceAvatars } from './presence-avatars';
import { VerdictMenu } from './verdict-menu';

/** Back to the folder, the project's name, the version picker (with each verdict) and the verdict. */
export function ReviewHeader({
  item,
  versions,
  version,
}: {
  item: ProjectItem;
  versions: Version[];
  version: Version;
}) {
  const navigate = useNavigate();
  const verdicts = new Map(versions.map((v) => [String(v.number), v.approval]));
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
        <Group gap="sm" wrap="nowrap">
          <Select
            aria-label="Version"
            w={{ base: 150, sm: 220 }}
            allowDeselect={false}
            data={versions.map((v) => ({ value: String(v.number), label: `v${v.number} · ${v.name}` }))}
            renderOption={({ option }) => (
              <Group gap={6} wrap="nowrap" justify="space-between" w="100%">
                <span>{option.label}</span>
                <VerdictBadge approval={verdicts.get(option.value) ?? 'none'} size="xs" />
              </Group>
            )}
            value={String(version.number)}
            onChange={(value) => value && void navigate(`/version/${item.id}/${value}`)}
          />
          <VerdictMenu version={version} canEdit={item.capabilities.canEdit} />
          <VersionMenu
            version={version}
            canEdit={item.capabilities.canEdit}
            canDownload={item.capabilities.canDownload}
            onProjectDeleted={() => void navigate('/groups')}
            singleFieldEditor
          />
        </Group>
      </Group>
      <PresenceAvatars versionId={version.id} />
    </Group>
  );
}
