import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Version, VersionApproval } from '@mixroom/contracts';
import { notify } from '../../../lib/notify';
import { storageKeys } from '../../storage/queries';
import { VERDICTS, VERDICT_LABELS, VerdictBadge, verdictColor } from '../../../components/verdict-badge';
import { reviewApi } from '../api';

/**
 * The review's verdict on this version. Whoever may edit the project sets it from the menu;
 * everyone else sees it. Collaborators hear of a change live (the approval event).
 */
export function VerdictMenu({ version, canEdit }: { version: Version; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  if (!canEdit) return <VerdictBadge approval={version.approval} size="lg" />;

  const choose = async (approval: VersionApproval) => {
    if (approval === version.approval) return;
    setSaving(true);
    try {
      await reviewApi.setApproval(version.id, approval);
      await queryClient.invalidateQueries({ queryKey: storageKeys.all });
    } catch {
      notify('error', 'Review', 'The verdict could not be saved. Please try again.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          size="xs"
          variant={version.approval === 'none' ? 'default' : 'filled'}
          color={verdictColor(version.approval)}
          rightSection={<IconChevronDown size={14} />}
          loading={saving}
          aria-label={`Verdict: ${VERDICT_LABELS[version.approval]}`}
          data-testid="verdict-menu"
          data-verdict={version.approval}
        >
          {VERDICT_LABELS[version.approval]}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Verdict on v{version.number}</Menu.Label>
        {VERDICTS.map((approval) => (
          <Menu.Item
            key={approval}
            onClick={() => void choose(approval)}
            rightSection={approval === version.approval ? <IconCheck size={14} /> : null}
          >
            {VERDICT_LABELS[approval]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
