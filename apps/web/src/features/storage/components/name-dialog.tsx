import { Button, Group, Modal, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@mixroom/shared';

interface Props {
  opened: boolean;
  title: string;
  label: string;
  requiredMessage: string;
  submitLabel: string;
  initial?: string;
  /** The dialog's width in px; Mantine's medium size otherwise. */
  width?: number;
  onClose: () => void;
  /** Resolves when saved; a rejection's message shows under the field. */
  onSubmit: (name: string) => Promise<unknown>;
}

/** A one-field dialog (New Folder, New Audio Project): required, 50 characters, Enter submits. */
export function NameDialog(props: Props) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered size={props.width ?? 'md'}>
      {/* Mounted only while open, so every opening starts from `initial`. */}
      {props.opened && <NameForm {...props} />}
    </Modal>
  );
}

function NameForm({ label, requiredMessage, submitLabel, initial = '', onClose, onSubmit }: Props) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const validate = (text: string) =>
    !text.trim()
      ? requiredMessage
      : text.trim().length > LIMITS.nameMax
        ? `Use at most ${LIMITS.nameMax} characters.`
        : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validate(value);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await onSubmit(value.trim());
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextInput
        label={label}
        value={value}
        data-autofocus
        onChange={(e) => {
          // The error shows once the field is dirty.
          setValue(e.target.value);
          setError(validate(e.target.value));
        }}
        error={error}
        description={`${value.trim().length}/${LIMITS.nameMax}`}
      />
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={busy} disabled={Boolean(validate(value))}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
