import { passwordChecks, RegisterRequestSchema } from '@argus/protocol';
import { Loader2, Mail, User } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-error';
import { useRegister } from '../api/register';
import { fieldIssues, useFormFields } from '../hooks/use-form-fields';
import { AuthLayout, FormAlert } from './auth-layout';
import { NewPasswordFields } from './new-password-fields';
import type { GuardState } from './require-auth';

type Field = 'username' | 'email' | 'password' | 'confirmPassword';
type FieldErrors = Partial<Record<Field, string>>;

const REQUIRED: Record<Field, string> = {
  username: 'Username is required',
  email: 'Email is required',
  password: 'Password is required',
  confirmPassword: 'Please confirm your password',
};

/** Puts a server refusal next to the field it is about, when it names one. */
function fieldErrorsFrom(error: ApiError): FieldErrors {
  const errors = fieldIssues(error, REQUIRED);
  if (error.status === 409 && error.detail) {
    if (/username/i.test(error.detail)) errors.username = error.detail;
    else if (/email/i.test(error.detail)) errors.email = error.detail;
  }
  return errors;
}

export function RegisterPage() {
  const navigate = useNavigate();
  // Where sign-in returns after registering (an invitation link), carried from the login page.
  const from = ((useLocation().state ?? {}) as GuardState).from;
  const register = useRegister();
  const { values, errors, setErrors, set } = useFormFields<Field>({
    username: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const [failure, setFailure] = useState<string | null>(null);

  const checks = passwordChecks(values.password);
  const rulesHold = Object.values(checks).every(Boolean);
  const matches = values.password === values.confirmPassword;
  const busy = register.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const missing: FieldErrors = {};
    for (const field of Object.keys(REQUIRED) as Field[]) {
      if (!values[field].trim()) missing[field] = REQUIRED[field];
    }
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      return;
    }
    if (!matches) {
      setErrors({ confirmPassword: 'Passwords do not match' });
      toast.error('Passwords do not match');
      return;
    }
    const parsed = RegisterRequestSchema.safeParse(values);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string' && field in REQUIRED) next[field as Field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    register.mutate(
      {
        username: values.username.trim(),
        email: values.email.trim(),
        password: values.password,
        confirmPassword: values.confirmPassword,
      },
      {
        onSuccess: () => {
          toast.success('Registration successful! Please login.');
          navigate('/login', { state: { username: values.username.trim(), from } });
        },
        onError: (error) => {
          const text = error instanceof ApiError && error.detail ? error.detail : 'Registration failed';
          if (error instanceof ApiError) setErrors(fieldErrorsFrom(error));
          setFailure(text);
          toast.error(text);
        },
      },
    );
  };

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start generating and running AI-driven tests in minutes."
      footer={
        <>
          Already have an account?{' '}
          <Link
            to="/login"
            state={from ? { from } : undefined}
            className="font-semibold text-indigo-600 hover:text-indigo-500"
          >
            Sign in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Create account">
        {failure && <FormAlert>{failure}</FormAlert>}
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoFocus
          placeholder="jane.doe"
          icon={<User className="size-4" />}
          value={values.username}
          onChange={set('username')}
          error={errors.username}
          required
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          icon={<Mail className="size-4" />}
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          required
        />
        <NewPasswordFields
          password={{
            label: 'Password',
            name: 'password',
            placeholder: 'Create a strong password',
            value: values.password,
            onChange: set('password'),
            error: errors.password,
          }}
          confirm={{
            label: 'Confirm password',
            name: 'confirmPassword',
            placeholder: 'Repeat your password',
            value: values.confirmPassword,
            onChange: set('confirmPassword'),
            error: errors.confirmPassword,
          }}
          hideMatchOnError
        />
        <Button type="submit" disabled={busy || !rulesHold || !matches} className="w-full py-3">
          {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
          {busy ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
    </AuthLayout>
  );
}
