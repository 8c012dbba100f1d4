import { Badge, Button, Group, Tooltip } from '@mantine/core';
import classes from './review.module.css';
import {
  IconDownload,
  IconGauge,
  IconNotes,
  IconPaperclip,
  IconPlus,
  IconRepeat,
  IconChartBar,
  IconWaveSine,
} from '@tabler/icons-react';
import { memo, useState } from 'react';
import type { ProjectItem, Version } from '@mixroom/contracts';
import { ProjectViewDialog } from '../../storage/components/project-view-dialog';
import { useDownloadVersion } from '../../storage/hooks/use-download';
import { usePlayer, usePlayerState } from '../hooks/use-player';
import { MarkerExportMenu } from './marker-export-menu';

export type Panel = 'notes' | 'spectrogram' | 'meter' | 'attachments' | 'loudness';

/** The version screen's actions, each shown only when the server says the user may use it. */
export const ReviewToolbar = memo(function ReviewToolbar({
  project,
  version,
  attachmentCount,
  panels,
  onToggle,
}: {
  project: ProjectItem;
  version: Version;
  attachmentCount: number;
  panels: Set<Panel>;
  onToggle: (panel: Panel) => void;
}) {
  const download = useDownloadVersion();
  const player = usePlayer();
  const loop = usePlayerState((s) => s.loop);
  const loopRange = usePlayerState((s) => s.loopRange);
  const [addingVersion, setAddingVersion] = useState(false);
  const ready = version.status === 'ready';
  const toggleButton = (panel: Panel, label: string, icon: React.ReactNode, disabled = false) => (
    <Button
      size="xs"
      variant={panels.has(panel) ? 'filled' : 'light'}
      leftSection={icon}
      onClick={() => onToggle(panel)}
      disabled={disabled}
      aria-pressed={panels.has(panel)}
    >
      {label}
    </Button>
  );
  return (
    <Group gap={6} wrap="wrap" data-testid="review-toolbar" className={classes.toolbar}>
      {project.capabilities.canCreate && (
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAddingVersion(true)}>
          Version
        </Button>
      )}
      {project.capabilities.canDownload && (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} />}
          loading={download.isPending}
          onClick={() => download.mutate(version)}
          disabled={version.status === 'uploading'}
        >
          Download
        </Button>
      )}
      <Tooltip label={loopRange ? 'Loop the selected range' : 'Choose a range comment or a range draft to loop'}>
        <Button
          size="xs"
          variant={loop ? 'filled' : 'light'}
          leftSection={<IconRepeat size={14} />}
          onClick={() => player?.setLoop(!loop)}
          disabled={!player}
          aria-pressed={loop}
        >
          Loop range
        </Button>
      </Tooltip>
      {toggleButton('notes', 'Notes', <IconNotes size={14} />)}
      {toggleButton('spectrogram', 'Spectrogram', <IconWaveSine size={14} />, !ready)}
      {toggleButton('meter', 'Peak meter', <IconChartBar size={14} />, !ready)}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPaperclip size={14} />}
        rightSection={
          <Badge size="xs" variant="filled" circle>
            {attachmentCount}
          </Badge>
        }
        onClick={() => onToggle('attachments')}
      >
        Attachments
      </Button>
      {toggleButton('loudness', 'Loudness', <IconGauge size={14} />)}
      <MarkerExportMenu version={version} />
      <ProjectViewDialog projectId={addingVersion ? project.id : null} onClose={() => setAddingVersion(false)} />
    </Group>
  );
});
