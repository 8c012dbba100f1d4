import { Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import type { Version } from '@mixroom/contracts';
import { appliedGain, LOUDNESS_TARGETS, normalisationGain } from '@mixroom/shared';

const dB = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(2)} dB`;

/** Integrated loudness and true peak from the processing job, against each platform's target. */
export function LoudnessDialog({ version, opened, onClose }: { version: Version; opened: boolean; onClose: () => void }) {
  const loudness = version.loudness;
  return (
    <Modal opened={opened} onClose={onClose} title="Loudness levels" centered size="lg">
      {!loudness ? (
        version.status === 'corrupt' || (version.status === 'ready' && version.progress >= 100) ? (
          <Text c="dimmed">The loudness of this version could not be measured.</Text>
        ) : (
          <Group gap="sm">
            <Loader size="sm" color="violet" />
            <Text c="dimmed">Measuring loudness and true peak… The figures appear here as soon as they are ready.</Text>
          </Group>
        )
      ) : (
        <Stack>
          <Group grow>
            <Stack gap={0} align="center">
              <Text size="xs" c="dimmed">
                Integrated loudness
              </Text>
              <Text fw={700} size="xl" ff="monospace" data-testid="integrated-loudness">
                {loudness.integrated.toFixed(2)} LUFS
              </Text>
            </Stack>
            <Stack gap={0} align="center">
              <Text size="xs" c="dimmed">
                True peak
              </Text>
              <Text fw={700} size="xl" ff="monospace" c={loudness.truePeak > -1 ? 'orange' : undefined} data-testid="true-peak">
                {loudness.truePeak.toFixed(2)} dBTP
              </Text>
            </Stack>
            {loudness.range !== null && (
              <Stack gap={0} align="center">
                <Text size="xs" c="dimmed">
                  Loudness range
                </Text>
                <Text fw={700} size="xl" ff="monospace">
                  {loudness.range.toFixed(2)} LU
                </Text>
              </Stack>
            )}
          </Group>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Platform</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>Difference</Table.Th>
                <Table.Th>What listeners hear</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {LOUDNESS_TARGETS.map((target) => {
                const gain = normalisationGain(loudness.integrated, target.lufs);
                const applied = appliedGain(target.platform, loudness.integrated, loudness.truePeak, target.lufs);
                return (
                  <Table.Tr key={target.platform} data-testid="loudness-row">
                    <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {target.platform}
                    </Table.Td>
                    <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                      {target.lufs} LUFS
                    </Table.Td>
                    <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                      {dB(gain)}
                    </Table.Td>
                    <Table.Td>
                      {applied < 0 ? (
                        <Text size="sm" c="orange" fw={600}>
                          Turned down {Math.abs(applied).toFixed(2)} dB
                        </Text>
                      ) : applied > 0 ? (
                        <Text size="sm" c="teal" fw={600}>
                          Turned up {applied.toFixed(2)} dB{applied < gain ? ' (peak-limited)' : ''}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {gain > 0 ? `As is, ${gain.toFixed(2)} dB below target` : 'As is'}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            Measured with EBU R128 (ITU-R BS.1770) over the whole file. Platforms that raise quiet tracks stop at −1 dBTP; the others leave them as they are.
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
