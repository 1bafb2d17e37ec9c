// Copies a text to the clipboard and says so (also to screen readers).
import { useState } from 'preact/hooks';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard blocked (insecure origin): select-and-copy by hand still works on the shown text.
      return;
    }
    setDone(true);
    setTimeout(() => setDone(false), 2000);
  };
  return <button type="button" class="btn btn-sm" onClick={copy} aria-live="polite">{done ? 'Copied ✓' : label}</button>;
}
