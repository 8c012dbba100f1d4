import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconCloud } from '@tabler/icons-react';
import { useState } from 'react';
import type { PickedFile } from '../../connectors/api';
import type { FilePicker } from './new-project-wizard';

/**
 * "From storage…" next to a file button: the page's cloud storage browser (a slot, as in New
 * Project's step 2) in a dialog; the picked file is handed back when the user confirms.
 */
export function LinkedFileButton({
  filePicker,
  accept,
  onPick,
}: {
  filePicker: FilePicker;
  accept: readonly string[];
  onPick: (picked: PickedFile) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const close = () => {
    setOpened(false);
    setPicked(null);
  };
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconCloud size={16} />}
        style={{ flexShrink: 0 }}
        onClick={() => setOpened(true)}
      >
        From storage…
      </Button>
      <Modal opened={opened} onClose={close} title="Pick a file" centered size="lg">
        {opened && (
          <Stack>
            {filePicker({ accept, picked, onPick: setPicked })}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                disabled={!picked}
                onClick={() => {
                  if (picked) onPick(picked);
                  close();
                }}
              >
                Use this file
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
