import {
  ActionIcon,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Menu,
  Modal,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconDots,
  IconDownload,
  IconFile,
  IconPlayerPlay,
  IconPlus,
  IconSearch,
  IconSortDescending,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ProjectItem } from '@mixroom/contracts';
import { REVIEW_MESSAGES } from '@mixroom/shared';
import { ApiError } from '../../../lib/api-client';
import { startBrowserDownload } from '../../../lib/download';
import { formatBytes, formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { storageApi } from '../../storage/api';
import { storageKeys } from '../../storage/queries';
import { useUploadOrchestrator } from '../../uploads/use-upload-orchestrator';
import { reviewApi } from '../api';
import { reviewKeys, useAttachments } from '../queries';

type Sort = 'newest' | 'name' | 'size';
const sorters: Record<Sort, (a: ProjectItem, b: ProjectItem) => number> = {
  newest: (a, b) => b.updatedAt.localeCompare(a.updatedAt),
  name: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
  size: (a, b) => (b.latestVersion?.fileSize ?? 0) - (a.latestVersion?.fileSize ?? 0),
};

function AttachmentCard({ item, canEdit, onDelete }: { item: ProjectItem; canEdit: boolean; onDelete: () => void }) {
  const version = item.latestVersion;
  const [downloading, setDownloading] = useState(false);
  // Audio attachments (stems saved from the AI tools, references) play here, streamed like the version.
  const playable = version?.status === 'ready' && (version.durationSeconds ?? 0) > 0;
  const [streamUrl, setStreamUrl] = useState<string | null>(null);
  const listen = async () => {
    if (!version) return;
    try {
      setStreamUrl((await reviewApi.streamUrl(version.id)).url);
    } catch (error) {
      notify('error', 'Play', error instanceof ApiError ? error.message : 'The file could not be played.');
    }
  };
  const download = async () => {
    if (!version) return;
    setDownloading(true);
    try {
      startBrowserDownload((await storageApi.downloadUrl(version.id)).url);
    } catch (error) {
      notify('error', 'Download', error instanceof ApiError ? error.message : 'The download could not start.');
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Card withBorder radius="md" padding="sm" data-testid="attachment" data-name={item.name}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconFile size={28} color="var(--mantine-color-violet-5)" />
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" truncate title={version?.fileName ?? item.name}>
              {version?.fileName ?? item.name}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDate(item.updatedAt)} · {(version?.fileExtension || 'file').toUpperCase()} ·{' '}
              {formatBytes(version?.fileSize ?? 0)}
            </Text>
          </div>
        </Group>
        {canEdit && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.name}`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item color="red" onClick={onDelete}>
                Delete Item
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Group justify="space-between" mt="sm">
        {version?.status === 'uploading' ? (
          <Badge variant="light" color="gray">
            uploading
          </Badge>
        ) : (
          <span />
        )}
        {playable && !streamUrl && (
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconPlayerPlay size={14} />}
            onClick={() => void listen()}
            aria-label={`Play ${version?.fileName ?? item.name}`}
          >
            PLAY
          </Button>
        )}
        {item.capabilities.canDownload && version && version.status !== 'uploading' && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconDownload size={14} />}
            loading={downloading}
            onClick={() => void download()}
          >
            DOWNLOAD
          </Button>
        )}
      </Group>
      {streamUrl && (
        <audio
          controls
          autoPlay
          src={streamUrl}
          style={{ width: '100%', marginTop: 8 }}
          data-testid="attachment-audio"
          aria-label={`${version?.fileName ?? item.name} player`}
        />
      )}
    </Card>
  );
}

/** Files that belong with a project — lyrics, session files, references. */
export function AttachmentsDialog({
  projectId,
  opened,
  onClose,
}: {
  projectId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const orchestrator = useUploadOrchestrator();
  const query = useAttachments(opened ? projectId : null);
  const [sort, setSort] = useState<Sort>('newest');
  const [q, setQ] = useState('');
  const [uploads, setUploads] = useState<Record<string, { name: string; percent: number }>>({});
  const canEdit = query.data?.canEdit ?? false;
  const items = useMemo(
    () =>
      (query.data?.items ?? [])
        .filter((i) => i.name.toLowerCase().includes(q.trim().toLowerCase()))
        .sort(sorters[sort]),
    [query.data, q, sort],
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: reviewKeys.attachments(projectId) });
    void queryClient.invalidateQueries({ queryKey: storageKeys.project(projectId) });
  };

  const add = async (files: File[]) => {
    await Promise.all(
      files.map(async (file) => {
        const handle = orchestrator.start({
          file,
          label: file.name,
          scope: `attachment:${projectId}`,
          ticket: () => reviewApi.attachmentTicket(projectId, file.name, file.size),
          onTicket: refresh,
          onProgress: (percent) => setUploads((all) => ({ ...all, [handle.id]: { name: file.name, percent } })),
        });
        setUploads((all) => ({ ...all, [handle.id]: { name: file.name, percent: 0 } }));
        try {
          await handle.done;
        } catch (error) {
          notify('error', 'Attachments', error instanceof Error ? error.message : String(error));
        } finally {
          setUploads(({ [handle.id]: _done, ...rest }) => rest);
          refresh();
        }
      }),
    );
  };

  const remove = (item: ProjectItem) =>
    modals.openConfirmModal({
      title: 'Delete Item',
      children: <Text size="sm">Delete {item.latestVersion?.fileName ?? item.name}? This cannot be undone.</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void reviewApi
          .deleteAttachment(item.id)
          .then(() => notify('success', 'Delete Item', `${item.name} has been deleted!`))
          .catch((error: unknown) =>
            notify('error', 'Delete Item', error instanceof Error ? error.message : 'The item could not be deleted.'),
          )
          .finally(refresh),
    });

  const newItem = (
    <FileButton onChange={(files) => void add(files)} multiple>
      {(props) => (
        <Button leftSection={<IconPlus size={16} />} {...props} disabled={!canEdit}>
          New Item
        </Button>
      )}
    </FileButton>
  );

  return (
    <Modal opened={opened} onClose={onClose} title="Attachments" centered size="xl">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <TextInput
            leftSection={<IconSearch size={14} />}
            placeholder="Search"
            aria-label="Search attachments"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            w={240}
          />
          <Menu position="bottom-end">
            <Menu.Target>
              <Button variant="default" leftSection={<IconSortDescending size={16} />}>
                Sort: {sort === 'newest' ? 'Newest' : sort === 'name' ? 'Name' : 'Size'}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setSort('newest')}>Newest</Menu.Item>
              <Menu.Item onClick={() => setSort('name')}>Name</Menu.Item>
              <Menu.Item onClick={() => setSort('size')}>Size</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        {Object.entries(uploads).map(([id, upload]) => (
          <div key={id}>
            <Text size="xs">{upload.name}</Text>
            <Progress value={upload.percent} animated aria-label={`Uploading ${upload.name}`} />
          </div>
        ))}
        {query.data && items.length === 0 ? (
          <Stack align="center" py="xl" gap="sm">
            <IconFile size={40} color="var(--mantine-color-dimmed)" />
            <Text c="dimmed">{q ? 'No attachment matches your search.' : REVIEW_MESSAGES.noAttachments}</Text>
            {canEdit && !q && newItem}
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {items.map((item) => (
              <AttachmentCard key={item.id} item={item} canEdit={canEdit} onDelete={() => remove(item)} />
            ))}
          </SimpleGrid>
        )}
        <Group justify="flex-end">
          {canEdit && items.length > 0 && newItem}
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
