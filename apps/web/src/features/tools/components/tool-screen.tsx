import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ToolsOverview } from '@mixroom/contracts';
import { TOOLS_CREDIT_COST, TOOLS_MESSAGES } from '@mixroom/shared';
import type { LinkedPicker, ToolInput } from '../tool-input';
import { engineLabel } from '../tools-rules';
import { InputPreview } from './input-preview';
import { ToolUpload } from './tool-upload';

/**
 * The layout both tools share: title, description, the credits line, the upload area, the chosen
 * audio's meter, waveform and player, the tool's own choice (voices or stem modes), Reset and Process.
 */
export function ToolScreen({
  title,
  description,
  overview,
  remaining,
  input,
  onInput,
  progress,
  working,
  engine,
  onReset,
  onProcess,
  children,
  linkedPicker,
}: {
  title: string;
  description: string;
  overview: ToolsOverview | undefined;
  /** The credits left, from the signed-in user (the overview's figure when it differs is newer). */
  remaining: number | undefined;
  input: ToolInput | null;
  onInput: (input: ToolInput | null) => void;
  progress: number | null;
  working: boolean;
  engine: 'separator' | 'voice';
  onReset: () => void;
  onProcess: () => void;
  children: ReactNode;
  /** The page's browser of linked storage accounts, for a fourth way to pick the input. */
  linkedPicker?: LinkedPicker;
}) {
  const credits = overview?.credits.remaining ?? remaining;
  const runs = overview?.engines[engine];
  return (
    <Stack gap="md" maw={1100} data-testid="tools-screen">
      <Stack gap={4}>
        <Anchor component={Link} to="/tools" size="sm" c="dimmed">
          ← Tools
        </Anchor>
        <Title order={2}>{title}</Title>
        <Text c="dimmed">{description}</Text>
        <Text size="sm" fw={500} data-testid="tools-credits">
          {credits === undefined ? `Credits: ${TOOLS_CREDIT_COST} needed` : TOOLS_MESSAGES.credits(credits)}
        </Text>
      </Stack>
      {overview?.busy && (
        <Alert color="orange" icon={<IconInfoCircle size={18} />} title={TOOLS_MESSAGES.busyTitle}>
          {TOOLS_MESSAGES.busy}{' '}
          <Anchor component={Link} to="/tools/history" size="sm">
            My Tasks
          </Anchor>
        </Alert>
      )}
      <ToolUpload value={input} onChange={onInput} progress={progress} disabled={working} linkedPicker={linkedPicker} />
      <InputPreview input={input} />
      <Paper withBorder p="md" radius="md">
        {children}
      </Paper>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="xs" c="dimmed">
          {runs ? `Runs on: ${engineLabel(runs)}` : ''}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onReset} disabled={working}>
            Reset
          </Button>
          <Button onClick={onProcess} disabled={!input} loading={working} data-testid="tools-process">
            Process
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
