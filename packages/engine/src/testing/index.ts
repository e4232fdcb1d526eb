export { startGzipBombServer } from './gzip-bomb-server';
