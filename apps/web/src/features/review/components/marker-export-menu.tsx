import { Button, Modal, Popover, Text } from '@mantine/core';
import { IconMapPinShare } from '@tabler/icons-react';
import { useState } from 'react';
import type { Version } from '@mixroom/contracts';
import { MarkerExportForm } from './marker-export-form';

const TITLE = 'Comments as DAW markers';

/**
 * Exports the version's comments as markers a DAW imports, placed from where the session starts
 * (a session at bar 1 = 00:00:02:00 starts at 2 s), as a time or a sample count.
 */
export function MarkerExportMenu({ version }: { version: Version }) {
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={320} shadow="md" trapFocus>
      <Popover.Target>
        <Button
          title="Export the comments as DAW markers"
          size="xs"
          variant={opened ? 'filled' : 'light'}
          leftSection={<IconMapPinShare size={14} />}
          onClick={() => setOpened((o) => !o)}
          aria-expanded={opened}
        >
          Markers
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={600} size="sm" mb="sm">
          {TITLE}
        </Text>
        <MarkerExportForm version={version} onDone={() => setOpened(false)} />
      </Popover.Dropdown>
    </Popover>
  );
}

/** The same export in a dialog, for when Markers is reached through the toolbar's More menu. */
export function MarkerExportModal({
  version,
  opened,
  onClose,
}: {
  version: Version;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={TITLE} size="sm">
      <MarkerExportForm version={version} onDone={onClose} />
    </Modal>
  );
}
