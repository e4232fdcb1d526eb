export {
  type FakeFigmaApi,
  type FakeFigmaFile,
  type FakeFileBehaviour,
  landingFixture,
  startFakeFigmaApi,
} from '../figma/fake-figma-api';
export { pngHeaderOnly } from './png-header-only';
