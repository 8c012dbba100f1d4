import { Button, FileButton, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconFileMusic } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { AUDIO_EXTENSIONS, baseName, extensionOf, LIMITS, STORAGE_MESSAGES } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { importFromConnector, type PickedFile } from '../../connectors/api';
import { followTransfer } from '../../connectors/queries';
import { useVersionUpload } from '../../uploads/use-version-upload';
import { useCreateProject } from '../queries';

type Kind = 'empty' | 'file';

/** The page's cloud storage browser for step 2 (another feature's component, lent as a slot). */
export type FilePicker = (props: {
  accept: readonly string[];
  picked: PickedFile | null;
  onPick: (picked: PickedFile | null) => void;
}) => ReactNode;

/**
 * The New Project wizard: step 0 Empty Project or Project from File, step 1 the name, then
 * for a file project step 2 the audio file and step 3 the first version's name. 'Step n/1' or 'n/3'.
 */
export function NewProjectWizard({
  opened,
  groupId,
  onClose,
  onCreated,
  filePicker,
}: {
  opened: boolean;
  groupId: string | null;
  onClose: () => void;
  onCreated: (projectId: string) => void;
  /** Step 2's browser; without one, a file of this computer is chosen. */
  filePicker?: FilePicker;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Project" centered size="lg">
      {opened && <Wizard groupId={groupId} onClose={onClose} onCreated={onCreated} filePicker={filePicker} />}
    </Modal>
  );
}

function Wizard({
  groupId,
  onClose,
  onCreated,
  filePicker,
}: {
  groupId: string | null;
  onClose: () => void;
  onCreated: (projectId: string) => void;
  filePicker: FilePicker | undefined;
}) {
  const [step, setStep] = useState(0);
  const [kind, setKind] = useState<Kind>('empty');
  const [name, setName] = useState('');
  const [file, setFile] = useState<PickedFile | null>(null);
  const [versionName, setVersionName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const createProject = useCreateProject();
  const uploadVersion = useVersionUpload();
  const lastStep = kind === 'empty' ? 1 : 3;

  const problemAt = (at: number, values: { name: string; versionName: string }): string | null => {
    if (at === 1 && !values.name.trim()) return STORAGE_MESSAGES.projectNameRequired;
    if (at === 1 && values.name.trim().length > LIMITS.nameMax) return STORAGE_MESSAGES.nameTooLong;
    if (at === 3 && !values.versionName.trim()) return STORAGE_MESSAGES.versionNameRequired;
    if (at === 3 && values.versionName.trim().length > LIMITS.nameMax) return STORAGE_MESSAGES.nameTooLong;
    return null;
  };
  const validate = () => problemAt(step, { name, versionName });

  const finish = async () => {
    try {
      const project = await createProject.mutateAsync({ name: name.trim(), groupId });
      onClose();
      onCreated(project.id);
      if (kind !== 'file' || !file) return;
      if (file.source === 'device') await uploadVersion(project.id, versionName.trim(), file.file);
      else {
        // The server copies the linked file; the Activities panel follows the copy.
        const { transfer } = await importFromConnector(file.connectorId, {
          path: file.path,
          projectId: project.id,
          versionName: versionName.trim(),
        });
        followTransfer(transfer, file.name);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  const next = () => {
    const problem = validate();
    setError(problem);
    if (problem) {
      if (step === 3 && !versionName.trim())
        notify('warning', 'New Project', STORAGE_MESSAGES.versionNameRequiredMessage);
      return;
    }
    if (step === 2 && !file) {
      modals.openConfirmModal({
        title: 'New Project',
        children: "You haven't selected an audio file, do you want to create an empty project?",
        labels: { confirm: 'Create empty project', cancel: 'Choose a file' },
        onConfirm: () => {
          setKind('empty');
          void finish();
        },
      });
      return;
    }
    if (step === lastStep) void finish();
    else setStep(step + 1);
  };

  const choose = (picked: PickedFile | null) => {
    if (!picked) return;
    if (!(AUDIO_EXTENSIONS as readonly string[]).includes(extensionOf(picked.name)))
      return notify('warning', 'New Project', STORAGE_MESSAGES.selectOneAudioFile);
    setFile(picked);
    setVersionName(baseName(picked.name).slice(0, LIMITS.nameMax));
    setError(null);
  };

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Step {step}/{lastStep}
      </Text>
      {step === 0 && (
        <SegmentedControl
          fullWidth
          value={kind}
          onChange={(v) => setKind(v as Kind)}
          data={[
            { value: 'empty', label: 'Empty Project' },
            { value: 'file', label: 'Project from File' },
          ]}
        />
      )}
      {step === 1 && (
        <TextInput
          label="Project name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(problemAt(1, { name: e.target.value, versionName }));
          }}
          error={error}
          data-autofocus
        />
      )}
      {step === 2 && filePicker?.({ accept: AUDIO_EXTENSIONS, picked: file, onPick: choose })}
      {step === 2 && !filePicker && (
        <Group>
          <FileButton
            onChange={(picked) =>
              picked && choose({ source: 'device', file: picked, name: picked.name, size: picked.size })
            }
            accept={AUDIO_EXTENSIONS.map((e) => `.${e}`).join(',')}
          >
            {(props) => (
              <Button variant="light" leftSection={<IconFileMusic size={16} />} {...props}>
                {file ? 'Change file' : 'Choose an audio file'}
              </Button>
            )}
          </FileButton>
          <Text size="sm" truncate maw={300}>
            {file?.name ?? 'No file selected'}
          </Text>
        </Group>
      )}
      {step === 3 && (
        <TextInput
          label="Version name"
          value={versionName}
          onChange={(e) => {
            setVersionName(e.target.value);
            setError(problemAt(3, { name, versionName: e.target.value }));
          }}
          error={error}
        />
      )}
      {error && step !== 1 && step !== 3 && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Group>
          <Button
            variant="default"
            disabled={step === 0}
            onClick={() => {
              // An error belongs to the step it was found on.
              setError(null);
              setStep(step - 1);
            }}
          >
            Previous
          </Button>
          <Button onClick={next} loading={createProject.isPending}>
            {step === lastStep ? 'Finish' : 'Next'}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
