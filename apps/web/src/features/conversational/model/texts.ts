/** The conversational screen's texts (docs/PRODUCT.md#conversational-mode), character for character. */
export const CONVERSATIONAL_TEXTS = {
  waitingForVideo: 'Waiting for video stream...',
  thinking: 'AI is thinking...',
  placeholderActive: 'Tell me what to do on the website...',
  placeholderInactive: 'Type a message to start video browsing...',
  unloadPrompt: 'Your video browsing session is still active. Are you sure you want to leave?',
  connectionLost: 'Connection lost. Please refresh the page.',
  startFailed: 'Failed to start conversation',
  sendFailed: 'Failed to send message',
  stopFailed: 'Error stopping session',
  browserError: 'Browser error occurred',
  unknownError: 'Unknown error occurred',
  stopping: 'Stopping session...',
} as const;

/** The conversational session's name (docs/PRODUCT.md#sessions). */
export const SESSION_NAME = 'Video Chat Session';
