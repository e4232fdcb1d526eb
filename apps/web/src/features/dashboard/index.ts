export { HomeDashboard } from './home-dashboard';
