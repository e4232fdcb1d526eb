export { type BuildOptions, buildApp } from './app';
export { type Config, loadConfig } from './config';
export type { MessageContext, MessageHandlers } from './ws/message-handlers';
