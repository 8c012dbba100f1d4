import { Anchor, Box, Breadcrumbs, Card, Center, Chip, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFile, IconFolder, IconHome, IconMusic } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { PublicTransferContent } from '@mixroom/contracts';
import { formatBytes, formatDuration } from '../../../lib/format/format';
import type { PublicTransferFile } from './transfer-file-dialog';

type Folder = PublicTransferContent['folders'][number];

/** The folders from the root down to `folderId`, for the breadcrumb. */
export function folderTrail(folders: Folder[], rootId: string, folderId: string): Folder[] {
  const trail: Folder[] = [];
  for (let at = folders.find((f) => f.id === folderId); at && at.id !== rootId;) {
    trail.unshift(at);
    at = folders.find((f) => f.id === at?.parentId);
  }
  return trail;
}

const GRADIENT = 'linear-gradient(135deg, #5f3dc4 0%, #862e9c 100%)';

function Tile({
  icon,
  picture,
  name,
  detail,
  onClick,
}: {
  icon: ReactNode;
  /** The file's waveform, drawn on the server; the icon stands in until there is one. */
  picture?: string | null;
  name: string;
  detail: string;
  onClick: () => void;
}) {
  return (
    <Card
      withBorder
      radius="md"
      padding={0}
      style={{ cursor: 'pointer' }}
      data-testid="transfer-item"
      data-name={name}
      onClick={onClick}
      role="button"
      aria-label={name}
    >
      <Box h={96} pos="relative" style={{ background: GRADIENT }}>
        {picture ? (
          <img
            src={picture}
            alt=""
            loading="lazy"
            style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill' }}
          />
        ) : (
          <Center h="100%">{icon}</Center>
        )}
      </Box>
      <Stack gap={0} p="sm">
        <Text fw={600} size="sm" truncate="end" title={name}>
          {name}
        </Text>
        <Text size="xs" c="dimmed" truncate="end">
          {detail}
        </Text>
      </Stack>
    </Card>
  );
}

/** The breadcrumb (root chip first) and the tiles of the folder being looked at. */
export function TransferBrowser({
  content,
  folderId,
  onFolder,
  onFile,
}: {
  content: PublicTransferContent;
  folderId: string;
  onFolder: (id: string) => void;
  onFile: (file: PublicTransferFile) => void;
}) {
  const folders = content.folders.filter((f) => f.parentId === folderId && f.id !== content.rootFolderId);
  const files = content.files.filter((f) => f.folderId === folderId);
  const trail = folderTrail(content.folders, content.rootFolderId, folderId);
  const countIn = (id: string) => content.files.filter((f) => f.folderId === id).length;
  return (
    <Stack gap="md">
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap', rowGap: 6 }}>
        <Chip
          checked={folderId === content.rootFolderId}
          onClick={() => onFolder(content.rootFolderId)}
          icon={<IconHome size={14} />}
          size="xs"
        >
          {content.title}
        </Chip>
        {trail.map((folder) => (
          <Anchor key={folder.id} size="sm" onClick={() => onFolder(folder.id)} style={{ overflowWrap: 'anywhere' }}>
            {folder.name}
          </Anchor>
        ))}
      </Breadcrumbs>
      {folders.length === 0 && files.length === 0 && <Text c="dimmed">Oooops, nothing here!</Text>}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
        {folders.map((folder) => (
          <Tile
            key={folder.id}
            icon={<IconFolder size={40} color="white" />}
            name={folder.name}
            detail={`${countIn(folder.id)} ${countIn(folder.id) === 1 ? 'file' : 'files'}`}
            onClick={() => onFolder(folder.id)}
          />
        ))}
        {files.map((file) => (
          <Tile
            key={file.id}
            icon={file.kind === 'AUDIO' ? <IconMusic size={36} color="white" /> : <IconFile size={36} color="white" />}
            picture={file.thumbnailUrl}
            name={file.fileName}
            detail={[
              file.durationSeconds ? formatDuration(file.durationSeconds) : null,
              formatBytes(file.size),
              file.sha256 ? `SHA-256 ${file.sha256.slice(0, 8)}…` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
            onClick={() => onFile(file)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
