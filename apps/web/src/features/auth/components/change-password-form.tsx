import { passwordChecks } from '@argus/protocol';
import { KeyRound, Loader2 } from 'lucide-react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { ApiError } from '../../../lib/api-error';
import { useChangePassword } from '../api/change-password';
import { fieldIssues, useFormFields } from '../hooks/use-form-fields';
import { NewPasswordFields } from './new-password-fields';
import { PasswordField } from './password-field';

type Field = 'current_password' | 'new_password' | 'confirm_password';
const EMPTY: Record<Field, string> = { current_password: '', new_password: '', confirm_password: '' };

/**
 * The password change of docs/PRODUCT.md#password-change: current, new and confirmation, with the registration's strength meter
 * and match indicator. The hook toasts 'Password changed successfully!' or the server's detail
 * ('Password change failed' otherwise) and keeps the fresh token the server answers with.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const { values, errors, setErrors, set, reset } = useFormFields(EMPTY);
  const rulesHold = Object.values(passwordChecks(values.new_password)).every(Boolean);
  const matches = values.new_password === values.confirm_password;
  const busy = change.isPending;
  const canSubmit = Boolean(values.current_password) && rulesHold && matches && !busy;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!values.current_password) {
      setErrors({ current_password: 'Current password is required' });
      return;
    }
    if (!matches) {
      setErrors({ confirm_password: 'Passwords do not match' });
      toast.error('Passwords do not match');
      return;
    }
    change.mutate(values, {
      onSuccess: reset,
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const next = fieldIssues(error, EMPTY);
        if (error.status === 400 && error.detail) next.current_password = error.detail;
        setErrors(next);
      },
    });
  };

  return (
    <Panel
      title="Password"
      icon={KeyRound}
      subtitle="Changing it signs out your other devices"
      testId="password-panel"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Change password">
        <PasswordField
          label="Current password"
          name="current_password"
          autoComplete="current-password"
          value={values.current_password}
          onChange={set('current_password')}
          error={errors.current_password}
          required
        />
        <NewPasswordFields
          password={{
            label: 'New password',
            name: 'new_password',
            value: values.new_password,
            onChange: set('new_password'),
            error: errors.new_password,
          }}
          confirm={{
            label: 'Confirm new password',
            name: 'confirm_password',
            value: values.confirm_password,
            onChange: set('confirm_password'),
            error: errors.confirm_password,
          }}
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={!canSubmit}>
            {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
            {busy ? 'Changing password...' : 'Change password'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
