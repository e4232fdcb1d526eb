import type {
  Project,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookFormat,
  WebhookWithSecret,
} from '@argus/protocol';
import { Check, Copy, KeyRound, Pause, Play, Plus, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '../../../components/badge';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { IconButton } from '../../../components/icon-button';
import { Panel } from '../../../components/panel';
import { SegmentedControl } from '../../../components/segmented-control';
import { SmallButton } from '../../../components/small-button';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { ApiError, errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { useCreateWebhook } from '../api/create-webhook';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useDeliveries } from '../api/list-deliveries';
import { useWebhooks } from '../api/list-webhooks';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { useTestWebhook } from '../api/test-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { fullTime, relativeTime } from '../model/format';
import { FormActions } from './form-actions';

const FORMAT_OPTIONS = [
  { value: 'generic', label: 'JSON', hint: "Argus's own JSON payload" },
  { value: 'slack', label: 'Slack', hint: 'A Slack incoming webhook' },
  { value: 'teams', label: 'Teams', hint: 'A Microsoft Teams workflow or incoming webhook' },
] as const;

const FORMAT_LABEL: Record<WebhookFormat, string> = { generic: 'JSON', slack: 'Slack', teams: 'Teams' };

const EVENT_OPTIONS: { value: WebhookEvent; label: string }[] = [
  { value: 'failure', label: 'On failure' },
  { value: 'recovery', label: 'On recovery' },
  { value: 'always', label: 'On every run' },
];

const EVENT_TEXT: Record<WebhookEvent, string> = {
  failure: 'failures',
  recovery: 'recoveries',
  always: 'every run',
};

const DELIVERY_STATUS: Record<
  WebhookDelivery['status'],
  { label: string; tone: 'green' | 'amber' | 'indigo' | 'red' }
> = {
  delivered: { label: 'Delivered', tone: 'green' },
  pending: { label: 'Retrying', tone: 'amber' },
  delivering: { label: 'Sending', tone: 'indigo' },
  failed: { label: 'Failed', tone: 'red' },
};

const EVENT_LABEL: Record<string, string> = {
  failure: 'Failure',
  recovery: 'Recovery',
  success: 'Passed',
  test: 'Test',
};

/** The host of a URL, for lists (a Slack URL's path is its secret: it is not shown). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A secret shown once, with a copy button. */
function SecretOnce({ secret, onDismiss }: { secret: WebhookWithSecret; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      className="space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm"
      role="status"
      data-testid="webhook-secret"
    >
      <p className="font-semibold text-amber-900">Signing secret of {secret.name}</p>
      <p className="text-xs text-amber-900">
        Copy it now: it is not shown again. Receivers check each delivery's X-Argus-Signature with it.
      </p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-800 ring-1 ring-amber-200">
          {secret.secret}
        </code>
        <IconButton
          icon={copied ? Check : Copy}
          label="Copy secret"
          onClick={() => {
            void navigator.clipboard?.writeText(secret.secret).then(
              () => setCopied(true),
              () => toast.error('Copy failed: select the secret and copy it'),
            );
          }}
        />
      </div>
      <div className="flex justify-end">
        <SmallButton onClick={onDismiss}>Done</SmallButton>
      </div>
    </div>
  );
}

function AddWebhookForm({
  projectId,
  onCreated,
  onCancel,
}: {
  projectId: string;
  onCreated: (created: WebhookWithSecret) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<WebhookFormat>('generic');
  const [events, setEvents] = useState<WebhookEvent[]>(['failure', 'recovery']);
  const [errors, setErrors] = useState<{ name?: string; url?: string; events?: string }>({});
  const create = useCreateWebhook(projectId);

  const toggle = (event: WebhookEvent) => {
    setErrors({});
    setEvents((current) =>
      current.includes(event) ? current.filter((one) => one !== event) : [...current, event],
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Name is required';
    if (!/^https?:\/\/\S+$/i.test(url.trim())) found.url = 'The URL must be an http:// or https:// address';
    if (events.length === 0) found.events = 'Choose when to call it';
    if (Object.keys(found).length) {
      setErrors(found);
      return;
    }
    create.mutate(
      { name: name.trim(), url: url.trim(), format, events },
      {
        onSuccess: (created) => {
          toast.success(`Webhook ${created.name} added`);
          onCreated(created);
        },
        onError: (error) => {
          const fields: typeof errors = {};
          if (error instanceof ApiError)
            for (const issue of error.issues) {
              const field = issue.loc[issue.loc.length - 1];
              if (field === 'url' || field === 'name') fields[field] ??= issue.msg;
              if (issue.loc.includes('events')) fields.events ??= issue.msg;
            }
          setErrors(fields);
          toast.error(errorText(error, 'The webhook could not be saved'));
        },
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="New webhook"
      className="space-y-4 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
      data-testid="webhook-form"
    >
      <h3 className="text-sm font-semibold text-slate-900">New webhook</h3>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <TextField
          label="Name"
          autoComplete="off"
          value={name}
          maxLength={100}
          onChange={(event) => {
            setName(event.target.value);
            setErrors({});
          }}
          error={errors.name}
          placeholder="Team channel"
        />
        <TextField
          label="URL"
          type="url"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={(event) => {
            setUrl(event.target.value);
            setErrors({});
          }}
          error={errors.url}
          placeholder="https://hooks.slack.com/services/…"
        />
      </div>
      <SegmentedControl
        legend="Message format"
        name="webhook-format"
        value={format}
        onChange={setFormat}
        options={FORMAT_OPTIONS}
        columns={3}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Call it</legend>
        <div className="mt-1.5 flex flex-wrap gap-x-5 gap-y-2">
          {EVENT_OPTIONS.map((option) => (
            <label key={option.value} className="inline-flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
                checked={events.includes(option.value)}
                onChange={() => toggle(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
        {errors.events && <p className="mt-1.5 text-sm text-red-600">{errors.events}</p>}
      </fieldset>
      <FormActions pending={create.isPending} onCancel={onCancel}>
        Save webhook
      </FormActions>
    </form>
  );
}

function DeliveriesList({ projectId }: { projectId: string }) {
  const deliveries = useDeliveries(projectId);
  if (deliveries.isPending)
    return (
      <div className="flex justify-center py-4 text-indigo-600">
        <Spinner label="Loading deliveries" />
      </div>
    );
  if (deliveries.isError)
    return (
      <p className="text-sm text-red-700" role="alert">
        {errorText(deliveries.error, 'The deliveries could not be loaded')}
      </p>
    );
  if (deliveries.data.length === 0)
    return <p className="text-xs text-slate-500">None yet: deliveries show here once a run is over.</p>;
  return (
    <ul
      className="divide-y divide-slate-100 rounded-lg border border-slate-200"
      data-testid="webhook-deliveries"
    >
      {deliveries.data.map((delivery) => {
        const status = DELIVERY_STATUS[delivery.status];
        return (
          <li
            key={delivery.id}
            className="flex flex-wrap items-start gap-x-3 gap-y-1 px-3 py-2.5 text-xs"
            data-testid="webhook-delivery"
            data-status={delivery.status}
          >
            <Badge tone={status.tone} className="shrink-0">
              {status.label}
            </Badge>
            <div className="min-w-0 flex-1 basis-40">
              <p className="truncate font-medium text-slate-900">
                {EVENT_LABEL[delivery.event] ?? delivery.event} → {delivery.webhook_name ?? 'deleted webhook'}
              </p>
              <p className="text-slate-600">
                {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
                {delivery.response_code !== null && <> · HTTP {delivery.response_code}</>}
                {delivery.status === 'pending' && delivery.next_attempt_at && (
                  <>
                    {' '}
                    · next{' '}
                    <span title={fullTime(delivery.next_attempt_at)}>
                      {fullTime(delivery.next_attempt_at)}
                    </span>
                  </>
                )}
              </p>
              {delivery.last_error && delivery.status !== 'delivered' && (
                <p className="break-words text-red-700">{delivery.last_error}</p>
              )}
            </div>
            <span className="shrink-0 text-slate-500" title={fullTime(delivery.created_at)}>
              {relativeTime(delivery.created_at)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The project's webhooks (JSON, Slack or Teams messages on failure, recovery or every run), each
 * delivery signed with the webhook's secret (shown once), and the latest deliveries with their status.
 */
export function WebhooksPanel({ project }: { project: Project }) {
  const webhooks = useWebhooks(project.id);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const update = useUpdateWebhook(project.id);
  const remove = useDeleteWebhook(project.id);
  const rotate = useRotateWebhookSecret(project.id);
  const test = useTestWebhook(project.id);
  const can = {
    add: useCan('POST /api/projects/:id/webhooks'),
    test: useCan('POST /api/projects/:id/webhooks/:webhookId/test'),
    rotate: useCan('POST /api/projects/:id/webhooks/:webhookId/secret'),
    update: useCan('PUT /api/projects/:id/webhooks/:webhookId'),
    remove: useCan('DELETE /api/projects/:id/webhooks/:webhookId'),
  };

  const onDelete = () => {
    if (!deleting) return;
    const hook = deleting;
    remove.mutate(hook.id, {
      onSuccess: () => {
        setDeleting(null);
        toast.success(`Webhook ${hook.name} deleted`);
      },
      onError: (error) => {
        setDeleting(null);
        toast.error(errorText(error, 'The webhook could not be deleted'));
      },
    });
  };

  return (
    <Panel
      title="Notifications"
      icon={WebhookIcon}
      subtitle="Webhooks for finished runs"
      testId="webhooks-panel"
      aside={
        can.add &&
        !adding &&
        webhooks.data && (
          <SmallButton icon={Plus} onClick={() => setAdding(true)}>
            Add webhook
          </SmallButton>
        )
      }
    >
      {webhooks.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading webhooks" />
        </div>
      ) : webhooks.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {errorText(webhooks.error, 'The webhooks could not be loaded')}
        </p>
      ) : (
        <div className="space-y-4">
          {secret && <SecretOnce secret={secret} onDismiss={() => setSecret(null)} />}
          {adding && (
            <AddWebhookForm
              projectId={project.id}
              onCreated={(created) => {
                setAdding(false);
                setSecret(created);
              }}
              onCancel={() => setAdding(false)}
            />
          )}
          {webhooks.data.length === 0 ? (
            !adding && (
              <EmptyState
                icon={WebhookIcon}
                title="No webhooks"
                hint="Post to Slack, Teams or your own endpoint when a run fails, recovers, or on every run."
              />
            )
          ) : (
            <ul className="divide-y divide-slate-100">
              {webhooks.data.map((hook) => (
                <li
                  key={hook.id}
                  className="flex flex-wrap items-start gap-x-3 gap-y-2 py-3 first:pt-0"
                  data-testid="webhook-row"
                >
                  <div className="min-w-0 flex-1 basis-48 space-y-1">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      <span className="truncate">{hook.name}</span>
                      <Badge tone="indigo">{FORMAT_LABEL[hook.format]}</Badge>
                      {!hook.enabled && <Badge tone="slate">Paused</Badge>}
                    </p>
                    <p className="truncate text-xs text-slate-600" title={hostOf(hook.url)}>
                      {hostOf(hook.url)} · on {hook.events.map((one) => EVENT_TEXT[one]).join(', ')}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-0.5">
                    {can.test && (
                      <SmallButton
                        variant="ghost"
                        icon={Send}
                        disabled={test.isPending}
                        onClick={() =>
                          test.mutate(hook.id, {
                            onSuccess: () => toast.success(`Test sent to ${hook.name}`),
                            onError: (error) => toast.error(errorText(error, 'The test could not be sent')),
                          })
                        }
                      >
                        Send test
                      </SmallButton>
                    )}
                    {can.rotate && (
                      <IconButton
                        icon={KeyRound}
                        label={`New secret for ${hook.name}`}
                        disabled={rotate.isPending}
                        onClick={() =>
                          rotate.mutate(hook.id, {
                            onSuccess: (rotated) => setSecret(rotated),
                            onError: (error) =>
                              toast.error(errorText(error, 'The secret could not be changed')),
                          })
                        }
                      />
                    )}
                    {can.update && (
                      <IconButton
                        icon={hook.enabled ? Pause : Play}
                        label={hook.enabled ? `Pause ${hook.name}` : `Resume ${hook.name}`}
                        disabled={update.isPending}
                        onClick={() =>
                          update.mutate(
                            { id: hook.id, body: { enabled: !hook.enabled } },
                            {
                              onError: (error) =>
                                toast.error(errorText(error, 'The webhook could not be changed')),
                            },
                          )
                        }
                      />
                    )}
                    {can.remove && (
                      <IconButton
                        icon={Trash2}
                        label={`Delete ${hook.name}`}
                        onClick={() => setDeleting(hook)}
                      />
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
          {webhooks.data.length > 0 && (
            <section aria-labelledby="webhook-deliveries-title" className="space-y-2">
              <h3 id="webhook-deliveries-title" className="text-sm font-semibold text-slate-900">
                Latest deliveries
              </h3>
              <DeliveriesList projectId={project.id} />
            </section>
          )}
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'webhook'}?`}
        description="Nothing more is sent to it, and its deliveries are deleted with it."
        confirmLabel="Delete webhook"
        pending={remove.isPending}
        onConfirm={onDelete}
        onClose={() => setDeleting(null)}
      />
    </Panel>
  );
}
