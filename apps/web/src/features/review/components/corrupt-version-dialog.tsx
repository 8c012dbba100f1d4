import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Version } from '@mixroom/contracts';
import { REVIEW_MESSAGES } from '@mixroom/shared';
import { notify } from '../../../lib/notify';
import { useDeleteVersion } from '../../storage/queries';

/**
 * Spec 2 §4 and §8: audio that cannot be loaded. Someone who may delete the version is offered to
 * delete it; everyone else is told to contact the owner and goes back to /groups.
 */
export function CorruptVersionDialog({
  version,
  canDelete,
  remaining,
}: {
  version: Version;
  canDelete: boolean;
  remaining: Version[];
}) {
  const navigate = useNavigate();
  const remove = useDeleteVersion();
  const [open, setOpen] = useState(true);
  const leave = () => {
    setOpen(false);
    void navigate('/groups');
  };
  // A promise, not mutate's callbacks: those are dropped if the deletion's realtime event unmounts
  // this dialog before the answer arrives, and the user would be left without the way on.
  const confirm = () =>
    void remove.mutateAsync({ id: version.id }).then(
      ({ projectDeleted }) => {
        notify('success', 'Delete Version', `Version ${version.name} has been deleted!`);
        const next = remaining.find((v) => v.id !== version.id);
        setOpen(false);
        void navigate(projectDeleted || !next ? '/groups' : `/version/${version.projectId}/${next.number}`);
      },
      () => notify('error', 'Delete Version Error', `An error occurred deleting ${version.name}!`),
    );
  return (
    <Modal opened={open} onClose={leave} title="Corrupt Version" centered size="md" closeOnClickOutside={false}>
      <Stack>
        <Text size="sm">{canDelete ? REVIEW_MESSAGES.corruptCanDelete : REVIEW_MESSAGES.corruptContactOwner}</Text>
        {version.error && (
          <Text size="xs" c="dimmed">
            Details: {version.error}
          </Text>
        )}
        <Group justify="flex-end">
          {canDelete ? (
            <>
              <Button variant="default" onClick={leave}>
                No
              </Button>
              <Button color="red" loading={remove.isPending} onClick={confirm}>
                Yes, delete
              </Button>
            </>
          ) : (
            <Button onClick={leave}>OK</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A version that plays but is damaged (cut off during upload, parts undecodable): everyone who
 * listens is told, under the waveform, so nobody reviews a mix that is not all there.
 */
export function VersionWarning({ version }: { version: Pick<Version, 'status' | 'warning'> }) {
  if (version.status !== 'ready' || !version.warning) return null;
  return (
    <Text size="xs" c="yellow.4" mt={4} role="status">
      {version.warning}
    </Text>
  );
}
