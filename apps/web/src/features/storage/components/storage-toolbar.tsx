import { Button, Group, Menu, Select } from '@mantine/core';
import {
  IconArrowLeft,
  IconFileUpload,
  IconFilter,
  IconGavel,
  IconFolderPlus,
  IconFolderUp,
  IconMusicPlus,
  IconPlus,
  IconSortAscending,
  IconUser,
} from '@tabler/icons-react';
import type { ListFilters } from '@mixroom/contracts';
import { SearchBox } from './search-box';
import { VERDICTS, VERDICT_LABELS } from '../../../components/verdict-badge';

interface Props {
  query: ListFilters;
  canGoBack: boolean;
  canCreate: boolean;
  /** The folder New and Upload add to (the one open, never a selected tile). */
  targetName: string;
  onQuery: (query: ListFilters) => void;
  onBack: () => void;
  onNewFolder: () => void;
  onNewProject: () => void;
  onUploadFiles: () => void;
  onUploadFolder: () => void;
  onSearchPick: (hit: { kind: 'group' | 'project'; id: string; parentId: string | null }) => void;
}

// On a phone the four selectors sit two by two.
const HALF = 'calc((100% - 8px) / 2)';

/** Back, the New menu, sort, owner, type and verdict filters, and search. */
export function StorageToolbar(props: Props) {
  const { query, onQuery } = props;
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="sm" wrap="wrap">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
          disabled={!props.canGoBack}
          onClick={props.onBack}
        >
          Back
        </Button>
        <Menu position="bottom-start" shadow="md" disabled={!props.canCreate}>
          <Menu.Target>
            <Button leftSection={<IconPlus size={16} />} disabled={!props.canCreate}>
              New
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Adds to {props.targetName}</Menu.Label>
            <Menu.Item leftSection={<IconFolderPlus size={16} />} onClick={props.onNewFolder}>
              New Folder
            </Menu.Item>
            <Menu.Item leftSection={<IconMusicPlus size={16} />} onClick={props.onNewProject}>
              New Audio Project
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item leftSection={<IconFileUpload size={16} />} onClick={props.onUploadFiles}>
              Upload File
            </Menu.Item>
            <Menu.Item leftSection={<IconFolderUp size={16} />} onClick={props.onUploadFolder}>
              Upload Folder
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Group gap="sm" wrap="wrap" justify="flex-end" w={{ base: '100%', sm: 'auto' }}>
        <Group gap={8} wrap="wrap" w={{ base: '100%', sm: 'auto' }}>
          <Select
            aria-label="Sort"
            w={{ base: HALF, sm: 160 }}
            leftSection={<IconSortAscending size={16} />}
            allowDeselect={false}
            value={query.sort}
            onChange={(v) => onQuery({ ...query, sort: (v ?? 'alphabetical') as ListFilters['sort'] })}
            data={[
              { value: 'alphabetical', label: 'Alphabetical' },
              { value: 'newest', label: 'Newest' },
            ]}
          />
          <Select
            aria-label="Owner"
            w={{ base: HALF, sm: 130 }}
            leftSection={<IconUser size={16} />}
            allowDeselect={false}
            value={query.owner}
            onChange={(v) => onQuery({ ...query, owner: (v ?? 'all') as ListFilters['owner'] })}
            data={[
              { value: 'all', label: 'All' },
              { value: 'owned', label: 'Owned' },
              { value: 'joined', label: 'Joined' },
            ]}
          />
          <Select
            aria-label="Filter"
            w={{ base: HALF, sm: 130 }}
            leftSection={<IconFilter size={16} />}
            allowDeselect={false}
            value={query.kind}
            onChange={(v) => onQuery({ ...query, kind: (v ?? 'all') as ListFilters['kind'] })}
            data={['all', 'audio', 'video', 'image', 'pdf', 'archive', 'other'].map((k) => ({
              value: k,
              label: k === 'pdf' ? 'Pdf' : k[0]!.toUpperCase() + k.slice(1),
            }))}
          />
          <Select
            aria-label="Verdict"
            w={{ base: HALF, sm: 160 }}
            leftSection={<IconGavel size={16} />}
            allowDeselect={false}
            value={query.approval ?? 'all'}
            onChange={(v) => onQuery({ ...query, approval: (v ?? 'all') as NonNullable<ListFilters['approval']> })}
            data={[
              { value: 'all', label: 'Any verdict' },
              ...VERDICTS.map((v) => ({ value: v, label: VERDICT_LABELS[v] })),
            ]}
          />
        </Group>
        <SearchBox onPick={props.onSearchPick} />
      </Group>
    </Group>
  );
}
