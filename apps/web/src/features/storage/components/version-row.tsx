import { ActionIcon, Anchor, Badge, Card, Group, Text, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { Version } from '@mixroom/contracts';
import { formatBytes, formatDate, formatDuration } from '../../../lib/format/format';
import { formatMeasure } from '../../../lib/format/measurement-format';
import { useDownloadVersion } from '../hooks/use-download';
import { VerdictBadge } from '../../../components/verdict-badge';
import { VersionMenu } from './version-menu';

/**
 * One version in the project view: number, name (a link to the review screen for audio), file
 * facts, status, menu and download. On a narrow screen the facts wrap under the name and the
 * actions stay at the row's right edge, inside the dialog.
 */
export function VersionRow({
  version,
  versions,
  compact,
  canEdit,
  canDownload,
  onProjectDeleted,
  onOpen,
  onSaveTo,
}: {
  version: Version;
  versions: Version[];
  compact: boolean;
  canEdit: boolean;
  canDownload: boolean;
  onProjectDeleted: () => void;
  onOpen: (() => void) | null;
  onSaveTo?: (version: Version) => void;
}) {
  const download = useDownloadVersion();
  const facts = [
    version.fileName,
    formatBytes(version.fileSize),
    formatDate(version.createdAt),
    version.durationSeconds ? formatDuration(version.durationSeconds) : null,
    version.loudness ? formatMeasure(version.loudness.integrated, 'LUFS', 1) : null,
  ].filter(Boolean);
  return (
    <Card withBorder radius="md" padding="sm" data-testid="version-row">
      <Group wrap="nowrap" justify="space-between" align={compact ? 'flex-start' : 'center'} gap="xs">
        <Group wrap="nowrap" gap="sm" align={compact ? 'flex-start' : 'center'} style={{ minWidth: 0, flex: 1 }}>
          <Badge variant="light" size="lg" radius="sm" style={{ flexShrink: 0 }}>
            v{version.number}
          </Badge>
          <div style={{ minWidth: 0, flex: 1 }}>
            {onOpen ? (
              <Anchor
                component="button"
                fw={600}
                size="sm"
                onClick={onOpen}
                style={{ display: 'block', maxWidth: '100%' }}
                truncate="end"
              >
                {version.name}
              </Anchor>
            ) : (
              <Text fw={600} size="sm" truncate>
                {version.name}
              </Text>
            )}
            <Text
              size="xs"
              c="dimmed"
              truncate={compact ? undefined : 'end'}
              style={compact ? { overflowWrap: 'anywhere' } : undefined}
            >
              {facts.join(' · ')}
            </Text>
            {compact && version.status !== 'ready' && <StatusBadge version={version} />}
            {compact && <VerdictBadge approval={version.approval} size="xs" mt={4} />}
          </div>
        </Group>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {!compact && version.status !== 'ready' && <StatusBadge version={version} />}
          {!compact && <VerdictBadge approval={version.approval} size="sm" />}
          <VersionMenu
            version={version}
            versions={versions}
            canEdit={canEdit}
            canDownload={canDownload}
            onProjectDeleted={onProjectDeleted}
            onSaveTo={onSaveTo}
          />
          {canDownload && (
            <Tooltip label="Download Version">
              <ActionIcon
                variant="subtle"
                aria-label={`Download version ${version.number}`}
                loading={download.isPending}
                disabled={version.status === 'uploading'}
                onClick={() => download.mutate(version)}
              >
                <IconDownload size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Card>
  );
}

function StatusBadge({ version }: { version: Version }) {
  return (
    <Badge color={version.status === 'corrupt' ? 'red' : 'gray'} variant="light" mt={4}>
      {version.status === 'processing' ? `processing ${version.progress}%` : version.status}
    </Badge>
  );
}
