import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconClockStop } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { formatDate } from '../../../lib/format/format';
import { readExpiryField, toDateField } from '../transfer-rules';

interface Bounds {
  min: Date;
  max: Date;
}

/**
 * The expiry date, movable within the server's bounds (now … the window's start plus the plan's
 * longest duration). The field saves once the user confirms a whole date (Enter, or leaving the
 * field), never while a date is being typed; Escape puts the current date back. Ending the transfer
 * early is the separate Expire now.
 */
export function ExpiryCard({
  expiresAt,
  range,
  saving,
  onChange,
  onExpireNow,
}: {
  expiresAt: string;
  range: { min: string; max: string };
  saving: boolean;
  /** Saves the new expiry; a refusal is told by the caller and lets the same day be tried again. */
  onChange: (expiresAt: Date) => Promise<unknown>;
  onExpireNow: (() => void) | null;
}) {
  const bounds = { min: new Date(range.min), max: new Date(range.max) };
  const current = new Date(expiresAt);
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="xs">
        <Text fw={600}>Expiry</Text>
        {/* Keyed by the saved day: a saved (or refreshed) expiry is what the field shows again. */}
        <ExpiryDateField
          key={toDateField(current)}
          current={current}
          bounds={bounds}
          saving={saving}
          onChange={onChange}
        />
        {onExpireNow && (
          <Group justify="flex-end">
            <Button
              size="xs"
              variant="light"
              color="orange"
              leftSection={<IconClockStop size={14} />}
              disabled={saving}
              onClick={onExpireNow}
            >
              Expire now
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function ExpiryDateField({
  current,
  bounds,
  saving,
  onChange,
}: {
  current: Date;
  bounds: Bounds;
  saving: boolean;
  onChange: (expiresAt: Date) => Promise<unknown>;
}) {
  const shown = toDateField(current);
  const [draft, setDraft] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  // The day last sent: Enter and then leaving the field (or the field going disabled while it
  // saves) confirm the same day once.
  const sent = useRef<string | null>(null);

  const confirm = (value: string) => {
    if (value === sent.current) return;
    const verdict = readExpiryField(value, current, bounds);
    if (verdict.kind === 'unchanged') {
      setError(null);
      return;
    }
    if (verdict.kind === 'refused') {
      setError(verdict.message);
      return;
    }
    setError(null);
    sent.current = value;
    onChange(verdict.expiresAt).catch(() => {
      sent.current = null;
    });
  };

  return (
    <Stack gap={4}>
      <TextInput
        type="date"
        label="Expiration date"
        description={`Up to ${formatDate(bounds.max.toISOString())}`}
        value={draft}
        min={toDateField(bounds.min)}
        max={toDateField(bounds.max)}
        disabled={saving}
        error={error !== null}
        aria-describedby={error ? 'expiry-error' : undefined}
        maw={220}
        onChange={(event) => {
          setDraft(event.currentTarget.value);
          setError(null);
          sent.current = null;
        }}
        onBlur={(event) => confirm(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            confirm(event.currentTarget.value);
          } else if (event.key === 'Escape') {
            setDraft(shown);
            setError(null);
          }
        }}
      />
      {error ? (
        <Text id="expiry-error" size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : (
        draft !== shown && (
          <Text size="xs" c="dimmed">
            Press Enter or leave the field to save.
          </Text>
        )
      )}
    </Stack>
  );
}
