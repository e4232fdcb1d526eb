import type { UploadedDesign } from '@argus/protocol';
import { Globe, ImageUp, Loader2, PenTool, Play, RotateCcw, Settings2, Square } from 'lucide-react';
import { Button } from '../../../components/button';
import { FormPanel } from '../../../components/form-panel';
import { SegmentedControl, type SegmentedOption } from '../../../components/segmented-control';
import { UrlField } from '../../../components/url-field';
import { type ComparisonMethod, figmaUrlError, websiteUrlError } from '../model/validation';
import { DesignDropzone } from './design-dropzone';

const METHODS: SegmentedOption<ComparisonMethod>[] = [
  { value: 'figma', label: 'Figma File', hint: 'A frame of a Figma file', icon: PenTool },
  { value: 'image', label: 'Upload Image', hint: 'A PNG, JPG, GIF or WebP export', icon: ImageUp },
];

export interface SetupPanelProps {
  method: ComparisonMethod;
  onMethodChange: (method: ComparisonMethod) => void;
  figmaUrl: string;
  onFigmaUrlChange: (value: string) => void;
  onNeedHelp: () => void;
  websiteUrl: string;
  onWebsiteUrlChange: (value: string) => void;
  upload: UploadedDesign | null;
  uploading: boolean;
  onFile: (file: File | null) => void;
  onRemoveUpload: () => void;
  running: boolean;
  canStart: boolean;
  /** Results or an ended comparison are shown: New Comparison clears them. */
  hasOutcome: boolean;
  onStart: () => void;
  onStop: () => void;
  onNew: () => void;
}

/** Where the design comes from: a Figma file's address (with who may read it), or an uploaded image. */
function DesignSource(props: SetupPanelProps) {
  const figmaError = props.method === 'figma' ? figmaUrlError(props.figmaUrl) : null;
  return props.method === 'figma' ? (
    <div>
      <UrlField
        label="Figma File URL"
        autoComplete="off"
        placeholder="https://www.figma.com/design/…"
        value={props.figmaUrl}
        onChange={(event) => props.onFigmaUrlChange(event.target.value)}
        error={figmaError ?? undefined}
        icon={<PenTool className="size-4" aria-hidden />}
        disabled={props.running}
        data-testid="figma-url"
      />
      <div className="mt-2 flex flex-wrap items-start justify-between gap-x-4 gap-y-1 text-xs">
        <p className="min-w-0 flex-1 basis-56 text-slate-500" data-testid="figma-access-note">
          The file must be public (anyone with the link can view) or shared with the service account as a
          viewer.
        </p>
        <button
          type="button"
          onClick={props.onNeedHelp}
          className="shrink-0 font-semibold text-indigo-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Need help?
        </button>
      </div>
    </div>
  ) : (
    <div>
      <p className="mb-1.5 text-sm font-medium text-slate-700">Design image</p>
      <DesignDropzone
        upload={props.upload}
        uploading={props.uploading}
        disabled={props.running}
        onFile={props.onFile}
        onRemove={props.onRemoveUpload}
      />
    </div>
  );
}

/** Start, or Stop while it runs; New Comparison once there is an outcome to clear. */
function SetupActions(props: SetupPanelProps) {
  return (
    <div className="flex flex-wrap gap-2">
      {/* Keyed apart: were the Stop button's element reused as the submit button, the browser would
            submit the form (start again) as the default action of the very click that stopped it. */}
      {props.running ? (
        <Button
          key="stop"
          type="button"
          variant="secondary"
          onClick={props.onStop}
          className="flex-1"
          data-testid="stop-comparison"
        >
          <Square className="size-4 fill-current text-red-600" aria-hidden />
          Stop Comparison
        </Button>
      ) : (
        <Button
          key="start"
          type="submit"
          disabled={!props.canStart}
          className="flex-1"
          data-testid="start-comparison"
        >
          {props.uploading ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <Play className="size-4" aria-hidden />
          )}
          Start Comparison
        </Button>
      )}
      {props.hasOutcome && !props.running && (
        <Button type="button" variant="secondary" onClick={props.onNew} data-testid="new-comparison">
          <RotateCcw className="size-4" aria-hidden />
          New Comparison
        </Button>
      )}
    </div>
  );
}

/** docs/PRODUCT.md#comparison-inputs: the method (Figma File or Upload Image), the website, and Start / Stop / New Comparison. */
export function SetupPanel(props: SetupPanelProps) {
  const siteError = websiteUrlError(props.websiteUrl);
  const submit = () => {
    if (props.canStart) props.onStart();
  };
  return (
    <FormPanel
      title="Compare"
      icon={Settings2}
      testId="comparison-setup"
      onSubmit={submit}
      className="space-y-5"
    >
      <SegmentedControl
        legend="Design source"
        name="comparison-method"
        value={props.method}
        onChange={props.onMethodChange}
        options={METHODS}
        disabled={props.running}
      />

      <DesignSource {...props} />

      <UrlField
        label="Website to Compare"
        autoComplete="url"
        placeholder="https://example.com"
        value={props.websiteUrl}
        onChange={(event) => props.onWebsiteUrlChange(event.target.value)}
        error={siteError ?? undefined}
        icon={<Globe className="size-4" aria-hidden />}
        disabled={props.running}
        data-testid="website-url"
      />

      <SetupActions {...props} />
    </FormPanel>
  );
}
