export {
  type ExportCase,
  type ExportFile,
  type ExportInput,
  type ExportResult,
  type ExportSuite,
  type ExportVariable,
  exportPlaywright,
  PLAYWRIGHT_VERSION,
  slugify,
} from './export';
