import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  CopyButton,
  Divider,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconHelpCircle, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isRecipientEmail } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { useMe } from '../../users/queries';
import { sharingApi, type ResourceType } from '../api';
import { useShareInfo, useSharingMutation } from '../queries';

function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <TextInput
      label={label}
      value={value}
      readOnly
      onFocus={(e) => e.currentTarget.select()}
      rightSection={
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'}>
              <ActionIcon variant="subtle" onClick={copy} aria-label={`Copy ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}

/** The Share dialog: public link, invitation link, invite by e-mail, collaborators. */
export function ShareDialog({
  target,
  onClose,
}: {
  target: { type: ResourceType; id: string; name: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={Boolean(target)} onClose={onClose} title={target ? `Share “${target.name}”` : ''} centered size="lg">
      {target && <ShareContent type={target.type} id={target.id} />}
    </Modal>
  );
}

function ShareContent({ type, id }: { type: ResourceType; id: string }) {
  const info = useShareInfo(type, id);
  const me = useMe().data;
  const [emails, setEmails] = useState<string[]>([]);
  const [optimisticLink, setOptimisticLink] = useState<boolean | null>(null);
  const toggle = useSharingMutation((isActive: boolean) => sharingApi.setPublicLink(type, id, isActive));
  const invite = useSharingMutation((list: string[]) => sharingApi.invite(type, id, list));
  const permission = useSharingMutation((v: { userId: string; permission: 'VIEWER' | 'EDITOR' }) =>
    sharingApi.setPermission(type, id, v.userId, v.permission),
  );
  const remove = useSharingMutation((userId: string) => sharingApi.removeUser(type, id, userId));
  const data = info.data;
  if (!data) return <Text c="dimmed">Loading…</Text>;
  const caps = data.capabilities;
  const linkOn = optimisticLink ?? data.publicLink.isActive;
  const paid = me?.plans.some((p) => p.active) ?? false;

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Switch
          label="Public link"
          description="Anyone with the link can play and download, without an account."
          checked={linkOn}
          disabled={!caps.canTogglePublicLink || toggle.isPending}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setOptimisticLink(next);
            toggle.mutate(next, {
              onSettled: () => setOptimisticLink(null),
              // A failed toggle goes back to what it was.
              onError: () => notify('error', 'Error', 'An error occurred while enabling/disabling the url.'),
            });
          }}
        />
        {!paid && (
          <Tooltip
            label="Editors and Essential plans can share with more control. See the plans in Settings."
            multiline
            w={240}
          >
            <ActionIcon component={Link} to="/settings" variant="subtle" aria-label="About sharing and plans">
              <IconHelpCircle size={18} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {linkOn && data.publicLink.url && <CopyField label="Public link" value={data.publicLink.url} />}
      {caps.canInvite && (
        <>
          <Divider />
          <CopyField label="Invitation link (people ask to join; you approve)" value={data.inviteUrl} />
          <Group align="flex-end" wrap="nowrap">
            <TagsInput
              label="Invite by e-mail"
              placeholder="name@example.com, Enter"
              value={emails}
              splitChars={[',', ' ', ';']}
              acceptValueOnBlur
              onChange={(values) => {
                const valid = values.filter((value) => isRecipientEmail(value.trim()));
                if (valid.length < values.length) notify('warning', 'Invalid Email', 'Please add a valid email');
                setEmails(valid);
              }}
              style={{ flex: 1 }}
            />
            <Button
              disabled={emails.length === 0}
              loading={invite.isPending}
              onClick={() =>
                invite.mutate(emails, {
                  onSuccess: () => {
                    notify('success', 'Success', 'Emails Sent');
                    setEmails([]);
                  },
                  onError: (error) =>
                    notify(
                      'error',
                      'Error',
                      error instanceof Error && error.message.includes('hour') ? error.message : 'An error occurred',
                    ),
                })
              }
            >
              Invite
            </Button>
          </Group>
        </>
      )}
      <Divider label={`People (${data.users.length}/${data.maxUsers})`} labelPosition="left" />
      <Stack gap="xs" data-testid="collaborators">
        {data.users.map((user) => (
          <Group key={user.id} justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <Avatar src={user.photoUrl} name={user.displayName} color="initials" radius="xl" size={32} />
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {user.displayName}{' '}
                  {user.role === 'PUBLISHER' && (
                    <Text span c="dimmed">
                      (Publisher)
                    </Text>
                  )}
                </Text>
                {user.email && (
                  <Text size="xs" c="dimmed" truncate>
                    {user.email}
                  </Text>
                )}
              </div>
            </Group>
            {user.role === 'PUBLISHER' ? (
              <Badge variant="light">Publisher</Badge>
            ) : (
              <Group gap="xs" wrap="nowrap">
                <Select
                  size="xs"
                  w={110}
                  aria-label={`Permission of ${user.displayName}`}
                  value={user.role}
                  disabled={!caps.canManageUsers}
                  allowDeselect={false}
                  data={[
                    { value: 'VIEWER', label: 'Viewer' },
                    { value: 'EDITOR', label: 'Editor' },
                  ]}
                  onChange={(value) =>
                    value &&
                    permission.mutate(
                      { userId: user.id, permission: value as 'VIEWER' | 'EDITOR' },
                      {
                        onSuccess: () => notify('success', 'Success', 'Permission updated!'),
                        onError: () => notify('error', 'Error', 'An error occurred updating permissions'),
                      },
                    )
                  }
                />
                <Tooltip label="Remove">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    disabled={!user.canRemove}
                    aria-label={`Remove ${user.displayName}`}
                    onClick={() =>
                      remove.mutate(user.id, {
                        onSuccess: () => notify('success', 'Success', 'The user was successfully removed!'),
                        onError: () => notify('error', 'Error', 'An error occurred while removing the user'),
                      })
                    }
                  >
                    <IconUserMinus size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
