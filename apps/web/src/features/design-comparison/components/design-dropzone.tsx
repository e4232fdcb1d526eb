import type { UploadedDesign } from '@argus/protocol';
import { ImageIcon, Loader2, Upload, X } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { IconButton } from '../../../components/icon-button';
import { cn } from '../../../lib/cn';
import { COMPARISON_TEXTS } from '../model/texts';
import { designDetails, firstFile } from '../model/validation';

export interface DesignDropzoneProps {
  upload: UploadedDesign | null;
  uploading: boolean;
  disabled: boolean;
  onFile: (file: File | null) => void;
  onRemove: () => void;
}

/** Upload Image (docs/PRODUCT.md#comparison-inputs): drag-and-drop or click-to-browse; after upload, the file with a remove button. */
export function DesignDropzone({ upload, uploading, disabled, onFile, onRemove }: DesignDropzoneProps) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [thumbFailed, setThumbFailed] = useState<string | null>(null);

  if (upload) {
    const thumb = upload.thumbnail_url ?? upload.url;
    const showThumb = thumb !== '' && thumbFailed !== thumb;
    const details = designDetails(upload);
    return (
      <div
        className="flex items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3"
        data-testid="uploaded-design"
      >
        <span className="flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-white ring-1 ring-slate-200">
          {showThumb ? (
            <img
              src={thumb}
              alt={`Uploaded design ${upload.filename}`}
              className="size-full object-cover object-top"
              onError={() => setThumbFailed(thumb)}
            />
          ) : (
            <ImageIcon className="size-5 text-slate-400" aria-hidden />
          )}
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900" data-testid="uploaded-filename">
            {upload.filename}
          </p>
          {details ? (
            <p className="text-xs text-slate-500" data-testid="uploaded-details">
              {details}
            </p>
          ) : null}
        </div>
        <IconButton icon={X} label="Remove uploaded image" onClick={onRemove} disabled={disabled} />
      </div>
    );
  }

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setOver(false);
    if (disabled || uploading) return;
    // docs/PRODUCT.md#comparison-inputs: only the first dropped file is used.
    onFile(firstFile(event.dataTransfer.files));
  };

  return (
    <div>
      <label
        htmlFor={inputId}
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-4 py-8 text-center transition',
          'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600',
          over ? 'border-indigo-400 bg-indigo-50' : 'border-slate-300 bg-slate-50 hover:border-indigo-300',
          (disabled || uploading) && 'cursor-not-allowed opacity-70',
        )}
        data-testid="design-dropzone"
      >
        {uploading ? (
          <Loader2 className="size-7 animate-spin text-indigo-500" aria-hidden />
        ) : (
          <Upload className="size-7 text-indigo-500" aria-hidden />
        )}
        <span className="mt-2 text-sm font-medium text-slate-800">
          {uploading ? COMPARISON_TEXTS.uploading : 'Drop your design here, or click to browse'}
        </span>
        <span id={hintId} className="mt-1 text-xs text-slate-500">
          {COMPARISON_TEXTS.uploadHint}
        </span>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp,image/*"
          aria-label="Design image"
          aria-describedby={hintId}
          className="sr-only"
          disabled={disabled || uploading}
          onChange={(event) => {
            onFile(firstFile(event.target.files));
            // The same file chosen again after a removal must fire a change again.
            event.target.value = '';
          }}
          data-testid="design-file-input"
        />
      </label>
    </div>
  );
}
