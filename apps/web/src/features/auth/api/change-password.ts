import {
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  ChangePasswordResponseSchema,
} from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { apiRequest } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';
import { useAuth } from '../auth-context';

/** POST /api/auth/change-password with {current_password, new_password, confirm_password}. */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return apiRequest('/api/auth/change-password', { method: 'POST', body }, ChangePasswordResponseSchema);
}

/**
 * Changes the signed-in user's password and says how it went (docs/PRODUCT.md#password-change). The server revokes the
 * token in use, so the fresh one it answers with replaces it at once.
 */
export function useChangePassword() {
  const { signIn } = useAuth();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (response) => {
      signIn(response);
      toast.success('Password changed successfully!');
    },
    onError: (error) => {
      toast.error(errorText(error, 'Password change failed'));
    },
  });
}
