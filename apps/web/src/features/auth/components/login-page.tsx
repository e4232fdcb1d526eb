import { Loader2, User } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { useAuth } from '../auth-context';
import { useSsoReturn } from '../hooks/use-sso-return';
import { AuthLayout, FormAlert } from './auth-layout';
import { PasswordField } from './password-field';
import { type GuardState, safeReturnPath } from './require-auth';
import { SsoSignIn } from './sso-sign-in';

interface LoginLocationState extends GuardState {
  /** Filled in by the register page so the new user only types the password. */
  username?: string;
}

export function LoginPage() {
  const location = useLocation();
  const state = (location.state ?? {}) as LoginLocationState;
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const login = useLogin();
  const [username, setUsername] = useState(state.username ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  // A single sign-on coming back: its token collected, or its refusal said (docs/SSO.md).
  const sso = useSsoReturn(safeReturnPath, setFailure);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = {
      username: username.trim() ? undefined : 'Email or username is required',
      password: password ? undefined : 'Password is required',
    };
    setErrors(next);
    if (next.username || next.password) return;
    setFailure(null);
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (response) => {
          signIn(response);
          toast.success('Login successful!');
          navigate(safeReturnPath(state.from), { replace: true });
        },
        onError: (error) => {
          const text = error instanceof ApiError && error.detail ? error.detail : 'Login failed';
          setFailure(text);
          toast.error(text);
        },
      },
    );
  };

  const busy = login.isPending || sso.busy;
  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Sign in to your Argus workspace to continue testing."
      footer={
        <>
          Don&apos;t have an account?{' '}
          {/* The page to come back to (an invitation link) goes along to registration and back. */}
          <Link
            to="/register"
            state={state.from ? { from: state.from } : undefined}
            className="font-semibold text-indigo-600 hover:text-indigo-500"
          >
            Create one here
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Sign in">
        {failure && <FormAlert>{failure}</FormAlert>}
        <TextField
          label="Email or username"
          name="username"
          autoComplete="username"
          autoFocus={!state.username}
          placeholder="you@company.com"
          icon={<User className="size-4" />}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={errors.username}
          required
        />
        <div>
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            autoFocus={Boolean(state.username)}
            placeholder="Your password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={errors.password}
            required
          />
          <div className="mt-2 text-right">
            <Link to="/forgot-password" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
              Forgot your password?
            </Link>
          </div>
        </div>
        <Button type="submit" disabled={busy} className="w-full py-3">
          {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
          {busy ? 'Signing you in...' : 'Sign in'}
        </Button>
      </form>
      <SsoSignIn returnTo={state.from} />
    </AuthLayout>
  );
}
