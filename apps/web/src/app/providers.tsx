import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MESSAGES } from '@mixroom/shared';
import { ApiError } from '../lib/api-client';
import { AuthProvider } from '../lib/auth/auth-provider';
import { notify } from '../lib/notify';
import { theme } from './theme';

/**
 * The global failed-request toast: 'Oops' with the server's message (or the generic
 * one). A query or mutation that shows its error in place sets `meta: { silent: true }`.
 */
function onRequestError(error: unknown, meta: Record<string, unknown> | undefined): void {
  if (meta?.silent) return;
  if (error instanceof ApiError && error.status === 401) return;
  notify('error', MESSAGES.genericErrorTitle, error instanceof ApiError ? error.message : MESSAGES.genericError);
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onRequestError(error, query.meta) }),
  mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => onRequestError(error, mutation.meta) }),
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark">
      {/* Bottom right, stacked above the Activities panel while it shows (see global.css). */}
      <Notifications position="bottom-right" limit={5} />
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <AuthProvider>{children}</AuthProvider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
