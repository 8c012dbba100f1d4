import { Badge, Box, Button, Center, Container, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Logo } from '../components/logo';
import { TransferBrowser } from '../features/transfers/components/transfer-browser';
import { TransferFileDialog } from '../features/transfers/components/transfer-file-dialog';
import { TransferPasswordPrompt } from '../features/transfers/components/transfer-password-prompt';
import { TransferUnavailable } from '../features/transfers/components/transfer-unavailable';
import { useTransferAccess } from '../features/transfers/hooks/use-transfer-access';
import { useTransferZip } from '../features/transfers/hooks/use-transfer-zip';
import { useAuth } from '../lib/auth/auth-context';
import { formatBytes, formatDate } from '../lib/format/format';

/**
 * /public/share?transferId=…: what a recipient opens (a recipient's e-mail carries a token of their
 * own, so what they download counts as theirs). The password first when there is
 * one; then the title, expiry, sender and message, Download all, and the folders and files to
 * browse, hear and download one by one.
 */
export function TransferSharePage({ token }: { token: string }) {
  const { user } = useAuth();
  const access = useTransferAccess(token);
  const zip = useTransferZip();
  const [folderId, setFolderId] = useState<string | null>(null);
  const [fileId, setFileId] = useState<string | null>(null);
  const { state, content, grant } = access;
  const home = user ? '/groups' : '/public/landing';

  return (
    <Box mih="100vh">
      <Container size="lg" py="md">
        <Group justify="space-between" wrap="nowrap">
          <Logo to={home} />
          {state.kind === 'open' && (
            <Badge variant="light" size="lg">
              Transfer
            </Badge>
          )}
        </Group>
      </Container>
      <Container size="lg" pb="xl">
        {state.kind === 'gone' ? (
          <TransferUnavailable home={home} />
        ) : state.kind === 'password' ? (
          <TransferPasswordPrompt error={state.error} checking={state.checking} onSubmit={access.submitPassword} />
        ) : state.kind === 'loading' || !content ? (
          <Center mih="50vh">
            <Loader color="violet" />
          </Center>
        ) : (
          <Stack gap="lg">
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
              <Stack gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
                <Title order={2} style={{ overflowWrap: 'anywhere' }}>
                  {content.title}
                </Title>
                <Text size="sm" c="dimmed">
                  From {content.sender} · {content.fileCount} {content.fileCount === 1 ? 'file' : 'files'} ·{' '}
                  {formatBytes(content.size)} · expires on {formatDate(content.expiresAt)}
                </Text>
                {content.message && (
                  <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {content.message}
                  </Text>
                )}
              </Stack>
              <Button
                leftSection={<IconDownload size={16} />}
                loading={zip.busy}
                disabled={zip.busy || !grant}
                onClick={() => void zip.run(token, async () => grant ?? '', content.size, content.title)}
              >
                Download all
              </Button>
            </Group>
            {zip.percent !== null && zip.percent >= 0 && (
              <Progress value={zip.percent} animated aria-label="Download progress" />
            )}
            <TransferBrowser
              content={content}
              folderId={folderId ?? content.rootFolderId}
              onFolder={setFolderId}
              onFile={(picked) => setFileId(picked.id)}
            />
          </Stack>
        )}
      </Container>
      <TransferFileDialog file={content?.files.find((f) => f.id === fileId) ?? null} onClose={() => setFileId(null)} />
    </Box>
  );
}
