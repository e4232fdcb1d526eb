import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../../../components/spinner';
import { useAuth } from '../auth-context';

/** Where the guard sends a visitor, and what it remembers so sign-in can return there. */
export interface GuardState {
  from?: string;
}

/** The authentication guard (docs/PRODUCT.md#routes): a spinner while auth loads, /login when signed out. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner label="Checking your sign-in" />;
  if (status === 'unauthenticated') {
    const state: GuardState = { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return children ?? <Outlet />;
}

/** For /, /login and /register: a signed-in user goes straight to the dashboard. */
export function RedirectIfAuthenticated({
  children,
  to = '/dashboard',
}: {
  children: ReactNode;
  to?: string;
}) {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageSpinner label="Checking your sign-in" />;
  if (status === 'authenticated') return <Navigate to={to} replace />;
  return children;
}
