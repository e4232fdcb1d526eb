export {
  type DesignAutoLayout,
  type DesignBox,
  type DesignColor,
  type DesignFacts,
  type DesignFill,
  type DesignText,
  extractDesignFacts,
  figmaColorToHex,
  solidColor,
} from './design-nodes';
export {
  DEFAULT_FIGMA_API_BASE,
  describeWait,
  FIGMA_TOKEN_NEEDED,
  FigmaClient,
  type FigmaClientOptions,
  FigmaError,
  type FigmaErrorCode,
  MAX_RATE_LIMIT_WAIT_SECONDS,
  parseRetryAfter,
  type RenderOptions,
} from './figma-client';
export { type FigmaDesign, loadFigmaDesign } from './figma-design';
export type {
  FigmaFileResponse,
  FigmaImagesResponse,
  FigmaNode,
  FigmaNodesResponse,
  FigmaPaint,
  FigmaTypeStyle,
} from './figma-types';
export { type FigmaFileRef, FigmaUrlError, parseFigmaUrl, toApiNodeId, toUrlNodeId } from './figma-url';
export {
  type FrameCandidate,
  type FrameChoice,
  FrameSelectError,
  findNode,
  frameForLinkedNode,
  pickFrameForViewport,
  topLevelFrames,
} from './frame-select';
export { type FigmaSharingInstructions, figmaSharingInstructions } from './sharing-instructions';
export {
  type CompareOptions,
  compareStyles,
  DOM_FACT_PROPERTIES,
  type DomElementFacts,
  domElementFacts,
  matchTexts,
  type StyleComparison,
  type StyleDifference,
  type StyleDifferenceKind,
  type TextMatch,
  TOLERANCES,
  toCssFix,
} from './style-compare';
export { normaliseText, textSimilarity } from './text-similarity';
