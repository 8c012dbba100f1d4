import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBroadcast,
  IconCheck,
  IconGitBranch,
  IconMessageCircle,
  IconSend,
  IconServer,
  IconShare,
  IconWand,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { takeFarewell } from '../lib/auth/farewell-notice';
import { PLANS, type PlanSku } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { useAuth } from '../lib/auth/auth-context';

const FEATURES = [
  {
    icon: IconGitBranch,
    title: 'Every mix, versioned',
    text: 'Projects keep numbered versions in nested folders. Drop a folder of bounces and find them as projects with waveforms.',
  },
  {
    icon: IconMessageCircle,
    title: 'Review on the waveform',
    text: 'Timestamp and range comments to the hundredth of a second, replies, notes per version and a loudness check against every platform.',
  },
  {
    icon: IconShare,
    title: 'Share with control',
    text: 'Invite editors and viewers, approve who joins, or send a public link that plays and downloads without an account.',
  },
  {
    icon: IconSend,
    title: 'Transfers that expire',
    text: 'Send gigabytes with a link, an e-mail, a password and an expiry date. See who downloaded.',
  },
  // Not built yet: the page says so rather than promising what a visitor cannot try.
  {
    icon: IconBroadcast,
    title: 'Stream your DAW live',
    text: 'Studio-quality stereo Opus from your session to listeners and co-hosts, with talkback.',
    coming: true,
  },
  {
    icon: IconWand,
    title: 'AI tools',
    text: 'Split a mix into stems or convert a voice, as background tasks you can follow.',
    coming: true,
  },
];

const PRICED: PlanSku[] = ['FREE', 'ESSENTIAL', 'STUDIO', 'LIVE_PREMIUM'];

/** The public landing page: what Mixroom does, for whom, and what it costs. */
export function LandingPage({ embedded = false }: { embedded?: boolean }) {
  const { user, signIn } = useAuth();
  // Read once per visit: after an account deletion, the page says the account is gone.
  const [farewell] = useState(takeFarewell);
  const start = () => void signIn({ screen: 'signup' });
  return (
    <Box>
      {farewell && (
        <Container size="lg" pt="md">
          <Alert color="teal" variant="light" icon={<IconCheck size={18} />} title="Account deleted" role="status">
            {farewell}
          </Alert>
        </Container>
      )}
      {!embedded && (
        <Container size="lg" py="md">
          <Group justify="space-between">
            <Logo to="/public/landing" />
            <Group gap="xs">
              <Button variant="subtle" component="a" href="#pricing" visibleFrom="sm">
                Pricing
              </Button>
              {user ? (
                <Button component={Link} to="/groups">
                  Open Mixroom
                </Button>
              ) : (
                <>
                  <Button variant="default" onClick={() => void signIn({ screen: 'signin' })}>
                    Sign in
                  </Button>
                  <Button onClick={start}>Get started</Button>
                </>
              )}
            </Group>
          </Group>
        </Container>
      )}

      <Container size="lg" py={embedded ? 'md' : 80}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
          <Stack gap="lg">
            <Badge variant="light" size="lg" w="fit-content">
              Self-hosted · Open source
            </Badge>
            <Title order={1} fz={{ base: 36, md: 52 }} lh={1.1}>
              Your mixes, <span className="mixroom-gradient-text">versioned, reviewed and shared</span> in one room.
            </Title>
            <Text size="lg" c="dimmed">
              Mixroom is where engineers, producers and artists keep every version of a track, comment on the waveform
              to the hundredth of a second, share it with the people they work with and send it as an expiring transfer,
              on a server you own. Live streaming and AI tools are coming.
            </Text>
            {!user && (
              <Group>
                <Button size="lg" onClick={start}>
                  Create your free account
                </Button>
                <Button size="lg" variant="default" onClick={() => void signIn({ screen: 'signin' })}>
                  Sign in
                </Button>
              </Group>
            )}
          </Stack>
          <WaveformArt />
        </SimpleGrid>
      </Container>

      <Container size="lg" py={40}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          {FEATURES.map((feature) => (
            <Card key={feature.title} withBorder radius="lg" padding="lg" data-testid="feature">
              <Group justify="space-between" align="flex-start" mb="md">
                <ThemeIcon variant="light" size={44} radius="md" color={'coming' in feature ? 'gray' : undefined}>
                  <feature.icon size={24} />
                </ThemeIcon>
                {'coming' in feature && (
                  <Badge variant="light" color="gray">
                    Coming
                  </Badge>
                )}
              </Group>
              <Text fw={700} mb={6}>
                {feature.title}
              </Text>
              <Text size="sm" c="dimmed">
                {feature.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Container size="lg" py={40}>
        <Card withBorder radius="lg" padding="xl">
          <Group wrap="nowrap" align="flex-start">
            <ThemeIcon size={44} radius="md" variant="light">
              <IconServer size={24} />
            </ThemeIcon>
            <div>
              <Text fw={700}>Runs anywhere, scales when you need it</Text>
              <Text size="sm" c="dimmed">
                One command starts Mixroom on a laptop with an embedded database and disk storage. The same code runs on
                PostgreSQL, S3-compatible storage and several nodes for a whole studio network.
              </Text>
            </div>
          </Group>
        </Card>
      </Container>

      <Container size="lg" py={60} id="pricing">
        <Title order={2} ta="center" mb="xs">
          Plans
        </Title>
        <Text ta="center" c="dimmed" mb="xl">
          Annual subscriptions save 30 %. On your own server, an administrator assigns plans.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {PRICED.map((sku) => {
            const plan = PLANS[sku];
            return (
              <Card key={sku} withBorder radius="lg" padding="lg">
                <Text fw={700} size="lg">
                  {plan.name}
                </Text>
                <Text fz={28} fw={800} my="xs">
                  {plan.priceCents === 0 ? '0 €' : `${(plan.priceCents / 100).toFixed(2)} €`}
                  <Text span size="sm" c="dimmed" fw={400}>
                    {' '}
                    / month
                  </Text>
                </Text>
                <Text size="sm" c="dimmed" mb="md">
                  {plan.description}
                </Text>
                <List spacing={6} size="sm" icon={<IconCheck size={16} color="var(--mantine-color-teal-5)" />}>
                  {plan.features.map((feature) =>
                    // A feature written '$Name' is a heading over the features after it, not a feature.
                    feature.startsWith('$') ? (
                      <List.Item key={feature} icon={<span />} mt="xs">
                        <Text size="xs" fw={700} tt="uppercase" c="violet.3">
                          {feature.slice(1)}
                        </Text>
                      </List.Item>
                    ) : (
                      <List.Item key={feature}>{feature}</List.Item>
                    ),
                  )}
                </List>
              </Card>
            );
          })}
        </SimpleGrid>
      </Container>
      {!embedded && (
        <Container size="lg" py="xl">
          <Text size="xs" c="dimmed" ta="center">
            Mixroom · self-hosted audio collaboration
          </Text>
        </Container>
      )}
    </Box>
  );
}

/** A decorative waveform with comment markers: the product at a glance, drawn without images. */
function WaveformArt() {
  const bars = Array.from({ length: 64 }, (_, i) => 0.25 + 0.75 * Math.abs(Math.sin(i * 0.37) * Math.cos(i * 0.11)));
  return (
    <Card withBorder radius="lg" padding="lg" aria-hidden>
      <Group justify="space-between" mb="sm">
        <Text size="sm" fw={600}>
          Final Mix — v7
        </Text>
        <Badge variant="light" color="teal">
          −14.02 LUFS
        </Badge>
      </Group>
      <svg viewBox="0 0 640 160" width="100%" role="img">
        <defs>
          <linearGradient id="wave" x1="0" x2="1">
            <stop offset="0" stopColor="#9775fa" />
            <stop offset="1" stopColor="#e64980" />
          </linearGradient>
        </defs>
        {bars.map((h, i) => (
          <rect
            key={i}
            x={i * 10 + 2}
            y={80 - h * 70}
            width={6}
            height={h * 140}
            rx={3}
            fill="url(#wave)"
            opacity={i < 26 ? 1 : 0.45}
          />
        ))}
        <rect x={262} y={0} width={2} height={160} fill="#fff" />
        <circle cx={140} cy={12} r={9} fill="#fcc419" />
        <circle cx={420} cy={12} r={9} fill="#38d9a9" />
      </svg>
      <Stack gap={6} mt="sm">
        <Text size="xs" c="dimmed">
          0:42.18 · Ana — “Vocals a touch louder here”
        </Text>
        <Text size="xs" c="dimmed">
          2:05.60 → 2:15.60 · Leo — “Love this transition”
        </Text>
      </Stack>
    </Card>
  );
}
