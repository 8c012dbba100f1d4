import {
  Alert,
  Anchor,
  Button,
  Center,
  Loader,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { interactionDetails, signInBody, signUpBody, type InteractionDetails } from '@mixroom/contracts';
import { checkPasswordStrength, MESSAGES } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { api, ApiError } from '../lib/api-client';

type Screen = 'signin' | 'signup' | 'forgot';

/** The embedded provider's sign-in screen, in Mixroom's look (the provider sends the browser here). */
export function InteractionPage() {
  const { uid = '' } = useParams();
  const details = useQuery({
    queryKey: ['interaction', uid],
    queryFn: async () => {
      const response = await fetch(`/oidc/interaction/${uid}/details`);
      if (!response.ok) throw new Error('expired');
      return interactionDetails.parse(await response.json());
    },
    retry: false,
    meta: { silent: true },
  });

  return (
    <Center
      mih="100vh"
      p="md"
      style={{ background: 'radial-gradient(circle at 70% 10%, rgba(190,75,219,.16), transparent 55%)' }}
    >
      <Paper withBorder radius="lg" p="xl" w="100%" maw={440} shadow="xl">
        <Stack gap="lg">
          <Logo to="/public/landing" />
          {details.isPending && <Loader color="violet" mx="auto" />}
          {details.isError && (
            <Stack>
              <Text>This sign-in page has expired. Please start again.</Text>
              <Button component={Link} to="/public/sign-in">
                Start again
              </Button>
            </Stack>
          )}
          {details.data && <SignInForms details={details.data} />}
        </Stack>
      </Paper>
    </Center>
  );
}

function SignInForms({ details }: { details: InteractionDetails }) {
  const [screen, setScreen] = useState<Screen>(details.screen);
  const [values, setValues] = useState({ displayName: '', email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setNotice(null);
    const schema =
      screen === 'signup' ? signUpBody : screen === 'signin' ? signInBody : signInBody.pick({ email: true });
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    // The server's rule for new passwords, said before the form leaves (it checks again).
    const strength = screen === 'signup' ? checkPasswordStrength(values.password, values) : null;
    if (strength && !strength.ok) {
      setErrors({ password: strength.message ?? '' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (screen === 'forgot') {
        await api('/api/auth/password-reset', { method: 'POST', body: { email: values.email } });
        setNotice(MESSAGES.passwordResetSent);
        setScreen('signin');
        return;
      }
      const answer = await api<{ redirectTo: string } | { message: string }>(
        `/oidc/interaction/${details.uid}/${screen === 'signup' ? 'signup' : 'login'}`,
        {
          method: 'POST',
          body: parsed.data,
        },
      );
      // An address that already has an account is told to check its mail, never that it is taken.
      if ('message' in answer) {
        setNotice(answer.message);
        setScreen('signin');
        return;
      }
      window.location.assign(answer.redirectTo);
    } catch (error) {
      setFailure(error instanceof ApiError || error instanceof Error ? error.message : MESSAGES.genericError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <div>
          <Title order={2}>
            {screen === 'signup' ? 'Create your account' : screen === 'forgot' ? 'Reset your password' : 'Sign in'}
          </Title>
          <Text c="dimmed" size="sm">
            {screen === 'forgot'
              ? 'We will e-mail you a link to choose a new password.'
              : `to continue to ${details.clientName}`}
          </Text>
        </div>
        {screen !== 'forgot' && (
          <SegmentedControl
            fullWidth
            value={screen}
            onChange={(value) => setScreen(value as Screen)}
            data={[
              { label: 'Sign in', value: 'signin' },
              { label: 'Create account', value: 'signup' },
            ]}
          />
        )}
        {notice && <Alert color="teal">{notice}</Alert>}
        {failure && <Alert color="red">{failure}</Alert>}
        {screen === 'signup' && (
          <TextInput
            label="Name"
            autoComplete="name"
            value={values.displayName}
            onChange={set('displayName')}
            error={errors.displayName}
            required
          />
        )}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          required
        />
        {screen !== 'forgot' && (
          <PasswordInput
            label="Password"
            autoComplete={screen === 'signup' ? 'new-password' : 'current-password'}
            value={values.password}
            onChange={set('password')}
            error={errors.password}
            required
          />
        )}
        <Button type="submit" loading={busy} size="md">
          {screen === 'signup' ? 'Create account' : screen === 'forgot' ? 'Send reset link' : 'Sign in'}
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setScreen(screen === 'forgot' ? 'signin' : 'forgot')}
        >
          {screen === 'forgot' ? 'Back to sign in' : 'Forgot your password?'}
        </Anchor>
      </Stack>
    </form>
  );
}
