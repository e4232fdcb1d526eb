import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../../../components/spinner';
import { useAuth } from '../auth-context';

/** Where the guard sends a visitor, and what it remembers so sign-in can return there. */
export interface GuardState {
  from?: string;
}

/** Only in-app paths, never back to the sign-in pages themselves. */
export function safeReturnPath(from: string | undefined): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from === '/') return '/dashboard';
  if (from.startsWith('/login') || from.startsWith('/register')) return '/dashboard';
  return from;
}

/** The authentication guard (docs/PRODUCT.md#routes): a spinner while auth loads, /login when signed out. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status, loggedOut } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner label="Checking your sign-in" />;
  if (status === 'unauthenticated') {
    // After the user's own Logout there is no page to come back to: the next sign-in starts afresh.
    if (loggedOut) return <Navigate to="/login" replace />;
    const state: GuardState = { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return children ?? <Outlet />;
}

/**
 * For /, /login and /register: a signed-in user goes straight to the dashboard, or to the page the
 * sign-in was for (the guard's `from`, an invitation link's): signing in re-renders this page before
 * the login page's own navigation lands, and both must agree on where to go.
 */
export function RedirectIfAuthenticated({
  children,
  to = '/dashboard',
}: {
  children: ReactNode;
  to?: string;
}) {
  const { status } = useAuth();
  const from = ((useLocation().state ?? {}) as GuardState).from;
  if (status === 'loading') return <FullPageSpinner label="Checking your sign-in" />;
  if (status === 'authenticated') return <Navigate to={from ? safeReturnPath(from) : to} replace />;
  return children;
}
