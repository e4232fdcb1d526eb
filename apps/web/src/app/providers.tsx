import type { ReactNode } from 'react';
import { useAuth } from '../features/auth';
import { RealtimeProvider } from '../features/realtime';
import { SessionsProvider } from '../features/sessions';

/**
 * What exists for a signed-in user: their realtime socket and their sessions. Features do not import
 * each other, so the auth state reaches them here as plain props.
 */
export function UserScopedProviders({ children }: { children: ReactNode }) {
  const { user, token, isAuthenticated } = useAuth();
  const userId = isAuthenticated && user ? user.id : null;
  return (
    <RealtimeProvider userId={userId} token={isAuthenticated ? token : null}>
      <SessionsProvider userId={userId}>{children}</SessionsProvider>
    </RealtimeProvider>
  );
}
