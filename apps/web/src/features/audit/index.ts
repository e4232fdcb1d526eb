export { AuditScreen, type AuditScreenProps } from './audit-screen';
