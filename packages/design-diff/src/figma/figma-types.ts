/**
 * The parts of Figma's REST API answers that design comparison reads (developers.figma.com/docs/rest-api).
 * Every field Figma may omit is optional; unknown fields are kept untyped.
 */

export interface FigmaColor {
  /** Channels 0..1. */
  r: number;
  g: number;
  b: number;
  a: number;
}

export interface FigmaPaint {
  type:
    | 'SOLID'
    | 'GRADIENT_LINEAR'
    | 'GRADIENT_RADIAL'
    | 'GRADIENT_ANGULAR'
    | 'GRADIENT_DIAMOND'
    | 'IMAGE'
    | string;
  visible?: boolean;
  /** 0..1, default 1. */
  opacity?: number;
  color?: FigmaColor;
  blendMode?: string;
}

export interface FigmaRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A text node's style (Figma's `TypeStyle`). */
export interface FigmaTypeStyle {
  fontFamily?: string;
  fontPostScriptName?: string | null;
  fontWeight?: number;
  fontSize?: number;
  italic?: boolean;
  textAlignHorizontal?: string;
  /** In px; Figma stores letter spacing in px in the REST API. */
  letterSpacing?: number;
  lineHeightPx?: number;
  lineHeightPercentFontSize?: number;
  /** `PIXELS`, `FONT_SIZE_%`, or `INTRINSIC_%` (auto: the font's own line height). */
  lineHeightUnit?: 'PIXELS' | 'FONT_SIZE_%' | 'INTRINSIC_%' | string;
  textCase?: string;
  textDecoration?: string;
}

export interface FigmaNode {
  id: string;
  name: string;
  type: string;
  visible?: boolean;
  children?: FigmaNode[];
  absoluteBoundingBox?: FigmaRect | null;
  absoluteRenderBounds?: FigmaRect | null;
  /** 0..1, default 1. */
  opacity?: number;
  fills?: FigmaPaint[];
  strokes?: FigmaPaint[];
  // text
  characters?: string;
  style?: FigmaTypeStyle;
  // auto layout
  layoutMode?: 'NONE' | 'HORIZONTAL' | 'VERTICAL' | 'GRID' | string;
  layoutWrap?: 'NO_WRAP' | 'WRAP' | string;
  paddingLeft?: number;
  paddingRight?: number;
  paddingTop?: number;
  paddingBottom?: number;
  itemSpacing?: number;
  counterAxisSpacing?: number;
  primaryAxisAlignItems?: 'MIN' | 'CENTER' | 'MAX' | 'SPACE_BETWEEN' | string;
  counterAxisAlignItems?: string;
  cornerRadius?: number;
  backgroundColor?: FigmaColor;
  [extra: string]: unknown;
}

/** `GET /v1/files/:key` */
export interface FigmaFileResponse {
  name: string;
  lastModified?: string;
  version?: string;
  thumbnailUrl?: string;
  role?: string;
  editorType?: string;
  document: FigmaNode;
  components?: Record<string, unknown>;
  styles?: Record<string, unknown>;
  schemaVersion?: number;
}

/** `GET /v1/files/:key/nodes?ids=`: a node the file does not have is `null`. */
export interface FigmaNodesResponse {
  name: string;
  lastModified?: string;
  version?: string;
  nodes: Record<
    string,
    { document: FigmaNode; components?: Record<string, unknown>; styles?: Record<string, unknown> } | null
  >;
}

/** `GET /v1/images/:key?ids=&format=&scale=`: a node that could not be rendered maps to `null`. */
export interface FigmaImagesResponse {
  err: string | null;
  images: Record<string, string | null>;
  status?: number;
}

/** Node types a comparison can take as "the frame": they render as a screen. */
export const FRAME_TYPES: ReadonlySet<string> = new Set([
  'FRAME',
  'COMPONENT',
  'COMPONENT_SET',
  'INSTANCE',
  'SECTION',
  'GROUP',
]);
