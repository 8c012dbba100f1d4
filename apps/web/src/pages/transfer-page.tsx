import { Box, Container, Group, Button } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { PLANS, TRANSFER_DURATION_DAYS } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { useFileDrop } from '../features/storage/hooks/use-file-drop';
import { useLinkedAccounts } from '../features/transfers/hooks/use-linked-accounts';
import { transferLinkedBrowser } from './transfer-linked-browser';
import { askToViewPricing, pricingPath } from '../features/transfers/components/pricing-prompt';
import { TransferForm, UpgradeHint } from '../features/transfers/components/transfer-form';
import { TransferSentDialog } from '../features/transfers/components/transfer-sent-dialog';
import { useSendTransfer } from '../features/transfers/hooks/use-send-transfer';
import { useTransferSelection } from '../features/transfers/hooks/use-transfer-selection';
import { hasDataPlan } from '../features/transfers/plan-allowance';
import {
  saveTransferDraft,
  takeTransferDraft,
  type TransferDraftFields,
} from '../features/transfers/transfer-draft-store';
import { firstTransferProblem } from '../features/transfers/transfer-rules';
import { useMe } from '../features/users/queries';
import { useAuth } from '../lib/auth/auth-context';
import { notify } from '../lib/notify';

const firstDuration = TRANSFER_DURATION_DAYS[0];
const emptyFields = (): TransferDraftFields => ({
  name: '',
  message: '',
  mode: 'link',
  recipients: [],
  durationDays: firstDuration,
});

/**
 * /transfer (signed in) and /public/transfer (visitors): pick or drop files and folders, say how
 * long the link lives and who gets it, and send. A visitor is signed in first; the form and its
 * files come back after the sign-in.
 */
export function TransferPage({ visitor = false }: { visitor?: boolean }) {
  const { user, signIn } = useAuth();
  const me = useMe().data ?? null;
  const navigate = useNavigate();
  const limits = me?.limits ?? (visitor ? PLANS.FREE.limits : null);
  const selection = useTransferSelection(limits?.transferMaxBytes ?? PLANS.FREE.limits.transferMaxBytes);
  const [fields, setFields] = useState<TransferDraftFields>(emptyFields);
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState<{ url: string; recipients: string[]; password: string | null } | null>(null);
  const offerPricing = useCallback(
    (message: string) => askToViewPricing(message, Boolean(user), (path) => void navigate(path)),
    [user, navigate],
  );
  const send = useSendTransfer(offerPricing);
  const signedIn = Boolean(user);
  const linkedAccounts = useLinkedAccounts(signedIn && !visitor);

  const onFiles = useCallback(
    (files: Parameters<typeof selection.add>[0]) => selection.add(files, 'drop'),
    [selection],
  );
  const dragging = useFileDrop(send.progress === null, onFiles);

  // Back from the sign-in: the form as the visitor left it.
  useEffect(() => {
    if (visitor) return;
    let live = true;
    void takeTransferDraft().then((draft) => {
      if (!live || !draft) return;
      setFields(draft.fields);
      selection.reset(draft.files, draft.missing);
      notify(
        'info',
        'Transfer',
        draft.missing.length
          ? 'Your transfer is back. Choose its files again (they are listed), then press Transfer.'
          : 'Your transfer is back: press Transfer to send it.',
        { sticky: draft.missing.length > 0 },
      );
    });
    return () => {
      live = false;
    };
    // Once, when the screen opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (visitor && signedIn) return <Navigate to="/transfer" replace />;

  const submit = async () => {
    const allowance = me
      ? {
          transfersPerMonth: me.limits.transfersPerMonth,
          transfersThisMonth: me.entitlements.transfersThisMonth,
          transferDurationDays: me.limits.transferDurationDays,
        }
      : null;
    const problem = firstTransferProblem(
      { ...fields, fileCount: selection.files.length + selection.linked.length },
      allowance,
    );
    if (problem) {
      if (problem.offerPricing) offerPricing(problem.message);
      else notify('warning', 'Warning', problem.message);
      return;
    }
    if (!signedIn) {
      await saveTransferDraft(fields, selection.files).catch(() => undefined);
      await signIn({ returnTo: '/transfer' });
      return;
    }
    const sent = await send.run({ fields, password, files: selection.files, linked: selection.linked });
    if (!sent) return;
    // The dialog says it was sent; a toast would say it twice.
    setSent({
      url: sent.link,
      recipients: fields.mode === 'email' ? fields.recipients : [],
      password: sent.hasPassword ? password : null,
    });
  };

  const closeSent = () => {
    setSent(null);
    setFields(emptyFields());
    setPassword('');
    selection.reset();
    void navigate('/transfer/history');
  };

  const form = (
    <TransferForm
      fields={fields}
      onFields={(patch) => setFields((current) => ({ ...current, ...patch }))}
      password={password}
      onPassword={setPassword}
      files={selection.files}
      missing={selection.missing}
      onPick={selection.add}
      onRemove={selection.remove}
      linked={selection.linked}
      onAddLinked={selection.addLinked}
      onRemoveLinked={selection.removeLinked}
      connectors={linkedAccounts}
      linkedBrowser={transferLinkedBrowser}
      enabledDurations={limits?.transferDurationDays ?? null}
      passwordAllowed={me ? me.limits.transferPassword : null}
      upgradeHint={me && hasDataPlan(me) ? null : <UpgradeHint onClick={() => void navigate(pricingPath(signedIn))} />}
      dragging={dragging}
      progress={send.progress}
      onSubmit={() => void submit()}
    />
  );

  return (
    <>
      {visitor ? (
        <Box mih="100vh">
          <Container size="lg" py="md">
            <Group justify="space-between">
              <Logo to="/public/landing" />
              <Button variant="subtle" onClick={() => void signIn({ returnTo: '/transfer' })}>
                Sign in
              </Button>
            </Group>
          </Container>
          <Container size="lg" pb="xl">
            {form}
          </Container>
        </Box>
      ) : (
        form
      )}
      <TransferSentDialog sent={sent} onClose={closeSent} />
    </>
  );
}
