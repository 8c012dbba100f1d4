import { Button, Center, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { StorageItem } from '@mixroom/contracts';
import { STORAGE_MESSAGES } from '@mixroom/shared';
import type { ItemRef } from '../features/storage/api';
import { ItemGrid } from '../features/storage/components/item-grid';
import { SelectionBar } from '../features/storage/components/selection-bar';
import { useSelection } from '../features/storage/hooks/use-selection';
import { useDeleteForever, useEmptyTrash, useRecoverItems, useTrash } from '../features/storage/queries';

const refOf = (item: StorageItem): ItemRef => ({ kind: item.kind, id: item.id });

/** /groups/trash. */
export function TrashPage() {
  const [sort, setSort] = useState<'newest' | 'alphabetical'>('newest');
  const trash = useTrash(sort);
  const items = trash.data?.items ?? [];
  const selection = useSelection(items.map((i) => i.id));
  const recover = useRecoverItems();
  const remove = useDeleteForever();
  const empty = useEmptyTrash();

  const confirmDelete = (refs: ItemRef[], label: string) =>
    modals.openConfirmModal({
      title: 'Delete for good',
      children: `${label} will be deleted permanently, with every version and file. This cannot be undone.`,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(refs, { onSuccess: () => selection.clear() }),
    });

  const selected = items.filter((i) => selection.selected.has(i.id));
  return (
    <Stack gap="md" mih="calc(100vh - 120px)" onClick={() => selection.clear()}>
      <Group justify="space-between" wrap="wrap" onClick={(e) => e.stopPropagation()}>
        <div>
          <Title order={2}>Trash</Title>
          <Text size="sm" c="dimmed">
            {STORAGE_MESSAGES.trashNote}
          </Text>
        </div>
        <Group>
          <Select
            aria-label="Sort"
            w={150}
            allowDeselect={false}
            value={sort}
            onChange={(v) => setSort((v ?? 'newest') as 'newest' | 'alphabetical')}
            data={[
              { value: 'newest', label: 'Newest' },
              { value: 'alphabetical', label: 'Alphabetical' },
            ]}
          />
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} />}
            disabled={items.length === 0}
            loading={empty.isPending}
            onClick={() =>
              modals.openConfirmModal({
                title: 'Empty Trash',
                children: 'Everything in the trash will be deleted permanently. This cannot be undone.',
                labels: { confirm: 'Empty Trash', cancel: 'Cancel' },
                confirmProps: { color: 'red' },
                onConfirm: () => empty.mutate(),
              })
            }
          >
            Empty Trash
          </Button>
        </Group>
      </Group>
      {trash.isPending ? (
        <Center py="xl">
          <Loader color="violet" />
        </Center>
      ) : items.length === 0 ? (
        <Center py={80}>
          <Text c="dimmed">The trash is empty.</Text>
        </Center>
      ) : (
        <ItemGrid
          items={items}
          inTrash
          selected={selection.selected}
          onSelect={selection.select}
          onAction={(item, action) =>
            action === 'recover'
              ? recover.mutate([refOf(item)])
              : action === 'delete-forever'
                ? confirmDelete([refOf(item)], `“${item.name}”`)
                : undefined
          }
        />
      )}
      <SelectionBar
        count={selection.selected.size}
        inTrash
        onRecover={() => recover.mutate(selected.map(refOf), { onSuccess: () => selection.clear() })}
        onDelete={() => confirmDelete(selected.map(refOf), `${selected.length} item(s)`)}
        onClear={selection.clear}
        onSelectAll={selection.selectAll}
      />
    </Stack>
  );
}
