import { Button, ColorInput, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { StorageItem } from '@mixroom/contracts';
import { LIMITS, STORAGE_MESSAGES } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { useFolders, useUpdateGroup, useUpdateProject } from '../queries';

const ROOT = '__root__';
const SWATCHES = ['#5f3dc4', '#862e9c', '#c2255c', '#e8590c', '#2b8a3e', '#1971c2', '#0c8599', '#495057'];

/** Group Settings and Project settings: name, folder, colour, and the download toggle for projects. */
export function SettingsDialog({ item, onClose }: { item: StorageItem | null; onClose: () => void }) {
  // Keyed by item, so the form starts from the item it edits.
  return item ? <SettingsForm key={item.id} item={item} onClose={onClose} /> : null;
}

function SettingsForm({ item, onClose }: { item: StorageItem; onClose: () => void }) {
  const [name, setName] = useState(item.name);
  const [parent, setParent] = useState<string>((item.kind === 'group' ? item.parentId : item.groupId) ?? ROOT);
  const [color, setColor] = useState(item.color ?? '');
  const [enableDownload, setEnableDownload] = useState(item.kind === 'project' ? item.enableDownload : false);
  const [error, setError] = useState<string | null>(null);
  const folders = useFolders(true);
  const updateGroup = useUpdateGroup();
  const updateProject = useUpdateProject();
  const isGroup = item.kind === 'group';
  const nameProblem = (value: string) =>
    !value.trim()
      ? isGroup
        ? STORAGE_MESSAGES.groupNameRequired
        : STORAGE_MESSAGES.projectNameRequired
      : value.trim().length > LIMITS.nameMax
        ? STORAGE_MESSAGES.nameTooLong
        : null;
  // A folder's own subtree is no valid destination (the server refuses it too).
  const options = (folders.data?.folders ?? [])
    .filter((f) => !isGroup || !isDescendant(folders.data?.folders ?? [], f.id, item.id))
    .map((f) => ({ value: f.id, label: f.path }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const problem = nameProblem(name);
    if (problem) return setError(problem);
    const target = parent === ROOT ? null : parent;
    try {
      if (isGroup) {
        await updateGroup.mutateAsync({
          id: item.id,
          patch: { name: trimmed, color: color || null, ...(target !== item.parentId ? { parentId: target } : {}) },
        });
        notify('success', 'Success!', STORAGE_MESSAGES.groupSettingsUpdated);
      } else {
        await updateProject.mutateAsync({
          id: item.id,
          patch: {
            name: trimmed,
            color: color || null,
            enableDownload,
            ...(target !== item.groupId ? { groupId: target } : {}),
          },
        });
        notify('success', 'Success!', STORAGE_MESSAGES.projectSettingsUpdated);
      }
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : STORAGE_MESSAGES.groupSettingsFailed);
    }
  };

  return (
    <Modal opened onClose={onClose} title={isGroup ? 'Group Settings' : 'Project Settings'} centered size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label={isGroup ? 'Folder name' : 'Project name'}
            value={name}
            onChange={(e) => {
              // Checked as typed, so an error never stays under a name that is fine again.
              setName(e.target.value);
              setError(nameProblem(e.target.value));
            }}
            error={error}
            data-autofocus
          />
          <Select
            label="Folder"
            searchable
            value={parent}
            onChange={(v) => setParent(v ?? ROOT)}
            data={[{ value: ROOT, label: 'Home (root)' }, ...options]}
            nothingFoundMessage="No folder"
            comboboxProps={{ withinPortal: true }}
          />
          <ColorInput
            label="Colour"
            value={color}
            onChange={setColor}
            swatches={SWATCHES}
            swatchesPerRow={8}
            placeholder="Default"
            format="hex"
          />
          {!isGroup && item.capabilities.canEdit && (
            <Switch
              label="Anyone with access may download"
              checked={enableDownload}
              onChange={(e) => setEnableDownload(e.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={updateGroup.isPending || updateProject.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Whether `candidate` is `ancestor` or lies below it. */
function isDescendant(
  folders: { id: string; parentId: string | null }[],
  candidate: string,
  ancestor: string,
): boolean {
  const parents = new Map(folders.map((f) => [f.id, f.parentId]));
  for (let current: string | null | undefined = candidate; current; current = parents.get(current))
    if (current === ancestor) return true;
  return false;
}
