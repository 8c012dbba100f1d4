import { Group, Select, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { TRANSFER_DURATION_DAYS } from '@mixroom/shared';

/**
 * How long the link works. Every duration is offered; those the plan does not unlock show a lock.
 * Choosing one keeps it, marked as locked: the plan is checked when the user presses Transfer, in
 * its place among the form's checks, so nothing interrupts filling the form.
 */
export function DurationSelect({
  value,
  enabled,
  onChange,
  disabled,
  lockedSelectable = true,
}: {
  value: number;
  /** Durations the plan unlocks; null for a visitor (all are shown, the plan is known after sign-in). */
  enabled: number[] | null;
  onChange: (days: number) => void;
  disabled?: boolean;
  /** Whether a locked duration may be chosen (the transfer form checks it on Transfer); false disables it. */
  lockedSelectable?: boolean;
}) {
  const isOpen = (days: number) => !enabled || enabled.includes(days);
  const locked = !isOpen(value);
  return (
    <Select
      label="Duration"
      allowDeselect={false}
      disabled={disabled}
      value={String(value)}
      onChange={(next) => {
        if (next) onChange(Number(next));
      }}
      leftSection={locked ? <IconLock size={16} aria-label="Locked" /> : undefined}
      description={locked ? 'Paid plans only: you will be offered an upgrade when you press Transfer.' : undefined}
      data={TRANSFER_DURATION_DAYS.map((days) => ({
        value: String(days),
        label: `${days} days`,
        disabled: !lockedSelectable && !isOpen(days),
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
