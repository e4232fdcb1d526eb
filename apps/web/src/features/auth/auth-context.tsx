import type { LoginResponse, User } from '@argus/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import {
  clearAuth,
  getToken,
  readSavedUser,
  saveAuth,
  saveUser,
  TOKEN_STORAGE_KEY,
  USER_STORAGE_KEY,
} from '../../lib/auth-storage';
import { fetchCurrentUser } from './api/current-user';
import { TOKEN_CHECK_KEY, verifyToken } from './verify-token';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

interface AuthState {
  status: AuthStatus;
  /** Signed out by the user's own Logout (not a token found invalid or expired). */
  loggedOut?: boolean;
  user: User | null;
  token: string | null;
  /** The token still has to be checked against the server (GET /api/auth/me). */
  needsVerification: boolean;
}

export interface AuthContextValue {
  status: AuthStatus;
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  /** True while a saved token without a saved user is being checked: show a spinner. */
  isLoading: boolean;
  /** Stores a successful login's token and user (docs/PRODUCT.md#sign-in). */
  signIn: (response: LoginResponse) => void;
  /** Clears the stored sign-in, says 'Logged out successfully' and goes to /login. */
  logout: () => void;
  /**
   * The user signed out with Logout: the guard then sends them to /login with no page to come back
   * to, so the next sign-in goes to the dashboard, not back to the page they left.
   */
  loggedOut: boolean;
}

const SIGNED_OUT: AuthState = {
  status: 'unauthenticated',
  user: null,
  token: null,
  needsVerification: false,
};

/**
 * docs/PRODUCT.md#sign-in: the token and user are restored from local storage at start and the user is treated as
 * signed in at once; the token is verified in the background. A corrupt saved user signs out.
 */
function restoreState(): AuthState {
  const token = getToken();
  const saved = readSavedUser();
  if (!token) {
    if (saved.kind !== 'none') clearAuth();
    return SIGNED_OUT;
  }
  if (saved.kind === 'corrupt') {
    console.warn('The saved user is unreadable; signing out.');
    clearAuth();
    return SIGNED_OUT;
  }
  if (saved.kind === 'ok') {
    return { status: 'authenticated', user: saved.user, token, needsVerification: true };
  }
  return { status: 'loading', user: null, token, needsVerification: true };
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(restoreState);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Background token check: up to 3 attempts (docs/PRODUCT.md#sign-in). Only a 401 signs the user out.
  const { token, needsVerification } = state;
  useEffect(() => {
    if (!token || !needsVerification) return;
    let cancelled = false;
    verifyToken(queryClient, fetchCurrentUser)
      .then((user) => {
        saveUser(user);
        setState((current) =>
          current.token === token
            ? { status: 'authenticated', user, token, needsVerification: false }
            : current,
        );
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError && error.status === 401) {
          clearAuth();
          setState(SIGNED_OUT);
          toast.error('Authentication failed', { id: 'authentication-failed' });
          return;
        }
        console.error('Token verification failed', error);
        toast.error('Token verification failed', { id: 'token-verification-failed' });
        setState((current) => {
          if (current.token !== token) return current;
          // Without a saved user there is nobody to keep signed in.
          if (!current.user) {
            clearAuth();
            return SIGNED_OUT;
          }
          return { ...current, needsVerification: false };
        });
      });
    return () => {
      cancelled = true;
      void queryClient.cancelQueries({ queryKey: TOKEN_CHECK_KEY });
    };
  }, [token, needsVerification, queryClient]);

  // Any other call answering 401: the API client has already removed the token.
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        setState(SIGNED_OUT);
        queryClient.clear();
        navigate('/login', { replace: true });
      }),
    [navigate, queryClient],
  );

  // Another tab signed in or out.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== TOKEN_STORAGE_KEY && event.key !== USER_STORAGE_KEY && event.key !== null) return;
      setState(restoreState());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const signIn = useCallback((response: LoginResponse) => {
    saveAuth(response.access_token, response.user);
    setState({
      status: 'authenticated',
      user: response.user,
      token: response.access_token,
      needsVerification: false,
    });
  }, []);

  const logout = useCallback(() => {
    clearAuth();
    setState({ ...SIGNED_OUT, loggedOut: true });
    queryClient.clear();
    toast.success('Logged out successfully');
    navigate('/login', { replace: true });
  }, [navigate, queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: state.status,
      user: state.user,
      token: state.token,
      isAuthenticated: state.status === 'authenticated',
      isLoading: state.status === 'loading',
      signIn,
      logout,
      loggedOut: state.loggedOut === true,
    }),
    [state.status, state.user, state.token, state.loggedOut, signIn, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
