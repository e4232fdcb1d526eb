/** Spec texts of the design comparison screen (§2, §4, §5, §8), character for character. */
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

/** Spec §8: 'Comparison completed! Similarity: N%'. */
export function completedToast(similarity: number): string {
  return `Comparison completed! Similarity: ${Math.round(similarity)}%`;
}

/** Spec §3: the design session's name. */
export const SESSION_NAME = 'Figma Design Comparison';

/** Spec §9 / §2: the export's file name. */
export const EXPORT_FILE_NAME = 'comparison-results.json';
