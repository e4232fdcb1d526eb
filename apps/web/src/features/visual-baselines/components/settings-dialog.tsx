import type { VisualBaseline, VisualBox, VisualElementMask } from '@argus/protocol';
import { Loader2, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { SelectField } from '../../../components/select-field';
import { SmallButton } from '../../../components/small-button';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useSaveCheckSettings } from '../api/save-settings';
import { checkTitle, viewportText } from '../model/baselines';
import {
  addElementMask,
  canAddElementMask,
  type ElementMaskFields,
  EMPTY_ELEMENT_FIELDS,
  elementMaskText,
  MAX_ELEMENT_MASKS,
  parseElementMask,
  ROLE_OPTIONS,
  removeElementMask,
  sameElementMasks,
} from '../model/element-masks';
import {
  MAX_MASKS,
  MAX_THRESHOLD_PERCENT,
  type MaskFieldErrors,
  type MaskFields,
  maskText,
  parseMaskFields,
  parseThreshold,
  sameMasks,
  thresholdPercent,
} from '../model/masks';
import { MaskPicture, MOVING_MASK_STYLE, USER_MASK_STYLE } from './mask-picture';

const EMPTY_FIELDS: MaskFields = { x: '', y: '', width: '', height: '' };

/** The keyboard's way to add a mask: x, y, width and height in the capture's pixels. */
function AddMaskForm({
  capture,
  full,
  onAdd,
}: {
  capture: { width: number; height: number };
  full: boolean;
  onAdd: (mask: VisualBox) => void;
}) {
  const [fields, setFields] = useState<MaskFields>(EMPTY_FIELDS);
  const [errors, setErrors] = useState<MaskFieldErrors>({});
  const legendId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const parsed = parseMaskFields(fields, capture);
    if (parsed.errors) {
      setErrors(parsed.errors);
      return;
    }
    onAdd(parsed.mask);
    setFields(EMPTY_FIELDS);
    setErrors({});
  };
  const field = (key: keyof MaskFields, label: string) => (
    <TextField
      label={label}
      inputMode="numeric"
      autoComplete="off"
      value={fields[key]}
      error={errors[key]}
      onChange={(event) => {
        setFields((current) => ({ ...current, [key]: event.target.value }));
        setErrors((current) => ({ ...current, [key]: undefined }));
      }}
    />
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={legendId}
      className="space-y-3"
      data-testid="visual-mask-form"
    >
      <p id={legendId} className="text-sm font-medium text-slate-800">
        Add a mask by its numbers
        <span className="block text-xs font-normal text-slate-600">
          In the picture’s pixels ({capture.width} × {capture.height}), from its top left corner.
        </span>
      </p>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {field('x', 'Left (x)')}
        {field('y', 'Top (y)')}
        {field('width', 'Width')}
        {field('height', 'Height')}
      </div>
      <SmallButton type="submit" icon={Plus} disabled={full}>
        Add mask
      </SmallButton>
    </form>
  );
}

/** The form that adds an element mask: a text, a role, or both (Add waits for one of them). */
function AddElementMaskForm({
  existing,
  onAdd,
}: {
  existing: readonly VisualElementMask[];
  onAdd: (mask: VisualElementMask) => void;
}) {
  const [fields, setFields] = useState<ElementMaskFields>(EMPTY_ELEMENT_FIELDS);
  const [error, setError] = useState<string | undefined>();
  const legendId = useId();
  const full = existing.length >= MAX_ELEMENT_MASKS;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const parsed = parseElementMask(fields, existing);
    if (parsed.error !== undefined) {
      setError(parsed.error);
      return;
    }
    onAdd(parsed.mask);
    setFields(EMPTY_ELEMENT_FIELDS);
    setError(undefined);
  };
  const change = (key: keyof ElementMaskFields, value: string) => {
    setFields((current) => ({ ...current, [key]: value }));
    setError(undefined);
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={legendId}
      className="space-y-3"
      data-testid="visual-element-mask-form"
    >
      <p id={legendId} className="text-sm font-medium text-slate-800">
        Add an element mask
        <span className="block text-xs font-normal text-slate-600">
          The visible elements holding this text, or of this role, or both, wherever the page puts them.
        </span>
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Text"
          autoComplete="off"
          maxLength={200}
          value={fields.text}
          error={error}
          placeholder="Today’s offer"
          onChange={(event) => change('text', event.target.value)}
        />
        <SelectField
          label="Role"
          options={ROLE_OPTIONS}
          value={fields.role}
          onChange={(event) => change('role', event.target.value)}
        />
      </div>
      <SmallButton type="submit" icon={Plus} disabled={full || !canAddElementMask(fields)}>
        Add element mask
      </SmallButton>
    </form>
  );
}

/** The element masks: listed (each removable unless read-only), and the form that adds one. */
function ElementMasksSection({
  masks,
  readOnly,
  onAdd,
  onRemove,
}: {
  masks: readonly VisualElementMask[];
  readOnly: boolean;
  onAdd: (mask: VisualElementMask) => void;
  onRemove: (index: number) => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="visual-element-masks">
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Masked elements ({masks.length}
          {masks.length >= MAX_ELEMENT_MASKS ? `, at most ${MAX_ELEMENT_MASKS}` : ''})
        </h3>
        {masks.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">No elements masked by their text or role.</p>
        ) : (
          <ul className="mt-2 space-y-1.5" data-testid="visual-element-mask-list">
            {masks.map((mask, index) => (
              <li
                key={`${mask.role ?? ''}|${mask.text ?? ''}`}
                className="flex flex-wrap items-center gap-2 rounded-md bg-slate-50 px-3 py-1.5 text-sm text-slate-800 ring-1 ring-slate-200"
              >
                <span className="min-w-0 flex-1 break-words">{elementMaskText(mask)}</span>
                {!readOnly && (
                  <SmallButton
                    variant="ghost"
                    icon={Trash2}
                    onClick={() => onRemove(index)}
                    aria-label={`Remove element mask ${elementMaskText(mask)}`}
                  >
                    Remove
                  </SmallButton>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {!readOnly && <AddElementMaskForm existing={masks} onAdd={onAdd} />}
    </section>
  );
}

/**
 * A check's own settings, kept with its current baseline and carried to the next approval: the
 * threshold (a percentage of the picture's pixels that may differ, 0–50) and the masks (rectangles
 * drawn on the picture, or typed in, each removable) and the masked elements (by text or role, listed,
 * each removable, added by a small form). Read-only for whoever may not change them.
 */
export function SettingsDialog({
  baseline,
  readOnly,
  onClose,
  onImageError,
}: {
  baseline: VisualBaseline;
  readOnly: boolean;
  onClose: () => void;
  onImageError: () => void;
}) {
  const [masks, setMasks] = useState<VisualBox[]>(() => baseline.user_masks.map((m) => ({ ...m })));
  const [elementMasks, setElementMasks] = useState<VisualElementMask[]>(() =>
    baseline.element_masks.map((m) => ({ ...m })),
  );
  const [threshold, setThreshold] = useState(String(thresholdPercent(baseline.threshold)));
  const [thresholdError, setThresholdError] = useState<string | undefined>();
  const save = useSaveCheckSettings();
  const capture = { width: baseline.width, height: baseline.height };
  const name = `${baseline.case_name}, ${checkTitle(baseline.check_name)}`;
  const full = masks.length >= MAX_MASKS;

  const add = (mask: VisualBox) =>
    setMasks((current) => (current.length >= MAX_MASKS ? current : [...current, mask]));

  const onSave = () => {
    const parsed = parseThreshold(threshold);
    if (parsed.error !== undefined) {
      setThresholdError(parsed.error);
      return;
    }
    if (
      sameMasks(masks, baseline.user_masks) &&
      sameElementMasks(elementMasks, baseline.element_masks) &&
      parsed.share === baseline.threshold
    ) {
      onClose();
      return;
    }
    save.mutate(
      {
        baselineId: baseline.id,
        user_masks: masks,
        element_masks: elementMasks,
        threshold: parsed.share,
      },
      {
        onSuccess: () => {
          toast.success(`Saved the settings of ${name}`);
          onClose();
        },
        onError: (error) => toast.error(errorText(error, 'The settings could not be saved')),
      },
    );
  };

  return (
    <Dialog
      open
      size="lg"
      onClose={onClose}
      title={`Settings of ${name}`}
      description={`Viewport ${viewportText(baseline.viewport)} · ${baseline.browser}. Kept with the current baseline and carried to the next approval.`}
    >
      <div className="space-y-5" data-testid="visual-settings">
        <div className="space-y-2">
          {!readOnly && (
            <p className="text-sm text-slate-700">
              Drag on the picture to mask a rectangle: what is under a mask is never compared.
            </p>
          )}
          <MaskPicture
            src={baseline.image}
            alt={`The baseline of ${name}, with its masks`}
            capture={capture}
            masks={masks}
            moving={baseline.moving_masks}
            readOnly={readOnly}
            onAdd={add}
            onImageError={onImageError}
          />
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
            <li className="flex items-center gap-1.5">
              <span
                aria-hidden
                className="size-3 rounded-sm ring-2 ring-indigo-700"
                style={USER_MASK_STYLE}
              />
              Masked by your team (numbered as listed)
            </li>
            {baseline.moving_masks.length > 0 && (
              <li className="flex items-center gap-1.5">
                <span
                  aria-hidden
                  className="size-3 rounded-sm ring-1 ring-slate-900/40"
                  style={MOVING_MASK_STYLE}
                />
                Masked: moved by itself
              </li>
            )}
          </ul>
        </div>

        <section aria-label="Masks">
          <h3 className="text-sm font-semibold text-slate-900">
            Masks ({masks.length}
            {full ? `, at most ${MAX_MASKS}` : ''})
          </h3>
          {masks.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">No masks: the whole picture is compared.</p>
          ) : (
            <ol className="mt-2 space-y-1.5" data-testid="visual-mask-list">
              {masks.map((mask, index) => (
                <li
                  key={index}
                  className="flex flex-wrap items-center gap-2 rounded-md bg-slate-50 px-3 py-1.5 text-sm text-slate-800 ring-1 ring-slate-200"
                >
                  <span className="min-w-0 flex-1">
                    <span className="font-semibold">Mask {index + 1}:</span> {maskText(mask)}
                  </span>
                  {!readOnly && (
                    <SmallButton
                      variant="ghost"
                      icon={Trash2}
                      onClick={() => setMasks((current) => current.filter((_, i) => i !== index))}
                      aria-label={`Remove mask ${index + 1}, ${maskText(mask)}`}
                    >
                      Remove
                    </SmallButton>
                  )}
                </li>
              ))}
            </ol>
          )}
        </section>

        {!readOnly && <AddMaskForm capture={capture} full={full} onAdd={add} />}

        <ElementMasksSection
          masks={elementMasks}
          readOnly={readOnly}
          onAdd={(mask) => setElementMasks((current) => addElementMask(current, mask))}
          onRemove={(index) => setElementMasks((current) => removeElementMask(current, index))}
        />

        {readOnly ? (
          <p className="text-sm text-slate-800">
            <span className="font-semibold">Threshold:</span> {thresholdPercent(baseline.threshold)}% of the
            picture’s pixels may differ. Only an editor changes a check’s settings.
          </p>
        ) : (
          <TextField
            label="Threshold (%)"
            type="number"
            inputMode="decimal"
            min={0}
            max={MAX_THRESHOLD_PERCENT}
            step={0.1}
            value={threshold}
            error={thresholdError}
            className="max-w-xs"
            onChange={(event) => {
              setThreshold(event.target.value);
              setThresholdError(undefined);
            }}
          >
            <p className="mt-1.5 text-xs text-slate-600">
              How much of the picture may differ before a change is reported, 0 to {MAX_THRESHOLD_PERCENT}%. 0
              reports any difference.
            </p>
          </TextField>
        )}

        <div className="flex flex-wrap justify-end gap-3 border-t border-slate-100 pt-4">
          <Button variant="secondary" onClick={onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
          {!readOnly && (
            <Button onClick={onSave} disabled={save.isPending}>
              {save.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
              Save settings
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
