import { ActionIcon, Button, Center, Code, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import type { PublicTransferContent } from '@mixroom/contracts';
import { startBrowserDownload } from '../../../lib/download';
import { formatBytes } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { useTransferPeaks } from '../queries';
import { TRANSFER_TEXTS } from '../transfer-rules';
import { PeaksPlayer } from './peaks-player';

export type PublicTransferFile = PublicTransferContent['files'][number];

function Preview({ file }: { file: PublicTransferFile }) {
  const playable = file.hasPeaks && file.peaksUrl && file.playUrl;
  const peaks = useTransferPeaks(file.id, playable ? file.peaksUrl : null);
  if (!playable || peaks.isError) return <Text c="dimmed">{TRANSFER_TEXTS.noPreview}</Text>;
  if (!peaks.data)
    return (
      <Center h={96}>
        <Loader color="violet" size="sm" />
      </Center>
    );
  return <PeaksPlayer peaks={peaks.data} src={file.playUrl ?? ''} name={file.name} />;
}

/** One file of a transfer: hear it (waveform from the server's peaks), check its SHA-256, download it. */
export function TransferFileDialog({ file, onClose }: { file: PublicTransferFile | null; onClose: () => void }) {
  return (
    <Modal
      opened={Boolean(file)}
      onClose={onClose}
      title={
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {file?.fileName}
        </Text>
      }
      centered
      size="lg"
    >
      {file && (
        <Stack>
          <Preview file={file} />
          <Text size="sm" c="dimmed">
            {formatBytes(file.size)}
            {file.path ? ` · ${file.path}` : ''}
          </Text>
          <Stack gap={4}>
            <Text size="xs" fw={600} c="dimmed">
              SHA-256
            </Text>
            {file.sha256 ? (
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Code data-testid="sha256" style={{ overflowWrap: 'anywhere', flex: 1 }}>
                  {file.sha256}
                </Code>
                <Tooltip label="Copy checksum">
                  <ActionIcon
                    variant="subtle"
                    aria-label="Copy checksum"
                    onClick={() =>
                      void navigator.clipboard.writeText(file.sha256 ?? '').then(
                        () => notify('success', 'SHA-256', 'Checksum copied'),
                        () => undefined,
                      )
                    }
                  >
                    <IconCopy size={14} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ) : (
              <Text size="xs" c="dimmed">
                Being computed…
              </Text>
            )}
          </Stack>
          <Button leftSection={<IconDownload size={16} />} onClick={() => startBrowserDownload(file.downloadUrl)}>
            Download {formatBytes(file.size)}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}
