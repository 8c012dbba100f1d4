import { Button, Popover, Radio, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconMapPinShare } from '@tabler/icons-react';
import { useState } from 'react';
import type { MarkersQuery, Version } from '@mixroom/contracts';
import { MARKER_FORMATS, type MarkerFormat } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { reviewApi } from '../api';
import { downloadBlob } from '../download-blob';
import { parseOffset } from '../marker-offset';

const FORMATS: Record<MarkerFormat, { label: string; hint: string; extension: string }> = {
  midi: { label: 'MIDI markers (.mid)', hint: 'Pro Tools, Logic, Cubase, Ableton, Reaper', extension: 'mid' },
  reaper: { label: 'Reaper markers and regions (.csv)', hint: 'Range comments become regions', extension: 'csv' },
  audacity: { label: 'Audacity labels (.txt)', hint: 'Import as a label track', extension: 'txt' },
  csv: { label: 'Spreadsheet (.csv)', hint: 'Time, end, author, text, replies, resolved', extension: 'csv' },
};

/**
 * Exports the version's comments as markers a DAW imports, placed from where the session starts
 * (a session at bar 1 = 00:00:02:00 starts at 2 s), as a time or a sample count.
 */
export function MarkerExportMenu({ version }: { version: Version }) {
  const [opened, setOpened] = useState(false);
  const [format, setFormat] = useState<MarkerFormat>('midi');
  const [scope, setScope] = useState<MarkersQuery['scope']>('all');
  const [offset, setOffset] = useState('');
  const [busy, setBusy] = useState(false);
  const parsed = parseOffset(offset, version.media?.sampleRate ?? null);

  const download = async () => {
    if (parsed.ms === null) return;
    setBusy(true);
    try {
      const { blob, fileName } = await reviewApi.markers(version.id, { format, scope, offsetMs: parsed.ms });
      downloadBlob(blob, fileName ?? `${version.name} markers.${FORMATS[format].extension}`);
      setOpened(false);
    } catch {
      notify('error', 'Export markers', 'The markers could not be exported. Please try again.');
    } finally {
      setBusy(false);
    }
  };

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
      <Popover.Dropdown data-testid="marker-export">
        <Stack gap="sm">
          <Text fw={600} size="sm">
            Comments as DAW markers
          </Text>
          <Radio.Group value={format} onChange={(v) => setFormat(v as MarkerFormat)} aria-label="Marker format">
            <Stack gap={6}>
              {MARKER_FORMATS.map((f) => (
                <Radio key={f} value={f} label={FORMATS[f].label} description={FORMATS[f].hint} />
              ))}
            </Stack>
          </Radio.Group>
          <SegmentedControl
            size="xs"
            fullWidth
            aria-label="Which comments"
            value={scope}
            onChange={(v) => setScope(v as MarkersQuery['scope'])}
            data={[
              { value: 'all', label: 'All comments' },
              { value: 'open', label: 'Open only' },
            ]}
          />
          <TextInput
            label="Session start"
            description="h:mm:ss.ms, or a sample count such as 96000 samples"
            placeholder="0:00:00.000"
            value={offset}
            onChange={(e) => setOffset(e.target.value)}
            error={parsed.error}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void download();
            }}
          />
          <Button onClick={() => void download()} loading={busy} disabled={parsed.ms === null}>
            Download
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
