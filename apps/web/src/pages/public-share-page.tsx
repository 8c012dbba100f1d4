import {
  Anchor,
  Badge,
  Box,
  Breadcrumbs,
  Button,
  Card,
  Center,
  Chip,
  Container,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload, IconFolder, IconHome, IconMusic } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { PublicListing } from '@mixroom/contracts';
import { Logo } from '../components/logo';
import { storageApi } from '../features/storage/api';
import { isPreparingPreview } from '../features/review/queries';
import { sharingApi } from '../features/sharing/api';
import { usePublicListing } from '../features/sharing/queries';
import { useAuth } from '../lib/auth/auth-context';
import { formatBytes, formatDuration } from '../lib/format/format';
import { startBrowserDownload } from '../lib/download';
import { notify } from '../lib/notify';
import { MESSAGES, STORAGE_MESSAGES } from '@mixroom/shared';
import { TransferSharePage } from './transfer-share-page';

type Item = PublicListing['items'][number];

function Player({ token, item, onClose }: { token: string; item: Item | null; onClose: () => void }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState<'retrieval' | 'playback' | null>(null);
  const version = item?.latestVersion;
  const [preparing, setPreparing] = useState(false);
  useEffect(() => {
    if (!version) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // With downloads off the player gets the lossy preview, made a little after upload: ask again until it is there.
    const ask = (attempt: number) =>
      void sharingApi.publicVersionUrl(token, version.id, 'preview').then(
        ({ url }) => live && (setPreparing(false), setSrc(url)),
        (error: unknown) => {
          if (!live) return;
          if (isPreparingPreview(error) && attempt < 100) {
            setPreparing(true);
            timer = setTimeout(() => ask(attempt + 1), 3000);
            return;
          }
          setFailed('retrieval');
        },
      );
    ask(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [token, version]);
  return (
    <Modal opened={Boolean(item)} onClose={onClose} title={item?.name} centered size="lg">
      <Stack>
        {failed === 'retrieval' ? (
          <Text c="red">{STORAGE_MESSAGES.fileRetrievalFailed}</Text>
        ) : failed || !version || version.status !== 'ready' ? (
          <Text c="dimmed">Preview not available, please download.</Text>
        ) : src ? (
          <audio controls autoPlay src={src} style={{ width: '100%' }} onError={() => setFailed('playback')} />
        ) : preparing ? (
          <Text c="dimmed">Preparing the preview…</Text>
        ) : (
          <Loader color="violet" />
        )}
        {/* The original is offered only where its publisher turned downloads on. */}
        {version && item.canDownload !== false ? (
          <Button
            leftSection={<IconDownload size={16} />}
            variant="light"
            onClick={() =>
              void sharingApi.publicVersionUrl(token, version.id, 'download').then(
                ({ url }) => startBrowserDownload(url),
                () => notify('error', 'Oops', MESSAGES.downloadFailed),
              )
            }
          >
            Download {version.fileName}
          </Button>
        ) : (
          version && (
            <Text size="sm" c="dimmed">
              The owner has not enabled downloads for this project.
            </Text>
          )
        )}
      </Stack>
    </Modal>
  );
}

/** /public/share: a transfer, or a shared folder or project, for anyone with the link. */
export function PublicSharePage() {
  const [params] = useSearchParams();
  const transferId = params.get('transferId');
  if (transferId) return <TransferSharePage token={transferId} />;
  return <SharedLinkPage />;
}

/** A shared folder or project. */
function SharedLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('shared_group') ?? params.get('shared_project');
  const [folder, setFolder] = useState<string | null>(null);
  const [playing, setPlaying] = useState<Item | null>(null);
  const [zipping, setZipping] = useState(false);
  const listing = usePublicListing(token, folder);
  const { user } = useAuth();
  const navigate = useNavigate();
  const data = listing.data;

  // The owner opening their own link goes to the folder in their groups.
  useEffect(() => {
    if (!user || data?.root.type !== 'group') return;
    storageApi.list(data.root.id, { sort: 'alphabetical', owner: 'all', kind: 'all' }, 0).then(
      (own) => own.group?.tag === 'owner' && void navigate(`/groups/${data.root.id}`, { replace: true }),
      () => undefined,
    );
  }, [user, data, navigate]);

  useEffect(() => {
    if (data && !data.items.some((i) => i.kind === 'project') && data.items.length === 0)
      notify('warning', 'Warning', 'No projects found in this link');
  }, [data]);

  return (
    <Box mih="100vh">
      <Container size="lg" py="md">
        <Group justify="space-between">
          <Logo to="/public/landing" />
          {data && (
            <Badge variant="light" size="lg">
              Shared with you
            </Badge>
          )}
        </Group>
      </Container>
      <Container size="lg">
        {!token || listing.isError ? (
          <Center mih="50vh">
            <Stack align="center">
              <Title order={2}>Oooops, nothing here!</Title>
              <Text c="dimmed">This link does not exist or is no longer shared.</Text>
            </Stack>
          </Center>
        ) : !data ? (
          <Center mih="50vh">
            <Loader color="violet" />
          </Center>
        ) : (
          <Stack>
            <Group justify="space-between" wrap="wrap">
              <Title order={2}>{data.title}</Title>
              {data.canDownload && data.items.length > 0 && (
                <Button
                  leftSection={<IconDownload size={16} />}
                  loading={zipping}
                  disabled={zipping}
                  onClick={() => {
                    setZipping(true);
                    sharingApi
                      .publicZip(token, folder)
                      .then(
                        ({ url }) => startBrowserDownload(url),
                        () => notify('error', 'Oops', MESSAGES.downloadFailed),
                      )
                      .finally(() => setZipping(false));
                  }}
                >
                  Download all
                </Button>
              )}
            </Group>
            {data.root.type === 'group' && (
              <Breadcrumbs>
                {/* The first chip is the shared folder itself, named as its owner named it. */}
                <Chip checked={folder === null} onClick={() => setFolder(null)} icon={<IconHome size={14} />} size="xs">
                  {data.breadcrumb[0]?.name ?? data.root.name}
                </Chip>
                {data.breadcrumb.slice(1).map((crumb) => (
                  <Anchor key={crumb.id} onClick={() => setFolder(crumb.id)}>
                    {crumb.name}
                  </Anchor>
                ))}
              </Breadcrumbs>
            )}
            {data.items.length === 0 && <Text c="dimmed">Oooops, nothing here!</Text>}
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
              {data.items.map((item) => (
                <Card
                  key={item.id}
                  withBorder
                  radius="md"
                  padding={0}
                  style={{ cursor: 'pointer' }}
                  data-testid="public-tile"
                  onClick={() => (item.kind === 'group' ? setFolder(item.id) : setPlaying(item))}
                >
                  <Box h={110} style={{ background: 'linear-gradient(135deg, #5f3dc4 0%, #862e9c 100%)' }}>
                    {item.latestVersion?.thumbnailUrl ? (
                      <img
                        src={item.latestVersion.thumbnailUrl}
                        alt=""
                        style={{ width: '100%', height: '100%', objectFit: 'fill' }}
                      />
                    ) : (
                      <Center h="100%">
                        {item.kind === 'group' ? (
                          <IconFolder size={44} color="white" />
                        ) : (
                          <IconMusic size={40} color="white" />
                        )}
                      </Center>
                    )}
                  </Box>
                  <Group p="sm" justify="space-between" wrap="nowrap">
                    <Text fw={600} size="sm" truncate>
                      {item.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {item.latestVersion?.durationSeconds
                        ? formatDuration(item.latestVersion.durationSeconds)
                        : item.size
                          ? formatBytes(item.size)
                          : ''}
                    </Text>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          </Stack>
        )}
      </Container>
      {token && <Player token={token} item={playing} onClose={() => setPlaying(null)} />}
    </Box>
  );
}
