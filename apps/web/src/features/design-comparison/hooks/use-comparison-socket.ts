import type { ServerMessage } from '@argus/protocol';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { concernsComparison, eventOf } from '../model/comparison-state';
import { COMPARISON_TEXTS, completedToast } from '../model/texts';
import type { ComparisonRealtime } from '../types';
import type { ComparisonCore } from './comparison-core';
import { readHelp } from './figma-help';

/** When the socket is not open (docs/PRODUCT.md#comparison-texts). */
const CONNECTION_LOST = 'Connection lost. Please refresh the page.';

/**
 * The screen on the user's shared socket: server messages → state (docs/PRODUCT.md#comparison-progress),
 * the access modal and the toasts; a comparison running when the socket is lost fails.
 */
export function useComparisonSocket(core: ComparisonCore, realtime: ComparisonRealtime) {
  const { stateRef, dispatch, sessionIdRef } = core;
  const { setModal } = core.inputs;
  useEffect(
    () =>
      realtime.client.onMessage((message: ServerMessage) => {
        if (!concernsComparison(message, sessionIdRef.current)) return;
        if (message.type === 'figma_sharing_instructions') {
          setModal(readHelp(message.data));
          return;
        }
        if (message.type === 'upload_completed') return; // Uploads go over HTTP here.
        const event = eventOf(message);
        if (!event) return;
        const { before, after } = dispatch(event);
        // Only about a comparison this screen is running: a late message after Stop says nothing new.
        if (before.status !== 'running') return;
        if (message.type === 'figma_permission_error') {
          toast.error(COMPARISON_TEXTS.figmaAccess, { id: 'figma-access' });
          setModal((open) => open ?? readHelp(message.data));
        } else if (after.status === 'failed') {
          toast.error(after.error ?? COMPARISON_TEXTS.failed);
        } else if (after.status === 'completed' && after.results) {
          toast.success(completedToast(after.results.overall_similarity));
        }
      }),
    [realtime.client, dispatch, sessionIdRef, setModal],
  );

  // A comparison's answers come over the socket: once it is lost, this screen will not hear the end.
  const isConnected = realtime.isConnected;
  useEffect(() => {
    if (isConnected || stateRef.current.status !== 'running') return;
    dispatch({ type: 'failed', error: CONNECTION_LOST });
    toast.error(CONNECTION_LOST, { id: 'connection-lost' });
  }, [isConnected, dispatch, stateRef]);
}
