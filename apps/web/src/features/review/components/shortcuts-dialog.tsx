import { Group, Kbd, Modal, Table, Text } from '@mantine/core';
import { SHORTCUT_LIST } from '../shortcuts';

/** Every key of the review screen, opened with "?" or the keyboard icon. */
export function ShortcutsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="md">
      <Table verticalSpacing={6} data-testid="shortcut-list">
        <Table.Tbody>
          {SHORTCUT_LIST.map((row) => (
            <Table.Tr key={row.action}>
              <Table.Td w={150}>
                <Group gap={4} wrap="nowrap">
                  {row.keys.map((key) => (
                    <Kbd key={key} size="xs">
                      {key}
                    </Kbd>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.action}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        Keys do nothing while you type in a field.
      </Text>
    </Modal>
  );
}
