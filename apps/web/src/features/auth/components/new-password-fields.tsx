import type { ChangeEventHandler } from 'react';
import { PasswordField } from './password-field';
import { PasswordMatch, PasswordStrength } from './password-strength';

interface NewPasswordInput {
  label: string;
  name: string;
  placeholder?: string;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  error?: string;
}

/**
 * A new password and its confirmation, as registration and the password change ask for them: the strength
 * meter under the first, the match indicator under the second (docs/PRODUCT.md#registration).
 */
export function NewPasswordFields({
  password,
  confirm,
  hideMatchOnError = false,
}: {
  password: NewPasswordInput;
  confirm: NewPasswordInput;
  /** Registration shows the confirmation's error instead of the match indicator, not both. */
  hideMatchOnError?: boolean;
}) {
  return (
    <>
      <PasswordField
        label={password.label}
        name={password.name}
        autoComplete="new-password"
        placeholder={password.placeholder}
        value={password.value}
        onChange={password.onChange}
        error={password.error}
        required
      >
        <PasswordStrength password={password.value} />
      </PasswordField>
      <PasswordField
        label={confirm.label}
        name={confirm.name}
        autoComplete="new-password"
        placeholder={confirm.placeholder}
        value={confirm.value}
        onChange={confirm.onChange}
        error={confirm.error}
        required
      >
        {!(hideMatchOnError && confirm.error) && (
          <PasswordMatch password={password.value} confirm={confirm.value} />
        )}
      </PasswordField>
    </>
  );
}
