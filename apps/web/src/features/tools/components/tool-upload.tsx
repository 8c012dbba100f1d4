import { Button, Group, Paper, Progress, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCloud, IconFileMusic, IconLink, IconLibrary, IconUpload } from '@tabler/icons-react';
import { useRef, useState, type DragEvent } from 'react';
import { TOOLS_EXTENSIONS, TOOLS_MESSAGES, TOOLS_URL_PATTERN } from '@mixroom/shared';
import { extensionProblem } from '../tools-rules';
import { inputName, type LinkedPicker, type ToolInput } from '../tool-input';
import { LibraryPicker } from './library-picker';

const ACCEPT = TOOLS_EXTENSIONS.join(',');

/** The spec's 'Warning' alert for a file the tools do not take. */
function warnExtension(message: string) {
  modals.open({
    title: TOOLS_MESSAGES.extensionTitle,
    centered: true,
    children: <Text size="sm">{message}</Text>,
  });
}

/**
 * The upload area: a prompt until a file is chosen, then its name and Change File; a link tab (a
 * public URL the server fetches), "From my library" (a version the user may download) and, where the
 * page hands in its browser, "Linked storage" (a file in a linked account, copied by the server).
 */
export function ToolUpload({
  value,
  onChange,
  progress,
  disabled,
  linkedPicker,
}: {
  value: ToolInput | null;
  onChange: (input: ToolInput | null) => void;
  /** Upload progress of the chosen file, 0–100, while Process sends it. */
  progress: number | null;
  disabled?: boolean;
  linkedPicker?: LinkedPicker;
}) {
  const picker = useRef<HTMLInputElement>(null);
  const [tab, setTab] = useState<string | null>(
    value?.kind === 'link'
      ? 'link'
      : value?.kind === 'version'
        ? 'library'
        : value?.kind === 'linked'
          ? 'linked'
          : 'file',
  );
  const [url, setUrl] = useState(value?.kind === 'link' ? value.url : '');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    const problem = extensionProblem(file.name);
    if (problem) return warnExtension(problem);
    onChange({ kind: 'file', file });
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) take(event.dataTransfer.files);
  };

  const applyLink = () => {
    const trimmed = url.trim();
    if (!trimmed) return setUrlError(TOOLS_MESSAGES.urlRequired);
    if (!TOOLS_URL_PATTERN.test(trimmed)) return setUrlError(TOOLS_MESSAGES.urlInvalid);
    const path = trimmed.split(/[?#]/)[0] ?? '';
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (last.includes('.')) {
      const problem = extensionProblem(last);
      if (problem) return warnExtension(problem);
    }
    setUrlError(null);
    onChange({ kind: 'link', url: trimmed });
  };

  const chosen = value ? (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {value.kind === 'link' ? (
          <IconLink size={20} />
        ) : value.kind === 'version' ? (
          <IconLibrary size={20} />
        ) : value.kind === 'linked' ? (
          <IconCloud size={20} />
        ) : (
          <IconFileMusic size={20} />
        )}
        <Text size="sm" fw={500} truncate="end" data-testid="tools-chosen-name">
          {inputName(value)}
        </Text>
      </Group>
      <Button
        size="xs"
        variant="light"
        disabled={disabled}
        onClick={() => (value.kind === 'file' ? picker.current?.click() : onChange(null))}
      >
        Change File
      </Button>
    </Group>
  ) : null;

  return (
    <Paper withBorder p="md" radius="md" data-testid="tools-upload">
      <input
        ref={picker}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="tools-file-input"
        onChange={(e) => {
          take(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
      {chosen ? (
        <Stack gap="xs">
          {chosen}
          {progress !== null && (
            <Stack gap={2}>
              <Progress value={progress} size="sm" aria-label="Upload progress" data-testid="tools-upload-progress" />
              <Text size="xs" c="dimmed">
                Uploading… {progress}%
              </Text>
            </Stack>
          )}
        </Stack>
      ) : (
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="file" leftSection={<IconUpload size={14} />}>
              Upload
            </Tabs.Tab>
            <Tabs.Tab value="link" leftSection={<IconLink size={14} />}>
              Link
            </Tabs.Tab>
            <Tabs.Tab value="library" leftSection={<IconLibrary size={14} />}>
              From my library
            </Tabs.Tab>
            {linkedPicker && (
              <Tabs.Tab value="linked" leftSection={<IconCloud size={14} />}>
                Linked storage
              </Tabs.Tab>
            )}
          </Tabs.List>
          <Tabs.Panel value="file">
            <Stack
              align="center"
              gap={6}
              py="lg"
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={drop}
              style={{
                border: `1px dashed var(--mantine-color-${dragging ? 'violet-4' : 'dark-3'})`,
                borderRadius: 8,
                cursor: 'pointer',
              }}
              onClick={() => !disabled && picker.current?.click()}
            >
              <IconUpload size={28} />
              <Text size="sm" fw={500}>
                Drop an audio file here or click to choose one
              </Text>
              <Text size="xs" c="dimmed">
                {TOOLS_EXTENSIONS.join(' ')} · one file
              </Text>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="link">
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                placeholder="https://…/song.mp3"
                aria-label="Public link to an audio file"
                value={url}
                error={urlError}
                onChange={(e) => {
                  setUrl(e.currentTarget.value);
                  setUrlError(null);
                }}
                onKeyDown={(e) => e.key === 'Enter' && applyLink()}
              />
              <Button onClick={applyLink} disabled={disabled}>
                Use link
              </Button>
            </Group>
            <Text size="xs" c="dimmed" mt={6}>
              Only public links; the server downloads the file when you press Process.
            </Text>
          </Tabs.Panel>
          <Tabs.Panel value="library">
            <LibraryPicker onPick={onChange} />
          </Tabs.Panel>
          {linkedPicker && <Tabs.Panel value="linked">{linkedPicker(onChange)}</Tabs.Panel>}
        </Tabs>
      )}
    </Paper>
  );
}
