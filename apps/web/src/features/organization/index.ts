export { InvitationPage } from './invitation-page';
export { OrganizationScreen } from './organization-screen';
