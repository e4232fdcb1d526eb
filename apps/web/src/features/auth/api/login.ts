import { type LoginRequest, type LoginResponse, LoginResponseSchema } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/login, form-encoded (docs/PRODUCT.md#sign-in); `username` may be a username or an email address. */
export function login({ username, password }: LoginRequest): Promise<LoginResponse> {
  return apiRequest(
    '/api/auth/login',
    { method: 'POST', form: { username, password }, auth: false },
    LoginResponseSchema,
  );
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
