// The bundle's entry point (packages/cli/dist/argus.mjs, built by scripts/build-cli.mjs).
import { cli } from './index';

await cli();
