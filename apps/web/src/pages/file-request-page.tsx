import {
  Box,
  Button,
  Center,
  Container,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatTransferSize, isRecipientEmail, MESSAGES, TRANSFER_MESSAGES } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { useFileDrop } from '../features/storage/hooks/use-file-drop';
import { FilePickZone } from '../features/transfers/components/file-pick-zone';
import { SelectedFilesList } from '../features/transfers/components/selected-files-list';
import { useRequestUpload, type RequestUploadForm } from '../features/transfers/hooks/use-request-upload';
import { useTransferSelection } from '../features/transfers/hooks/use-transfer-selection';
import { usePublicFileRequest } from '../features/transfers/queries';
import { TRANSFER_TEXTS } from '../features/transfers/transfer-rules';
import { useAuth } from '../lib/auth/auth-context';
import { formatBytes } from '../lib/format/format';
import { notify } from '../lib/notify';

const emptyForm = (): RequestUploadForm => ({ name: '', email: '', message: '' });

/**
 * /public/request?requestId=…: someone without an account sends files to the person who asked for
 * them. The server checks the size against the request and the owner's plan; the files land in
 * the owner's transfers and the owner is told.
 */
export function FileRequestPage() {
  const token = useSearchParams()[0].get('requestId') ?? '';
  const { user } = useAuth();
  const request = usePublicFileRequest(token);
  const home = user ? '/groups' : '/public/landing';

  return (
    <Box mih="100vh">
      <Container size="lg" py="md">
        <Logo to={home} />
      </Container>
      <Container size="lg" pb="xl">
        {request.isPending && token ? (
          <Center mih="50vh">
            <Loader color="violet" />
          </Center>
        ) : !request.data ? (
          <RequestUnavailable home={home} />
        ) : (
          <RequestForm token={token} {...request.data} />
        )}
      </Container>
    </Box>
  );
}

function RequestUnavailable({ home }: { home: string }) {
  return (
    <Paper withBorder radius="lg" p="xl" maw={460} w="100%" mx="auto" mt="10vh" role="alert">
      <Stack align="center" ta="center">
        <IconAlertTriangle size={40} stroke={1.4} color="var(--mantine-color-yellow-5)" />
        <Title order={3}>Warning</Title>
        <Text>{TRANSFER_MESSAGES.requestUnavailable}</Text>
        <Button component={Link} to={home} variant="light">
          Go to Mixroom
        </Button>
      </Stack>
    </Paper>
  );
}

function RequestForm({
  token,
  ownerName,
  message,
  maxBytes,
}: {
  token: string;
  ownerName: string;
  message: string;
  maxBytes: number;
}) {
  const selection = useTransferSelection(maxBytes);
  const upload = useRequestUpload(token);
  const [form, setForm] = useState<RequestUploadForm>(emptyForm);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const busy = upload.progress !== null;
  const onFiles = useCallback(
    (files: Parameters<typeof selection.add>[0]) => selection.add(files, 'drop'),
    [selection],
  );
  const dragging = useFileDrop(!busy && sent === null, onFiles);

  const submit = async () => {
    if (selection.files.length === 0) return notify('warning', 'Warning', TRANSFER_MESSAGES.noFiles);
    if (form.email.trim() && !isRecipientEmail(form.email.trim())) return setEmailError(TRANSFER_TEXTS.invalidEmail);
    try {
      const result = await upload.run({ ...form, email: form.email.trim() }, selection.files);
      if (result.status === 'cancelled') return notify('info', 'File request', 'The upload was cancelled.');
      setSent(result.fileCount);
      selection.reset();
      setForm(emptyForm());
    } catch (error) {
      notify('warning', 'Warning', error instanceof Error && error.message ? error.message : MESSAGES.genericError);
    }
  };

  if (sent !== null)
    return (
      <Paper withBorder radius="lg" p="xl" maw={520} w="100%" mx="auto" mt="8vh">
        <Stack align="center" ta="center">
          <IconCircleCheck size={44} stroke={1.4} color="var(--mantine-color-teal-5)" />
          <Title order={3}>Your files were sent</Title>
          <Text c="dimmed">
            {ownerName} received {sent} {sent === 1 ? 'file' : 'files'} and has been told.
          </Text>
          <Button variant="light" onClick={() => setSent(null)}>
            Send more files
          </Button>
        </Stack>
      </Paper>
    );

  const total = selection.totalBytes;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      w="100%"
      maw={640}
      mx="auto"
      style={dragging ? { outline: '2px dashed var(--mantine-color-violet-4)', outlineOffset: 4 } : undefined}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void submit();
        }}
      >
        <Stack gap="md">
          <div>
            <Title order={2} style={{ overflowWrap: 'anywhere' }}>
              {ownerName} asks you for files
            </Title>
            <Text c="dimmed" size="sm">
              {maxBytes >= Number.MAX_SAFE_INTEGER ? 'Any size' : `Up to ${formatTransferSize(maxBytes)} in all`}. No
              account needed.
            </Text>
          </div>
          {message && (
            <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} aria-label="Their message">
              {message}
            </Text>
          )}
          <FilePickZone
            onPick={selection.add}
            dragging={dragging}
            disabled={busy}
            dropText={`Drop to send to ${ownerName}`}
          />
          <SelectedFilesList files={selection.files} missing={[]} onRemove={selection.remove} disabled={busy} />
          <TextInput
            label="Your name"
            maxLength={100}
            value={form.name}
            disabled={busy}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
          <TextInput
            label="Your e-mail"
            description="Optional: lets them answer you."
            type="email"
            maxLength={254}
            value={form.email}
            error={emailError}
            disabled={busy}
            onChange={(e) => {
              setEmailError(null);
              setForm({ ...form, email: e.currentTarget.value });
            }}
          />
          <Textarea
            label="Message"
            autosize
            minRows={2}
            maxRows={6}
            maxLength={5000}
            value={form.message}
            disabled={busy}
            onChange={(e) => setForm({ ...form, message: e.currentTarget.value })}
          />
          {upload.progress !== null && (
            <Stack gap={4}>
              <Text size="sm">
                Sending {formatBytes(total)}… {upload.progress}%
              </Text>
              <Progress value={upload.progress} animated aria-label="Upload progress" />
            </Stack>
          )}
          <Button type="submit" size="md" loading={busy} fullWidth>
            Upload
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
