import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { publicTransfersApi } from '../api';
import { isTransferGone, usePublicTransferContent, usePublicTransferHead } from '../queries';

export type TransferAccessState =
  | { kind: 'loading' }
  | { kind: 'gone' }
  | { kind: 'password'; error: string | null; checking: boolean }
  | { kind: 'open' };

/** What the prompt says under the field: the server's own text, except for a plain wrong guess. */
function passwordErrorOf(error: unknown): string {
  if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') return 'That password is not right. Try again.';
  return error instanceof ApiError ? error.message : String(error);
}

/** Grants are short-lived: a fresh one is asked for this long before the old one ends. */
const RENEW_BEFORE_MS = 60_000;

/**
 * A recipient's way into a transfer link: its head says whether a password is needed; the access
 * call (with the password) hands out a grant, renewed before it ends, with which the content and
 * every file URL work.
 */
export function useTransferAccess(token: string) {
  const head = usePublicTransferHead(token);
  const [grant, setGrant] = useState<{ grant: string; expiresAt: string } | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [gone, setGone] = useState(false);
  const password = useRef<string | undefined>(undefined);
  const content = usePublicTransferContent(token, grant?.grant ?? null);

  const request = useCallback(
    (typed?: string) =>
      publicTransfersApi.access(token, typed !== undefined ? { password: typed } : {}).then(
        (next) => {
          password.current = typed;
          setPasswordError(null);
          setGrant(next);
        },
        (error: unknown) => {
          if (isTransferGone(error)) setGone(true);
          else setPasswordError(passwordErrorOf(error));
        },
      ),
    [token],
  );

  /** The recipient typed a password. */
  const submitPassword = useCallback(
    (typed: string) => {
      setChecking(true);
      void request(typed).finally(() => setChecking(false));
    },
    [request],
  );

  const needsPassword = head.data?.passwordRequired ?? false;
  useEffect(() => {
    if (head.data && !head.data.passwordRequired && !grant) void request();
  }, [head.data, grant, request]);

  // Renewed before it ends, with the password already given.
  useEffect(() => {
    if (!grant) return;
    const wait = Math.max(5_000, new Date(grant.expiresAt).getTime() - Date.now() - RENEW_BEFORE_MS);
    const timer = setTimeout(() => void request(password.current), wait);
    return () => clearTimeout(timer);
  }, [grant, request]);

  let state: TransferAccessState = { kind: 'loading' };
  if (gone || (head.isError && isTransferGone(head.error)) || (content.isError && isTransferGone(content.error)))
    state = { kind: 'gone' };
  else if (needsPassword && !grant) state = { kind: 'password', error: passwordError, checking };
  else if (content.data) state = { kind: 'open' };
  else if (head.isError || content.isError) state = { kind: 'gone' };

  return { state, head: head.data, content: content.data, grant: grant?.grant ?? null, submitPassword };
}
