import { Button, Radio, SegmentedControl, Stack, TextInput } from '@mantine/core';
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
 * The choices of a marker export (format, which comments, where the session starts, as a time or
 * a sample count) and its Download; `onDone` follows a saved file. Shown in the toolbar's popover,
 * or in a dialog when Markers sits behind More.
 */
export function MarkerExportForm({ version, onDone }: { version: Version; onDone: () => void }) {
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
      onDone();
    } catch {
      notify('error', 'Export markers', 'The markers could not be exported. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="marker-export">
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
  );
}
