import { Badge, type BadgeProps } from '@mantine/core';
import { IconCircleCheckFilled, IconAlertCircleFilled } from '@tabler/icons-react';
import { versionApproval, type VersionApproval } from '@mixroom/contracts';

/** Every verdict the server knows, in the order a menu offers them. */
export const VERDICTS = versionApproval.options;

export const VERDICT_LABELS: Record<VersionApproval, string> = {
  none: 'No verdict',
  needs_changes: 'Needs changes',
  approved: 'Approved',
};

const COLORS: Record<VersionApproval, string> = { none: 'gray', needs_changes: 'orange', approved: 'teal' };

export const verdictColor = (approval: VersionApproval) => COLORS[approval];

/** A version's verdict; nothing for "no verdict" unless asked to show it. */
export function VerdictBadge({
  approval,
  showNone = false,
  ...props
}: { approval: VersionApproval; showNone?: boolean } & BadgeProps) {
  if (approval === 'none' && !showNone) return null;
  const Icon =
    approval === 'approved' ? IconCircleCheckFilled : approval === 'needs_changes' ? IconAlertCircleFilled : null;
  return (
    <Badge
      color={COLORS[approval]}
      variant={approval === 'none' ? 'light' : 'filled'}
      leftSection={Icon ? <Icon size={12} /> : undefined}
      data-testid="verdict"
      data-verdict={approval}
      {...props}
    >
      {VERDICT_LABELS[approval]}
    </Badge>
  );
}
