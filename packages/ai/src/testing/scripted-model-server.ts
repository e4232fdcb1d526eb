import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the scripted server received, in terms common to both wire formats. */
export interface ScriptedRequest {
  wire: 'openai' | 'anthropic';
  model: string;
  /** The system prompt. */
  system: string;
  /** Every text part of the user's messages, joined. */
  prompt: string;
  /** Images sent with the request. */
  images: number;
  /** Whether the client asked for a JSON answer (OpenAI response_format, Anthropic output format or JSON tool). */
  wantsJson: boolean;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** How the server answers one request. */
export type ScriptedReply =
  /** A JSON answer (sent as text, or as the forced tool's input when an Anthropic client asked for a JSON tool). */
  | { json: unknown; inputTokens?: number; outputTokens?: number }
  /** Any text, valid JSON or not. */
  | { text: string; inputTokens?: number; outputTokens?: number }
  /** A refusal in the provider's own form (OpenAI `refusal`, Anthropic `stop_reason: refusal`). */
  | { refuse: string }
  /** An HTTP error with the provider's error body. */
  | { status: number; message?: string; headers?: Record<string, string> }
  /** No answer until the client gives up (a timeout or a stop). */
  | { hang: true };

export type Responder = (request: ScriptedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedModelServer {
  /** Base URL for every provider: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: ScriptedRequest[];
  /** Replaces how the server answers. */
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

/**
 * An OpenAI- and Anthropic-compatible model server on 127.0.0.1 that answers from a script, so the LLM
 * engine's whole loop runs in tests without a network or a key: `POST /v1/chat/completions` in OpenAI's
 * wire format and `POST /v1/messages` in Anthropic's.
 */
export async function startScriptedModelServer(responder: Responder): Promise<ScriptedModelServer> {
  let respond = responder;
  const requests: ScriptedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const wire = req.url?.endsWith('/messages')
          ? 'anthropic'
          : req.url?.endsWith('/chat/completions')
            ? 'openai'
            : null;
        if (req.method !== 'POST' || !wire) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400).end('{"error":{"message":"invalid JSON body"}}');
          return;
        }
        const request = normalise(wire, body, req.headers);
        requests.push(request);
        const reply = await respond(request, requests.length - 1);
        if ('hang' in reply) {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        if ('status' in reply) {
          const error =
            wire === 'openai'
              ? { error: { message: reply.message ?? `HTTP ${reply.status}`, type: 'scripted_error' } }
              : {
                  type: 'error',
                  error: { type: 'scripted_error', message: reply.message ?? `HTTP ${reply.status}` },
                };
          res
            .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
            .end(JSON.stringify(error));
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer(wire, body, reply)));
      })().catch((error: unknown) => {
        res.writeHead(500).end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respondWith(next) {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Part = { type?: string; text?: string };

function texts(content: unknown): { text: string; images: number } {
  if (typeof content === 'string') return { text: content, images: 0 };
  let text = '';
  let images = 0;
  for (const part of (content as Part[]) ?? []) {
    if (part.type === 'text' && part.text) text += `${part.text}\n`;
    if (part.type === 'image' || part.type === 'image_url') images += 1;
  }
  return { text, images };
}

function normalise(
  wire: 'openai' | 'anthropic',
  body: Record<string, unknown>,
  headers: IncomingMessage['headers'],
): ScriptedRequest {
  const messages = (body.messages as { role: string; content: unknown }[]) ?? [];
  let system = wire === 'anthropic' ? texts(body.system).text : '';
  let prompt = '';
  let images = 0;
  for (const message of messages) {
    const { text, images: count } = texts(message.content);
    if (message.role === 'system') system += text;
    else if (message.role === 'user') {
      prompt += text;
      images += count;
    }
  }
  const wantsJson =
    wire === 'openai'
      ? body.response_format !== undefined
      : body.output_config !== undefined || jsonToolName(body) !== undefined;
  return {
    wire,
    model: String(body.model),
    system: system.trim(),
    prompt: prompt.trim(),
    images,
    wantsJson,
    headers,
    body,
  };
}

/** The tool an Anthropic client forces for a JSON answer, if it asked that way. */
function jsonToolName(body: Record<string, unknown>): string | undefined {
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  return choice?.type === 'tool' ? choice.name : undefined;
}

function answer(
  wire: 'openai' | 'anthropic',
  body: Record<string, unknown>,
  reply: Exclude<ScriptedReply, { status: number } | { hang: true }>,
) {
  const text = 'json' in reply ? JSON.stringify(reply.json) : 'text' in reply ? reply.text : '';
  const inputTokens = ('inputTokens' in reply ? reply.inputTokens : undefined) ?? 100;
  const outputTokens =
    ('outputTokens' in reply ? reply.outputTokens : undefined) ?? Math.ceil(text.length / 4);
  if (wire === 'openai') {
    const refusal = 'refuse' in reply ? reply.refuse : null;
    return {
      id: `chatcmpl-scripted`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: refusal ? null : text, refusal },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: inputTokens,
        completion_tokens: outputTokens,
        total_tokens: inputTokens + outputTokens,
      },
    };
  }
  const tool = jsonToolName(body);
  const content =
    'refuse' in reply
      ? [{ type: 'text', text: reply.refuse }]
      : 'json' in reply && tool
        ? [{ type: 'tool_use', id: 'toolu_scripted', name: tool, input: reply.json }]
        : [{ type: 'text', text }];
  return {
    id: 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: 'refuse' in reply ? 'refusal' : 'json' in reply && tool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
  };
}
