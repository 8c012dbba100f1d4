import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { updateProfileBody, type Me } from '@mixroom/contracts';
import { IconCamera, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { removePhoto, setPhoto, updateDisplayName } from '../api';
import { squarePicture } from '../square-picture';
import { useAccountMutation } from '../queries';
import { EmailField } from './email-field';

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

/** Profile picture (or initials), display name and e-mail, each changed in place. */
export function ProfileCard({ me }: { me: Me }) {
  const photo = useAccountMutation((file: File) => squarePicture(file).then(setPhoto));
  const unsetPhoto = useAccountMutation(removePhoto);
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group wrap="wrap" align="flex-start" gap="xl">
        <Stack align="center" gap={6}>
          <Avatar
            src={me.photoUrl}
            name={me.displayName}
            color="initials"
            size={96}
            radius={96}
            alt="Profile picture"
          />
          <Group gap={4}>
            <FileButton
              accept="image/png,image/jpeg,image/webp"
              onChange={(file) =>
                file && photo.mutate(file, { onError: (error) => notify('error', 'Profile picture', errorText(error)) })
              }
            >
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant="light"
                  leftSection={<IconCamera size={14} />}
                  loading={photo.isPending}
                >
                  {me.photoUrl ? 'Change' : 'Add picture'}
                </Button>
              )}
            </FileButton>
            {me.photoUrl && (
              <Tooltip label="Use the default avatar">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label="Remove picture"
                  loading={unsetPhoto.isPending}
                  onClick={() => unsetPhoto.mutate(undefined)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Stack>
        <Stack gap="sm" style={{ flex: 1, minWidth: 240 }}>
          <Group gap="xs">
            {me.isAdmin && <Badge variant="light">Administrator</Badge>}
            <Text size="xs" c="dimmed">
              Member since {formatDate(me.createdAt)}
            </Text>
          </Group>
          <DisplayNameField name={me.displayName} />
          <EmailField me={me} />
        </Stack>
      </Group>
    </Card>
  );
}

function DisplayNameField({ name }: { name: string }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const save = useAccountMutation(updateDisplayName);
  if (!editing)
    return (
      <Group gap="xs" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            Display name
          </Text>
          <Text fw={700} size="lg" truncate data-testid="display-name">
            {name}
          </Text>
        </div>
        <ActionIcon
          variant="subtle"
          aria-label="Edit display name"
          onClick={() => {
            setValue(name);
            setError(null);
            setEditing(true);
          }}
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Group>
    );
  const submit = () => {
    const parsed = updateProfileBody.safeParse({ displayName: value });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please enter your name.');
    save.mutate(parsed.data.displayName, {
      onSuccess: () => {
        setEditing(false);
        notify('success', 'Profile', 'Your display name was saved.');
      },
      onError: (failure) => setError(errorText(failure)),
    });
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Group align="flex-start" gap="xs">
        <TextInput
          label="Display name"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={error}
          autoFocus
          style={{ flex: 1, minWidth: 200 }}
        />
        <Group gap="xs" mt={25}>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          <Button variant="default" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </Group>
      </Group>
    </form>
  );
}
