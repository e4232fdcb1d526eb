import type { DeliveryEvent, WebhookFormat } from '@argus/protocol';
import type { RunNotice } from './run-notices';

// A notice written in a webhook's format: the body of its deliveries.

const HEADLINES: Record<DeliveryEvent, string> = {
  failure: 'failed',
  recovery: 'recovered',
  success: 'passed',
  test: 'test notification',
};
const COLOURS: Record<DeliveryEvent, string> = {
  failure: '#d92d20',
  recovery: '#12b76a',
  success: '#12b76a',
  test: '#2e90fa',
};

function headline(notice: RunNotice): string {
  const what = `${notice.suite.name ?? 'Suite'} on ${notice.environment.name ?? 'an environment'}`;
  if (notice.event === 'test') return `Argus: test notification from ${notice.project.name}`;
  return `Argus: ${what} ${HEADLINES[notice.event]} (${notice.project.name})`;
}

function summary(notice: RunNotice): string {
  const { run } = notice;
  if (notice.event === 'test') return 'This is a test delivery: the webhook is set up.';
  const flaky = run.flaky_tests > 0 ? `, ${run.flaky_tests} flaky` : '';
  return `${run.passed_tests} passed${flaky}, ${run.failed_tests} failed of ${run.total_tests} (run ${run.status}${run.trigger ? `, started by ${run.trigger}` : ''})${repairsSaid(notice)}${visualSaid(notice)}`;
}

/** How many visual changes wait for review (docs/VISUAL-CHECKS.md); nothing when none. */
function visualSaid({ visual }: RunNotice): string {
  if (!visual || visual.to_review === 0) return '';
  const n = visual.to_review;
  return `; changes to review: ${n} visual ${n === 1 ? 'check' : 'checks'}`;
}

/** How many repairs wait for review, and failures that look like bugs (docs/REPAIRS.md); nothing when none. */
function repairsSaid({ repairs }: RunNotice): string {
  if (!repairs) return '';
  const parts = [
    repairs.proposed > 0
      ? `${repairs.proposed} ${repairs.proposed === 1 ? 'repair waits' : 'repairs wait'} for review`
      : '',
    repairs.bugs > 0
      ? `${repairs.bugs} ${repairs.bugs === 1 ? 'failure looks' : 'failures look'} like a bug`
      : '',
  ].filter(Boolean);
  return parts.length > 0 ? `; ${parts.join(', ')}` : '';
}

/**
 * The body of a delivery in a webhook's format: `generic` is the notice itself as JSON; `slack` an
 * incoming webhook's message (text and blocks); `teams` a message with an Adaptive Card, as Teams
 * workflows ("When a Teams webhook request is received") and incoming webhooks take it.
 */
export function formatNotice(format: WebhookFormat, notice: RunNotice, sentAt: Date): string {
  const title = headline(notice);
  const text = summary(notice);
  if (format === 'slack') {
    return JSON.stringify({
      text: `${title}: ${text}`,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
        { type: 'section', text: { type: 'mrkdwn', text } },
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: `Run \`${notice.run.id}\` · ${sentAt.toISOString()}` }],
        },
      ],
      attachments: [{ color: COLOURS[notice.event], fallback: text }],
    });
  }
  if (format === 'teams') {
    return JSON.stringify({
      type: 'message',
      summary: title,
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                size: 'Medium',
                weight: 'Bolder',
                wrap: true,
                color: notice.event === 'failure' ? 'Attention' : 'Good',
                text: title,
              },
              { type: 'TextBlock', wrap: true, text },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Project', value: notice.project.name },
                  { title: 'Suite', value: notice.suite.name ?? '—' },
                  { title: 'Environment', value: notice.environment.name ?? '—' },
                  { title: 'Run', value: notice.run.id },
                ],
              },
            ],
          },
        },
      ],
    });
  }
  return JSON.stringify({ ...notice, title, sent_at: sentAt.toISOString() });
}
