export { getSettings, useSettings } from './api/get-settings';
export { testConnection, useTestConnection } from './api/test-connection';
export { updateSettings, useUpdateSettings } from './api/update-settings';
export { SettingsScreen } from './settings-screen';
