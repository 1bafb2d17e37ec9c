// The busy flag and error message of a form whose submit calls the API: one submit at a time, the API's reason shown.
import { useState } from 'preact/hooks';
import { explain } from '../api/client.ts';

/**
 * `action` gets the form's fields and the form itself (to reset it). On failure the error is shown and the form is usable again; on success it
 * stays busy (the page navigates away) unless `settle` is set (the page stays and shows the result).
 */
export function useSubmit(action: (fields: FormData, form: HTMLFormElement) => Promise<void>, opts: { settle?: boolean } = {}) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    setBusy(true);
    setError('');
    try {
      await action(new FormData(form), form);
      if (opts.settle) setBusy(false);
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  };
  return { error, busy, submit };
}
