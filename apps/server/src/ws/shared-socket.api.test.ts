import { PROTOCOL_VERSION } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../../fixtures/site/serve';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import { SMALL_EXPLORATION } from '../testing/small-exploration';
import type { RunningServer } from '../testing/spawn-server';
import { openSocket, type TestSocket } from '../testing/ws-client';

/**
 * The automation, conversational and design screens share the user's one socket: every server
 * message names the session it concerns and echoes the request it answers, and an error names its
 * feature, so no screen takes another's messages.
 */
describe('one socket, several screens and sessions', () => {
  let server: RunningServer;
  let site: Awaited<ReturnType<typeof serveFixtureSite>>;
  let alice: { token: string; user: { id: string } };
  let tab: TestSocket;
  let otherTab: TestSocket;
  const session: Record<'automation' | 'automation2' | 'conversational' | 'design', string> = {
    automation: '',
    automation2: '',
    conversational: '',
    design: '',
  };

  const connect = async () => {
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    const hello = await socket.next('connection_established');
    expect(hello.session_id).toBeNull();
    expect(hello.data.protocol_version).toBe(PROTOCOL_VERSION);
    return socket;
  };

  beforeAll(async () => {
    site = await serveFixtureSite();
    // One piece of work at a time for her organization, so a second generation waits its turn
    // (never refused), told so about its own session. A small generation: the test is about where
    // its messages go, not what it finds.
    server = await startInProcess({
      ...SMALL_EXPLORATION,
      ALLOWED_TARGETS: '127.0.0.1',
      MAX_BROWSERS_PER_USER: '4',
      ORG_MAX_CONCURRENT_RUNS: '1',
    });
    const api = client(server);
    alice = await api.signUp('alice');
    const types = {
      automation: 'automation',
      automation2: 'automation',
      conversational: 'conversational',
      design: 'figma-comparison',
    } as const;
    for (const [key, session_type] of Object.entries(types)) {
      const created = await api.call('POST', '/api/sessions/', {
        token: alice.token,
        json: { title: key, session_type, url: `${site.url}/` },
      });
      session[key as keyof typeof session] = created.data.id;
    }
    tab = await connect();
    otherTab = await connect();
  });
  afterAll(async () => {
    tab?.ws.close(1000);
    otherTab?.ws.close(1000);
    await server?.stop();
    await site?.close();
  });

  it("routes each screen's messages by session and request; one session's error never names another", async () => {
    // The automation screen starts a generation; the conversational and design screens speak meanwhile.
    tab.send('generate_test_cases', { url: `${site.url}/`, session_id: session.automation }, 'gen-1');
    const started = await tab.next('generation_started');
    expect(started).toMatchObject({ session_id: session.automation, request_id: 'gen-1' });

    tab.send('start_conversation', { url: `${site.url}/`, session_id: session.conversational }, 'conv-1');
    tab.send(
      'figma_website_comparison',
      { comparison_type: 'image', file_id: 'f1', website_url: `${site.url}/`, session_id: session.design },
      'design-1',
    );
    // A second automation session of hers asks while the first one's work goes on: it waits its turn,
    // told so about itself (and stopped below before it starts).
    tab.send('generate_test_cases', { url: `${site.url}/`, session_id: session.automation2 }, 'gen-2');
    // An unreadable conversational frame: still addressed to its screen and session.
    tab.send('conversation_message', { message: '   ', session_id: session.conversational }, 'conv-2');

    expect(await tab.next('automation_queued')).toMatchObject({
      session_id: session.automation2,
      request_id: 'gen-2',
      data: { kind: 'generating', ahead: 0 },
    });
    const errors = [await tab.next('error')];
    const byRequest = Object.fromEntries(errors.map((e) => [e.request_id, e]));
    // The conversational screen's start is answered about its session and request: its live browser loads.
    expect(await tab.next('browser_status')).toMatchObject({
      session_id: session.conversational,
      request_id: 'conv-1',
      data: { status: 'loading' },
    });
    // The design screen's comparison names an upload that does not exist: refused on its own screen.
    expect(await tab.next('vision_comparison_error')).toMatchObject({
      session_id: session.design,
      request_id: 'design-1',
      data: { error: 'The uploaded design was not found; upload it again' },
    });
    // Stopped while it waits: it leaves the line and never starts, said about its own session.
    tab.send('stop_execution', { session_id: session.automation2, force: false }, 'stop-2');
    expect(await tab.next('execution_stopped')).toMatchObject({
      session_id: session.automation2,
      request_id: 'stop-2',
    });
    expect(byRequest['conv-2']).toMatchObject({
      session_id: session.conversational,
      data: { code: 'VALIDATION', feature: 'conversational' },
    });
    for (const error of errors) expect(error.session_id).not.toBe(session.automation);

    const generated = await tab.next('test_cases_generated', 90_000);
    expect(generated).toMatchObject({ session_id: session.automation, request_id: 'gen-1' });
    // Everything the generation said is about its session and answers its request.
    const automation = tab.all.filter((m) =>
      ['generation_started', 'progress_update', 'test_cases_generated'].includes(m.type),
    );
    expect(automation.length).toBeGreaterThan(2);
    for (const m of automation) expect([m.session_id, m.request_id]).toEqual([session.automation, 'gen-1']);

    // Her other tab followed the same work, and none of this tab's refusals reached it.
    await otherTab.next('test_cases_generated', 5_000);
    expect(otherTab.all.filter((m) => m.type === 'error')).toEqual([]);
    // Everything it got is about the automation work or the live browser (its status, frames).
    for (const m of otherTab.all.filter((m) => m.type !== 'connection_established')) {
      if (m.session_id === session.conversational) {
        expect(['browser_status', 'video_frame', 'conversation_response']).toContain(m.type);
      } else if (m.session_id === session.automation2) {
        expect(['automation_queued', 'execution_stopped']).toContain(m.type);
      } else expect(m.session_id).toBe(session.automation);
    }
    tab.send('stop_conversation', { session_id: session.conversational }, 'conv-3');
    expect(await tab.next('conversation_stopped')).toMatchObject({
      session_id: session.conversational,
      request_id: 'conv-3',
    });
  }, 120_000);

  it('answers a stop about the session of the work, and a status question about nothing under way with silence', async () => {
    tab.send('stop_execution', { session_id: session.automation2, force: false }, 'stop-1');
    const stopped = await tab.next('execution_stopped');
    // Nothing was under way: the acknowledgement is about the session the stop named.
    expect(stopped).toMatchObject({ session_id: session.automation2, request_id: 'stop-1' });
    tab.send('get_automation_status', {}, 'status-1');
    await expect(tab.next('automation_in_progress', 500)).rejects.toThrow();
  });
});
