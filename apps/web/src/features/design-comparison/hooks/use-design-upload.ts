import type { UploadedDesign } from '@argus/protocol';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { errorText } from '../../../lib/api-error';
import { useUploadDesign } from '../api/upload-design';
import { COMPARISON_TEXTS } from '../model/texts';
import { checkDesignFile } from '../model/validation';

const UPLOAD_TOAST_ID = 'design-upload';

/** The uploaded design: checked, sent over HTTP with a toast for its progress, or removed. */
export function useDesignUpload(setUpload: (upload: UploadedDesign | null) => void) {
  const uploader = useUploadDesign();
  const chooseFile = useCallback(
    async (file: File | null) => {
      if (!file) return;
      const problem = checkDesignFile(file);
      if (problem) {
        toast.error(problem);
        return;
      }
      toast.loading(COMPARISON_TEXTS.uploading, { id: UPLOAD_TOAST_ID });
      try {
        const uploaded = await uploader.mutateAsync(file);
        setUpload(uploaded);
        toast.success(COMPARISON_TEXTS.uploaded, { id: UPLOAD_TOAST_ID });
      } catch (error) {
        toast.error(errorText(error, 'Upload failed'), { id: UPLOAD_TOAST_ID });
      }
    },
    [uploader, setUpload],
  );
  const removeUpload = useCallback(() => setUpload(null), [setUpload]);
  return { uploading: uploader.isPending, chooseFile, removeUpload };
}
