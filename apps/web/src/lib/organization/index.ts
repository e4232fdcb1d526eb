export { can } from './can';
export {
  getCurrentOrganizationId,
  ORGANIZATION_HEADER,
  onOrganizationLost,
  organizationStorageKey,
  reportOrganizationLost,
  setCurrentOrganizationId,
} from './current-organization';
export {
  LOST_ORGANIZATION_TEXT,
  type OrganizationContextValue,
  OrganizationProvider,
  useCan,
  useOrganization,
} from './organization-context';
export { createOrganization, listOrganizations, ORGANIZATIONS_QUERY_KEY } from './organizations-api';
