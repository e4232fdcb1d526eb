import { type DemoRequest, DemoRequestSchema } from '@argus/protocol';
import { LoaderCircle } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type Ref, useEffect, useRef, useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { DemoRequestError, submitDemoRequest } from '../api/submit-demo-request';

/** docs/PRODUCT.md#demo-request: after '✓ Request Sent!' the form is cleared and the modal closes after 2 s. */
export const DEMO_CLOSE_DELAY_MS = 2000;

type Status = 'idle' | 'sending' | 'success' | 'error';
type Field = 'name' | 'email' | 'company' | 'message';
type FormValues = Record<Field, string>;

const EMPTY: FormValues = { name: '', email: '', company: '', message: '' };

const SUBMIT_LABEL: Record<Status, string> = {
  idle: 'Submit Request',
  sending: 'Sending...',
  success: '✓ Request Sent!',
  error: 'Error - Try Again',
};

const inputClass =
  'mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-4 focus:ring-indigo-500/15 aria-invalid:border-rose-400 aria-invalid:focus:ring-rose-500/15';

interface RequiredInputProps {
  field: Exclude<Field, 'message'>;
  label: string;
  type: 'text' | 'email';
  autoComplete: string;
  placeholder: string;
  value: string;
  error?: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  inputRef?: Ref<HTMLInputElement>;
}

/** A required field with its label, its error text, and the ARIA that ties them together. */
function RequiredInput({
  field,
  label,
  type,
  autoComplete,
  placeholder,
  value,
  error,
  onChange,
  inputRef,
}: RequiredInputProps) {
  const id = `demo-${field}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label} <span className="text-rose-500">*</span>
      </label>
      <input
        ref={inputRef}
        id={id}
        name={field}
        type={type}
        autoComplete={autoComplete}
        required
        value={value}
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        placeholder={placeholder}
        className={inputClass}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-rose-600">
          {error}
        </p>
      )}
    </div>
  );
}

interface DemoRequestModalProps {
  open: boolean;
  onClose: () => void;
}

export function DemoRequestModal({ open, onClose }: DemoRequestModalProps) {
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState<Status>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  // Success: close after 2 s (and cancel that if the modal goes away first).
  useEffect(() => {
    if (status !== 'success') return;
    const timer = window.setTimeout(() => {
      setStatus('idle');
      onCloseRef.current();
    }, DEMO_CLOSE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [status]);

  useEffect(() => () => abortRef.current?.abort(), []);

  function handleClose() {
    abortRef.current?.abort();
    setStatus('idle');
    setServerError(null);
    setErrors({});
    onClose();
  }

  function update(field: Field) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    };
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'sending' || status === 'success') return;

    const parsed = DemoRequestSchema.safeParse(values);
    if (!parsed.success) {
      const fieldErrors: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field | undefined;
        if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
      }
      setErrors(fieldErrors);
      setStatus('idle');
      return;
    }

    const request: DemoRequest = parsed.data;
    const controller = new AbortController();
    abortRef.current = controller;
    setErrors({});
    setServerError(null);
    setStatus('sending');
    try {
      await submitDemoRequest(request, controller.signal);
      setValues(EMPTY);
      setStatus('success');
    } catch (error) {
      if (controller.signal.aborted) return;
      setStatus('error');
      setServerError(
        error instanceof DemoRequestError ? error.message : 'Something went wrong. Please try again.',
      );
    }
  }

  const busy = status === 'sending' || status === 'success';
  const describedBy = (field: Field) => (errors[field] ? `demo-${field}-error` : undefined);

  return (
    <Dialog
      open={open}
      onClose={handleClose}
      title="Schedule a Demo"
      description="Tell us a little about your team and we'll set up a personalised walkthrough of Argus."
      initialFocusRef={nameRef}
    >
      <form onSubmit={handleSubmit} className="space-y-4" aria-busy={status === 'sending'}>
        <div className="grid gap-4 sm:grid-cols-2">
          <RequiredInput
            field="name"
            label="Name"
            type="text"
            autoComplete="name"
            placeholder="Jane Doe"
            value={values.name}
            error={errors.name}
            onChange={update('name')}
            inputRef={nameRef}
          />
          <RequiredInput
            field="email"
            label="Work email"
            type="email"
            autoComplete="email"
            placeholder="jane@company.com"
            value={values.email}
            error={errors.email}
            onChange={update('email')}
          />
        </div>
        <RequiredInput
          field="company"
          label="Company"
          type="text"
          autoComplete="organization"
          placeholder="Acme Inc."
          value={values.company}
          error={errors.company}
          onChange={update('company')}
        />
        <div>
          <label htmlFor="demo-message" className="block text-sm font-medium text-slate-700">
            Message <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <textarea
            id="demo-message"
            name="message"
            rows={3}
            value={values.message}
            onChange={update('message')}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy('message')}
            placeholder="What would you like to test? Any questions for our team?"
            className={`${inputClass} resize-y`}
          />
          {errors.message && (
            <p id="demo-message-error" className="mt-1 text-xs text-rose-600">
              {errors.message}
            </p>
          )}
        </div>

        {serverError && status === 'error' && (
          <p
            role="alert"
            className="rounded-lg bg-rose-50 px-3.5 py-2.5 text-sm text-rose-700 ring-1 ring-rose-200"
          >
            {serverError}
          </p>
        )}
        <p className="sr-only" aria-live="polite">
          {status === 'sending' ? 'Sending your request' : status === 'success' ? 'Request sent' : ''}
        </p>

        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={handleClose}
            className="rounded-lg px-4 py-2.5 text-sm font-semibold text-slate-600 ring-1 ring-slate-300 transition hover:bg-slate-50"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={busy}
            className={`inline-flex min-w-44 items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-sm font-semibold text-white shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed ${
              status === 'success'
                ? 'bg-emerald-600'
                : status === 'error'
                  ? 'bg-rose-600 hover:bg-rose-500'
                  : 'bg-indigo-600 hover:bg-indigo-500 disabled:opacity-80'
            }`}
          >
            {status === 'sending' && <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />}
            {SUBMIT_LABEL[status]}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
