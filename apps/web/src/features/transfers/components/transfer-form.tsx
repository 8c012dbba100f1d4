import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Progress,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Connector } from '@mixroom/contracts';
import { formatBytes } from '../../../lib/format/format';
import { RESERVED_CORNER_EVENT } from '../../uploads/use-reserved-corner';
import type { PickedFile } from '../../uploads/walk-drop';
import type { LinkedBrowser, LinkedPick } from '../linked-pick';
import type { MissingFile } from '../transfer-draft-store';
import { TRANSFER_TEXTS, type TransferMode } from '../transfer-rules';
import type { TransferDraftFields } from '../transfer-draft-store';
import { DurationSelect } from './duration-select';
import { FilePickZone } from './file-pick-zone';
import { LinkedStorageDialog } from './linked-storage-dialog';
import { RecipientsInput } from './recipients-input';
import { SelectedFilesList } from './selected-files-list';

/** As long as the server takes them (its transfer form schema). */
const TRANSFER_FIELD_MAX = { name: 100, message: 5000 } as const;

export interface TransferFormProps {
  fields: TransferDraftFields;
  onFields: (patch: Partial<TransferDraftFields>) => void;
  password: string;
  onPassword: (password: string) => void;
  files: PickedFile[];
  missing: MissingFile[];
  onPick: (files: PickedFile[], source: 'files' | 'folder') => void;
  onRemove: (file: PickedFile) => void;
  /** Files picked in linked storage (the server copies them when the transfer is sent). */
  linked: LinkedPick[];
  onAddLinked: (files: LinkedPick[]) => void;
  onRemoveLinked: (file: LinkedPick) => void;
  /** The user's linked accounts; none hides From linked storage. */
  connectors: Connector[];
  /** Browses one linked account (the connectors' cloud browser, from the page). */
  linkedBrowser: LinkedBrowser;
  /** Durations the plan unlocks; null for a visitor. */
  enabledDurations: number[] | null;
  /** Whether the plan lets a transfer carry a password (null: not known before sign-in). */
  passwordAllowed: boolean | null;
  /** Shown without a paid data plan. */
  upgradeHint: ReactNode | null;
  /** Files are over the page. */
  dragging: boolean;
  /** Upload progress in percent while the transfer is being sent; null otherwise. */
  progress: number | null;
  onSubmit: () => void;
}

/** The transfer screen's card: files, duration, name, mode and recipients, message, password, Transfer. */
export function TransferForm(props: TransferFormProps) {
  const { fields, onFields, files, missing, linked, progress } = props;
  const busy = progress !== null;
  const total = files.reduce((sum, f) => sum + f.file.size, 0) + linked.reduce((sum, f) => sum + f.size, 0);
  const [browsing, setBrowsing] = useState(false);
  // While sending, the progress, the Transfer button and the upgrade hint stay above the Activities
  // panel, which opens (and grows) at the bottom of the window as the files start.
  const bottom = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!busy) return;
    const keepInView = () => bottom.current?.scrollIntoView({ block: 'nearest' });
    keepInView();
    window.addEventListener(RESERVED_CORNER_EVENT, keepInView);
    return () => window.removeEventListener(RESERVED_CORNER_EVENT, keepInView);
  }, [busy]);

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      w="100%"
      maw={640}
      mx="auto"
      pos="relative"
      style={props.dragging ? { outline: '2px dashed var(--mantine-color-violet-4)', outlineOffset: 4 } : undefined}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) props.onSubmit();
        }}
      >
        <Stack gap="md">
          <div>
            <Title order={2}>Transfer</Title>
            <Text c="dimmed" size="sm">
              Send files and folders with a link that expires. Drop them anywhere on the page.
            </Text>
          </div>
          <FilePickZone
            onPick={props.onPick}
            dragging={props.dragging}
            disabled={busy}
            dropText="Drop to add to the transfer"
            onLinked={props.connectors.length > 0 ? () => setBrowsing(true) : undefined}
          />
          <SelectedFilesList
            files={files}
            missing={missing}
            linked={linked}
            onRemove={props.onRemove}
            onRemoveLinked={props.onRemoveLinked}
            disabled={busy}
          />
          <DurationSelect
            value={fields.durationDays}
            enabled={props.enabledDurations}
            onChange={(durationDays) => onFields({ durationDays })}
            disabled={busy}
          />
          <TextInput
            label="Name"
            value={fields.name}
            maxLength={TRANSFER_FIELD_MAX.name}
            disabled={busy}
            onChange={(e) => onFields({ name: e.currentTarget.value })}
          />
          <Radio.Group
            label="Send as"
            value={fields.mode}
            onChange={(value) =>
              onFields({ mode: value as TransferMode, ...(value === 'link' ? { recipients: [] } : {}) })
            }
          >
            <Group mt={6}>
              <Radio value="link" label="Link Only" disabled={busy} />
              <Radio value="email" label="Send Email" disabled={busy} />
            </Group>
          </Radio.Group>
          {fields.mode === 'email' && (
            <RecipientsInput
              value={fields.recipients}
              onChange={(recipients) => onFields({ recipients })}
              disabled={busy}
            />
          )}
          <Textarea
            label="Message"
            autosize
            minRows={3}
            maxRows={8}
            maxLength={TRANSFER_FIELD_MAX.message}
            value={fields.message}
            disabled={busy}
            onChange={(e) => onFields({ message: e.currentTarget.value })}
          />
          <PasswordInput
            label="Password"
            description={
              props.passwordAllowed === false
                ? 'Password protection comes with the Essential and Studio plans.'
                : undefined
            }
            autoComplete="new-password"
            value={props.password}
            disabled={busy || props.passwordAllowed === false}
            onChange={(e) => props.onPassword(e.currentTarget.value)}
          />
          <Stack gap="md" ref={bottom} style={{ scrollMarginBottom: 'var(--activities-room, 0px)' }}>
            {progress !== null && (
              <Stack gap={4}>
                <Group justify="space-between">
                  <Text size="sm">Sending {formatBytes(total)}…</Text>
                  <Text size="sm" c="dimmed">
                    {progress}%
                  </Text>
                </Group>
                <Progress value={progress} animated aria-label="Transfer progress" />
              </Stack>
            )}
            <Button type="submit" size="md" loading={busy} fullWidth>
              Transfer
            </Button>
            {props.upgradeHint && (
              <Alert variant="light" color="violet" icon={<IconSparkles size={18} />} p="sm">
                {props.upgradeHint}
              </Alert>
            )}
          </Stack>
        </Stack>
      </form>
      <LinkedStorageDialog
        opened={browsing}
        connectors={props.connectors}
        browser={props.linkedBrowser}
        onClose={() => setBrowsing(false)}
        onAdd={props.onAddLinked}
      />
    </Paper>
  );
}

export const UpgradeHint = ({ onClick }: { onClick: () => void }) => (
  <Anchor component="button" type="button" size="sm" onClick={onClick}>
    {TRANSFER_TEXTS.upgradeHint}
  </Anchor>
);
