import { type ChangePasswordRequest, type MessageResponse, MessageResponseSchema } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { apiRequest } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';

/** POST /api/auth/change-password with {current_password, new_password, confirm_password}. */
export function changePassword(body: ChangePasswordRequest): Promise<MessageResponse> {
  return apiRequest('/api/auth/change-password', { method: 'POST', body }, MessageResponseSchema);
}

/** Changes the signed-in user's password and says how it went (spec §8). */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      toast.success('Password changed successfully!');
    },
    onError: (error) => {
      toast.error(errorText(error, 'Password change failed'));
    },
  });
}
