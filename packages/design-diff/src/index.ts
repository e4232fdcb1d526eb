export {
  type CaptureSession,
  capturePage,
  type ElementInfo,
  FREEZE_CSS,
  MAX_DOM_FACTS,
  readDomFacts,
  readElements,
} from './capture';
export { analyseRegion, type DifferenceKind, type RegionAnalysis } from './classify';
export { ciede2000, deltaE, dominantColours, rgbToLab } from './color';
export {
  type CompareDesignOptions,
  compareDesign,
  compareDesignDetailed,
  type DetailedComparison,
  type DetailedIssue,
  MAX_CAPTURE_HEIGHT,
  pixelBudget,
  type ViewportDetail,
  type Viewports,
} from './compare';
export { type DiffOptions, type DiffResult, diffImages } from './diff-kernel';
export * from './figma/index';
export { cssFixes } from './fixes';
export {
  cropTop,
  type DecodedDesign,
  decodeDesign,
  decodeImage,
  encodePng,
  ImageLimitError,
  MAX_INPUT_PIXELS,
  MAX_VIEWPORT_PIXELS,
  type RgbaImage,
} from './image';
export { type Box, findRegions, type Region } from './regions';
export { CATEGORIES, type Category, qualityRating, RATING_COLOURS, scoreViewport } from './scores';
export { ssim } from './ssim';
export * from './visual/index';
