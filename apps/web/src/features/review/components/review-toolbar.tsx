import { Badge, Button, Menu, Tooltip } from '@mantine/core';
import classes from './review.module.css';
import {
  IconCheck,
  IconChartBar,
  IconDots,
  IconDownload,
  IconGauge,
  IconMapPinShare,
  IconNotes,
  IconPaperclip,
  IconPlus,
  IconRepeat,
  IconWaveSine,
} from '@tabler/icons-react';
import { memo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { ProjectItem, Version } from '@mixroom/contracts';
import { usePlayer, usePlayerState } from '../hooks/use-player';
import { TOOLBAR_ITEM, TOOLBAR_MORE, useToolbarFit } from '../hooks/use-toolbar-fit';
import { MarkerExportMenu, MarkerExportModal } from './marker-export-menu';

export type Panel = 'notes' | 'spectrogram' | 'meter' | 'attachments' | 'loudness';

/** One toolbar action, drawn as a button in the row or as an item of the More menu. */
interface Action {
  key: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** Set for on/off actions: the row shows it filled, the menu with a check mark. */
  pressed?: boolean;
  disabled?: boolean;
  loading?: boolean;
  count?: number;
  hint?: string;
  /** Drawn in the row by its own component (a popover), not as a plain button. */
  button?: ReactNode;
}

function ActionButton({ action }: { action: Action }) {
  const button = (
    <Button
      size="xs"
      variant={action.pressed ? 'filled' : 'light'}
      leftSection={action.icon}
      rightSection={
        action.count !== undefined && (
          <Badge size="xs" variant="filled" circle>
            {action.count}
          </Badge>
        )
      }
      onClick={action.onClick}
      disabled={action.disabled}
      loading={action.loading}
      aria-pressed={action.pressed}
    >
      {action.label}
    </Button>
  );
  return action.hint ? <Tooltip label={action.hint}>{button}</Tooltip> : button;
}

function ActionItem({ action }: { action: Action }) {
  return (
    <Menu.Item
      leftSection={action.icon}
      rightSection={
        action.pressed ? (
          <IconCheck size={14} />
        ) : action.count !== undefined ? (
          <Badge size="xs" variant="filled" circle>
            {action.count}
          </Badge>
        ) : null
      }
      onClick={action.onClick}
      disabled={action.disabled || action.loading}
      title={action.hint}
      {...(action.pressed !== undefined && { role: 'menuitemcheckbox', 'aria-checked': action.pressed })}
    >
      {action.label}
    </Menu.Item>
  );
}

/**
 * The version screen's actions, each shown only when the server says the user may use it. Those
 * that do not fit the width go, from the last one on, into a More menu with the same actions.
 * Downloading and adding a version belong to storage: the page passes them in (stable references,
 * so the memo holds).
 */
export const ReviewToolbar = memo(function ReviewToolbar({
  project,
  version,
  attachmentCount,
  panels,
  onToggle,
  onDownload,
  downloading,
  AddVersionDialog,
}: {
  project: ProjectItem;
  version: Version;
  attachmentCount: number;
  panels: Set<Panel>;
  onToggle: (panel: Panel) => void;
  onDownload: (version: Version) => void;
  downloading: boolean;
  AddVersionDialog: ComponentType<{ projectId: string | null; onClose: () => void }>;
}) {
  const player = usePlayer();
  const loop = usePlayerState((s) => s.loop);
  const loopRange = usePlayerState((s) => s.loopRange);
  const [addingVersion, setAddingVersion] = useState(false);
  const [exportingMarkers, setExportingMarkers] = useState(false);
  const ready = version.status === 'ready';
  const toggle = (panel: Panel, label: string, icon: ReactNode, disabled = false): Action => ({
    key: panel,
    label,
    icon,
    onClick: () => onToggle(panel),
    pressed: panels.has(panel),
    disabled,
  });
  const actions: Action[] = [
    ...(project.capabilities.canCreate
      ? [{ key: 'version', label: 'Version', icon: <IconPlus size={14} />, onClick: () => setAddingVersion(true) }]
      : []),
    ...(project.capabilities.canDownload
      ? [
          {
            key: 'download',
            label: 'Download',
            icon: <IconDownload size={14} />,
            onClick: () => onDownload(version),
            loading: downloading,
            disabled: version.status === 'uploading',
          },
        ]
      : []),
    {
      key: 'loop',
      label: 'Loop range',
      icon: <IconRepeat size={14} />,
      onClick: () => player?.setLoop(!loop),
      pressed: loop,
      disabled: !player,
      hint: loopRange ? 'Loop the selected range' : 'Choose a range comment or a range draft to loop',
    },
    toggle('notes', 'Notes', <IconNotes size={14} />),
    toggle('spectrogram', 'Spectrogram', <IconWaveSine size={14} />, !ready),
    toggle('meter', 'Peak meter', <IconChartBar size={14} />, !ready),
    {
      key: 'attachments',
      label: 'Attachments',
      icon: <IconPaperclip size={14} />,
      onClick: () => onToggle('attachments'),
      count: attachmentCount,
    },
    toggle('loudness', 'Loudness', <IconGauge size={14} />),
    {
      key: 'markers',
      label: 'Markers',
      icon: <IconMapPinShare size={14} />,
      onClick: () => setExportingMarkers(true),
      button: <MarkerExportMenu version={version} />,
    },
  ];
  const row = useRef<HTMLDivElement>(null);
  const visible = useToolbarFit(row, actions.length);
  const hidden = actions.slice(visible);

  return (
    <div ref={row} className={classes.toolbar} data-testid="review-toolbar">
      {actions.map((action, i) => (
        // Actions behind More keep their box, out of sight and out of reach, so they can be measured.
        <div key={action.key} {...{ [TOOLBAR_ITEM]: '' }} className={i >= visible ? classes.toolbarHidden : undefined}>
          {action.button ?? <ActionButton action={action} />}
        </div>
      ))}
      <div {...{ [TOOLBAR_MORE]: '' }} className={hidden.length === 0 ? classes.toolbarHidden : undefined}>
        <Menu position="bottom-end" shadow="md" width={220}>
          <Menu.Target>
            <Button size="xs" variant="light" leftSection={<IconDots size={14} />} aria-label="More actions">
              More
            </Button>
          </Menu.Target>
          <Menu.Dropdown data-testid="toolbar-more">
            {hidden.map((action) => (
              <ActionItem key={action.key} action={action} />
            ))}
          </Menu.Dropdown>
        </Menu>
      </div>
      <MarkerExportModal version={version} opened={exportingMarkers} onClose={() => setExportingMarkers(false)} />
      <AddVersionDialog projectId={addingVersion ? project.id : null} onClose={() => setAddingVersion(false)} />
    </div>
  );
});
