import { useEffect, useRef, useState } from 'react';
import { useFinishOAuthLink } from '../queries';

type OAuthReturn =
  | { status: 'none' | 'pending' | 'done'; dismiss: () => void }
  | { status: 'error'; message: string; dismiss: () => void };

/**
 * Back in Settings from Dropbox or Google: the address carries the state and the code (or the
 * provider's error). They are handed to the server once, then removed from the address so a reload
 * or a shared link does not replay them (the server refuses a used state anyway).
 */
export function useOAuthReturn(): OAuthReturn {
  const finish = useFinishOAuthLink();
  const sent = useRef(false);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (sent.current) return;
    const params = new URLSearchParams(window.location.search);
    const state = params.get('state');
    if (!state) return;
    sent.current = true;
    const code = params.get('code');
    const error = params.get('error');
    window.history.replaceState(window.history.state, '', window.location.pathname);
    finish.mutate({ state, ...(code ? { code } : {}), ...(error ? { error: error.slice(0, 200) } : {}) });
  }, [finish]);
  const dismiss = () => setDismissed(true);
  if (finish.isPending) return { status: 'pending', dismiss };
  if (finish.isError && !dismissed) return { status: 'error', message: finish.error.message, dismiss };
  return { status: finish.isSuccess ? 'done' : 'none', dismiss };
}
