import { type RegisterRequest, type RegisterResponse, RegisterResponseSchema } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/register with {username, email, password, confirmPassword}; answers 201 {message, user}. */
export function register(body: RegisterRequest): Promise<RegisterResponse> {
  return apiRequest('/api/auth/register', { method: 'POST', body, auth: false }, RegisterResponseSchema);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
