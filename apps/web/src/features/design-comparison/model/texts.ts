/** The design comparison screen's texts (docs/PRODUCT.md#design-comparison), character for character. */
export const COMPARISON_TEXTS = {
  title: 'Design Comparison',
  invalidWebsiteUrl: 'Please enter a valid website URL',
  invalidFigmaUrl: 'Please enter a valid Figma file URL',
  imageRequired: 'Please upload a design image',
  notAnImage: 'Please select an image file',
  tooLarge: 'File size must be less than 10MB',
  uploadHint: 'Supports PNG, JPG, GIF, WebP (max 10MB)',
  uploading: 'Uploading image...',
  uploaded: 'Image uploaded successfully!',
  stopped: 'Comparison stopped',
  failed: 'Comparison failed',
  completed: 'Comparison completed!',
  startFailed: 'Failed to start comparison',
  figmaAccess: 'Figma file access required. Please share your file.',
  cssCopied: 'CSS copied to clipboard!',
  exported: 'Results exported successfully',
  instructionsSent: 'Instructions sent! Please check your Figma file sharing settings.',
  modalTitle: 'Figma File Access Required',
} as const;

/** docs/PRODUCT.md#comparison-results: 'Comparison completed! Similarity: N%'. */
export function completedToast(similarity: number): string {
  return `Comparison completed! Similarity: ${Math.round(similarity)}%`;
}

/** The design session's name (docs/PRODUCT.md#sessions). */
export const SESSION_NAME = 'Figma Design Comparison';

/** docs/PRODUCT.md#comparison-results: the export's file name. */
export const EXPORT_FILE_NAME = 'comparison-results.json';
