// A confirmation dialog; with `typed`, the confirm button stays disabled until that exact text is typed.
import { useState } from 'preact/hooks';
import { Modal } from './modal.tsx';

export function Confirm({ title, message, action, typed, onConfirm, onClose }: {
  title: string; message: string; action: string; typed?: string; onConfirm: () => Promise<void> | void; onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const ok = !typed || text.trim() === typed;
  const go = async (e: Event) => {
    e.preventDefault();
    if (!ok) return;
    setBusy(true);
    try {
      await onConfirm();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={go}>
        <p>{message}</p>
        {error && <div class="alert" role="alert">{error}</div>}
        {typed && (
          <div class="field">
            <label for="confirm-text">Type <strong>{typed}</strong> to confirm</label>
            <input id="confirm-text" type="text" autoComplete="off" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </div>
        )}
        <div class="row-actions">
          <button type="submit" class="btn btn-danger" disabled={!ok || busy}>{action}</button>
          <button type="button" class="btn" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Modal>
  );
}
