import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { COMPARISON_TEXTS } from '../model/texts';
import { isValidFigmaUrl } from '../model/validation';
import type { ComparisonCore } from './comparison-core';

/** The Figma access modal: asked for (get_figma_help), closed, or acknowledged. */
export function useFigmaAccess({ latest, sessionIdRef, inputs }: ComparisonCore) {
  const { setModal } = inputs;
  const requestHelp = useCallback(() => {
    const { figmaUrl: figma, realtime: socket } = latest.current;
    setModal((open) => open ?? { serviceAccountEmail: null });
    try {
      socket.send({
        type: 'get_figma_help',
        data: {
          figma_url: isValidFigmaUrl(figma) ? figma.trim() : '',
          error_context: 'general',
          session_id: sessionIdRef.current,
        },
      });
    } catch {
      // Disconnected: the modal's own text still explains both ways.
    }
  }, [latest, sessionIdRef, setModal]);
  const closeModal = useCallback(() => setModal(null), [setModal]);
  const acknowledgeModal = useCallback(() => {
    setModal(null);
    toast.success(COMPARISON_TEXTS.instructionsSent);
  }, [setModal]);
  return { requestHelp, closeModal, acknowledgeModal };
}
