import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { POLICY_TEXT_LIMIT as POLICY_MAX_CHARS } from '../../domains/policies/index.ts';
import { AppError } from '../../errors.ts';
import { type ConsoleDeps, field, PAGE, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, notice, type PageContext, page, time } from '../layout.ts';

interface Problem {
  line: number;
  column: number;
  message: string;
}

export function policyPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    options: {
      text?: string;
      problems?: readonly Problem[];
      message?: { kind: 'ok' | 'error'; text: string };
    } = {},
    status = 200,
  ) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/policies' };
    const current = await deps.policies.get(session.accountId);
    const problems: Html = options.problems?.length
      ? html`<div class="notice error" role="alert" id="policy-problems">
          <p>The policy was not saved:</p>
          <ul class="problems">${options.problems.map(
            (p) => html`<li>Line ${p.line}, column ${p.column}: ${p.message}</li>`,
          )}</ul>
        </div>`
      : html``;
    const body = html`${notice(options.message)}${problems}
      <p>Version ${current.version}${current.is_default ? ' (the built-in default policy)' : html`, saved ${time(current.created_at)} by <code>${current.created_by ?? ''}</code>`}.</p>
      <form method="post" action="/console/policies">
        ${csrfField(ctx)}
        <label for="policy-text">Cedar policy</label>
        <textarea id="policy-text" name="text" class="code" spellcheck="false" maxlength="${POLICY_MAX_CHARS}"
          ${options.problems?.length ? html`aria-describedby="policy-problems" aria-invalid="true"` : ''}>${options.text ?? current.policies}</textarea>
        <div class="actions"><button type="submit" class="primary">Save policy</button></div>
      </form>`;
    return sendPage(reply, page(ctx, 'Policies', body), status);
  }

  app.get('/console/policies', PAGE, (request, reply) => render(request, reply));

  app.post('/console/policies', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const text = field(request, 'text') ?? '';
    if (text.length > POLICY_MAX_CHARS) {
      return render(
        request,
        reply,
        {
          text,
          problems: [
            { line: 1, column: 1, message: `the policy is longer than ${POLICY_MAX_CHARS} characters` },
          ],
        },
        400,
      );
    }
    try {
      const saved = await deps.policies.put(session.accountId, text, session.keyId);
      return render(request, reply, { message: { kind: 'ok', text: `Saved as version ${saved.version}.` } });
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'VALIDATION_ERROR') throw err;
      const problems = (err.details?.['problems'] as Problem[] | undefined) ?? [
        { line: 1, column: 1, message: err.message },
      ];
      return render(request, reply, { text, problems }, 400);
    }
  });
}
