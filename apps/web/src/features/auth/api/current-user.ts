import { type User, UserSchema } from '@argus/protocol';
import { apiRequest, CURRENT_USER_PATH } from '../../../lib/api-client';

/** GET /api/auth/me: the user the saved token belongs to. A 401 here means the token is no longer valid. */
export function fetchCurrentUser(signal?: AbortSignal): Promise<User> {
  return apiRequest(CURRENT_USER_PATH, { signal }, UserSchema);
}
