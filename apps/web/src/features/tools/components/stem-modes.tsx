import { Group, Radio } from '@mantine/core';
import { STEM_MODE_LABELS, STEM_MODES, type StemMode } from '@mixroom/shared';

/** The two separations: 'Voice + Music' or 'Voice + Music + Drums + Bass + Other'. */
export function StemModes({ value, onChange }: { value: StemMode; onChange: (mode: StemMode) => void }) {
  return (
    <Radio.Group value={value} onChange={(v) => onChange(v as StemMode)} label="Stems" data-testid="tools-stem-modes">
      <Group mt="xs" gap="lg">
        {STEM_MODES.map((mode) => (
          <Radio key={mode} value={mode} label={STEM_MODE_LABELS[mode]} />
        ))}
      </Group>
    </Radio.Group>
  );
}
