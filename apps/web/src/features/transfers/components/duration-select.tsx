import { Group, Select, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { TRANSFER_DURATION_DAYS } from '@mixroom/shared';

/**
 * How long the link works. Every duration is offered; those the plan does not unlock show a lock,
 * and choosing one leaves the value as it was and says why (`onLocked`).
 */
export function DurationSelect({
  value,
  enabled,
  onChange,
  onLocked,
  disabled,
}: {
  value: number;
  /** Durations the plan unlocks; null for a visitor (all are shown, the plan is known after sign-in). */
  enabled: number[] | null;
  onChange: (days: number) => void;
  onLocked: () => void;
  disabled?: boolean;
}) {
  const isOpen = (days: number) => !enabled || enabled.includes(days);
  return (
    <Select
      label="Duration"
      allowDeselect={false}
      disabled={disabled}
      value={String(value)}
      onChange={(next) => {
        if (!next) return;
        if (isOpen(Number(next))) onChange(Number(next));
        else onLocked();
      }}
      data={TRANSFER_DURATION_DAYS.map((days) => ({
        value: String(days),
        label: `${days} days`,
      }))}
      renderOption={({ option }) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{option.label}</Text>
          {!isOpen(Number(option.value)) && (
            <>
              <IconLock size={14} aria-label="Locked" />
              <Text size="xs" c="dimmed">
                paid plans
              </Text>
            </>
          )}
        </Group>
      )}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
