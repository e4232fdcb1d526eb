import { CheckCircle2, FlaskConical } from 'lucide-react';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { SmallButton } from '../../../components/small-button';
import { TextField } from '../../../components/text-field';
import { useSaveConversationTest } from '../api/save-test-case';
import type { ConversationalStoredSession } from '../types';

const NEW_SESSION = '__new__';

export interface SaveTestFormProps {
  conversationId: string;
  /** The automation sessions the test can join (active ones, newest first). */
  automationSessions: readonly ConversationalStoredSession[];
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * 'Save as test' (beyond the spec): the conversation's browser actions become a test case of an
 * existing automation session or a new one (POST /api/conversations/{id}/test-case).
 */
export function SaveTestForm({ conversationId, automationSessions, onSaved, onCancel }: SaveTestFormProps) {
  const [name, setName] = useState('');
  const [target, setTarget] = useState(NEW_SESSION);
  const [saved, setSaved] = useState<{ testName: string } | null>(null);
  const save = useSaveConversationTest();
  const selectId = useId();

  const submit = async () => {
    try {
      const result = await save.mutateAsync({
        id: conversationId,
        body: {
          ...(name.trim() ? { test_name: name.trim() } : {}),
          automation_session_id: target === NEW_SESSION ? null : target,
        },
      });
      setSaved({ testName: result.test_case.test_name });
      toast.success(`Saved "${result.test_case.test_name}" as a test`);
      onSaved();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  if (saved) {
    return (
      <div
        className="border-t border-slate-100 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
        role="status"
        data-testid="save-test-result"
      >
        <p className="flex items-start gap-2">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            Saved "{saved.testName}" as a test.{' '}
            <Link
              to="/automation"
              className="font-semibold text-emerald-800 underline underline-offset-2 hover:text-emerald-950"
            >
              Open Automation Mode
            </Link>
          </span>
        </p>
        <SmallButton variant="ghost" className="mt-2" onClick={onCancel}>
          Close
        </SmallButton>
      </div>
    );
  }

  return (
    <form
      className="space-y-3 border-t border-slate-100 bg-slate-50 px-4 py-3"
      aria-label="Save as test"
      data-testid="save-test-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="text-xs text-slate-600">
        The actions performed in this conversation become the steps of a test case.
      </p>
      <TextField
        label="Test name (optional)"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={500}
      />
      <div>
        <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">
          Automation session
        </label>
        <select
          id={selectId}
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          className="mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none"
        >
          <option value={NEW_SESSION}>New automation session</option>
          {automationSessions.map((session) => (
            <option key={session.id} value={session.id}>
              {session.title}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-2">
        <SmallButton type="submit" variant="primary" icon={FlaskConical} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save test'}
        </SmallButton>
        <SmallButton onClick={onCancel}>Cancel</SmallButton>
      </div>
    </form>
  );
}
