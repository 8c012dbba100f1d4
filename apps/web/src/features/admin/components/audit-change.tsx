import { Group, Text } from '@mantine/core';
import type { AuditEntry } from '@mixroom/contracts';

export const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  'plan.granted': 'Plan granted',
  'plan.revoked': 'Plan revoked',
  'flags.changed': 'Flags changed',
  'credits.adjusted': 'Credits adjusted',
  'account.disabled': 'Account disabled',
  'account.enabled': 'Account enabled',
  'account.deleted': 'Account deleted by its owner',
};

const show = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length ? value.map(show).join(', ') : 'none';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return new Date(value).toLocaleString();
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** Each field that the action touched: before → after. */
export function AuditChange({ entry }: { entry: AuditEntry }) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return (
    <div>
      {keys.map((key) => {
        const had = entry.before && key in entry.before;
        const has = entry.after && key in entry.after;
        return (
          <Group key={key} gap={6} wrap="nowrap" align="baseline">
            <Text size="xs" c="dimmed" miw={70}>
              {key}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {had && has
                ? `${show(entry.before![key])} → ${show(entry.after![key])}`
                : show((has ? entry.after : entry.before)![key])}
            </Text>
          </Group>
        );
      })}
    </div>
  );
}
