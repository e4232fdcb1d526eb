import { type Organization, OrganizationSchema } from '@argus/protocol';
import { apiRequest } from '../api-client';

/**
 * The caller's organizations, shared by the sidebar's switcher (the shell), the organization screen
 * and the invitation page: features do not import each other, so what they all read lives here.
 */
export const ORGANIZATIONS_QUERY_KEY = ['organizations'] as const;

const OrganizationListSchema = OrganizationSchema.array();

/** GET /api/organizations: the caller's organizations, the personal one first, with their role. */
export function listOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  return apiRequest('/api/organizations', { signal }, OrganizationListSchema);
}

/** POST /api/organizations: a new organization, of which the caller is the owner. */
export function createOrganization(name: string): Promise<Organization> {
  return apiRequest('/api/organizations', { method: 'POST', body: { name } }, OrganizationSchema);
}
