import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { ConnectorKind, LinkConnectorBody } from '@mixroom/contracts';
import { CONNECTOR_LABELS, useLinkConnector } from '../queries';

const EMPTY = {
  url: '',
  username: '',
  password: '',
  endpoint: '',
  bucket: '',
  region: 'us-east-1',
  accessKeyId: '',
  secretAccessKey: '',
};

/**
 * Link one account: the server checks the credentials with the provider before keeping them
 * (encrypted), so a wrong password or a refused address is said here, in the provider's words.
 */
export function LinkConnectorDialog({
  kind,
  onClose,
}: {
  kind: Exclude<ConnectorKind, 'dropbox' | 'gdrive'> | null;
  onClose: () => void;
}) {
  const [values, setValues] = useState(EMPTY);
  const link = useLinkConnector();
  // The value is read now: React clears an event's currentTarget before a state updater runs.
  const set = (key: keyof typeof EMPTY) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };
  const close = () => {
    setValues(EMPTY);
    link.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!kind) return;
    const body: LinkConnectorBody =
      kind === 'webdav'
        ? { kind, url: values.url.trim(), username: values.username.trim(), password: values.password }
        : {
            kind,
            endpoint: values.endpoint.trim(),
            bucket: values.bucket.trim(),
            region: values.region.trim() || 'us-east-1',
            accessKeyId: values.accessKeyId.trim(),
            secretAccessKey: values.secretAccessKey,
          };
    link.mutate(body, { onSuccess: close });
  };
  return (
    <Modal opened={kind !== null} onClose={close} title={kind ? `Link ${CONNECTOR_LABELS[kind]}` : ''} centered>
      <form onSubmit={submit}>
        <Stack>
          {kind === 'webdav' && (
            <>
              <TextInput
                label="WebDAV address"
                description="On Nextcloud: Files → Settings → WebDAV (…/remote.php/dav/files/your-name/)."
                placeholder="https://cloud.example.com/remote.php/dav/files/you/"
                required
                value={values.url}
                onChange={set('url')}
                data-autofocus
              />
              <TextInput
                label="User name"
                required
                value={values.username}
                onChange={set('username')}
                autoComplete="off"
              />
              <PasswordInput
                label="App password"
                description="Create one for Mixroom in your account's security settings; you can revoke it there."
                required
                value={values.password}
                onChange={set('password')}
                autoComplete="new-password"
              />
            </>
          )}
          {kind === 's3' && (
            <>
              <TextInput
                label="Endpoint"
                placeholder="https://s3.eu-central-1.amazonaws.com"
                required
                value={values.endpoint}
                onChange={set('endpoint')}
                data-autofocus
              />
              <Group grow align="flex-start">
                <TextInput label="Bucket" required value={values.bucket} onChange={set('bucket')} />
                <TextInput label="Region" value={values.region} onChange={set('region')} />
              </Group>
              <TextInput
                label="Access key"
                required
                value={values.accessKeyId}
                onChange={set('accessKeyId')}
                autoComplete="off"
              />
              <PasswordInput
                label="Secret key"
                required
                value={values.secretAccessKey}
                onChange={set('secretAccessKey')}
                autoComplete="new-password"
              />
            </>
          )}
          <Text size="xs" c="dimmed">
            Mixroom keeps these credentials encrypted on the server and never shows them again.
          </Text>
          {link.error && (
            <Alert color="red" title="Not linked">
              {link.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={link.isPending}>
              Link
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
