import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { invitedTo } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { PENDING_JOIN_KEY } from '../../../pages/join-page';
import { sharingApi, type ResourceType } from '../api';

interface Target {
  type: ResourceType;
  id: string;
  name: string;
  /** The invitation's code: the server answers only to it (or to a member). */
  invite: string | undefined;
}

function takePending(): { id: string; type: ResourceType; invite?: string | null } | null {
  try {
    return JSON.parse(localStorage.getItem(PENDING_JOIN_KEY) ?? 'null') as {
      id: string;
      type: ResourceType;
      invite?: string | null;
    } | null;
  } catch {
    return null;
  }
}

/**
 * After an invitation link, the Join Request dialog: Accept sends a request to the
 * publisher, Reject forgets the invitation. A member is taken straight to the item instead.
 */
export function JoinRequestDialog() {
  const navigate = useNavigate();
  const [target, setTarget] = useState<Target | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const pending = takePending();
    if (!pending) return;
    sharingApi.joinTarget(pending.type, pending.id, pending.invite ?? undefined).then(
      (found) => {
        if (found.isMember) {
          localStorage.removeItem(PENDING_JOIN_KEY);
          void navigate(found.type === 'group' ? `/groups/${found.id}` : '/groups');
          return;
        }
        setTarget({ type: found.type, id: found.id, name: found.name, invite: pending.invite ?? undefined });
      },
      () => {
        localStorage.removeItem(PENDING_JOIN_KEY);
        notify(
          'error',
          'Error',
          pending.type === 'group'
            ? 'There was an error retrieving the group'
            : 'There was an error retrieving the project',
        );
      },
    );
  }, [navigate]);

  const close = () => {
    localStorage.removeItem(PENDING_JOIN_KEY);
    setTarget(null);
  };

  const accept = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await sharingApi.requestJoin(target.type, target.id, target.invite);
      notify('success', 'Join Request', 'Your response has been sent! Please wait for the publisher to verify it.');
      close();
    } catch {
      notify('error', 'Join Request', 'An error occurred processing your response');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={Boolean(target)} onClose={close} title="Join Request" centered>
      <Text>{target && invitedTo(target.type, target.name)}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={close}>
          Reject
        </Button>
        <Button loading={busy} onClick={() => void accept()}>
          Accept
        </Button>
      </Group>
    </Modal>
  );
}
