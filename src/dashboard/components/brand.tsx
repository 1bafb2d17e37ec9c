// The Tern mark and name, linking home.
export function Brand({ href = '/' }: { href?: string }) {
  return (
    <a class="brand" href={href}>
      <svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#4f46e5" /><path d="M7 20l6-8 5 5 7-9" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" /></svg>
      <span>Tern</span>
    </a>
  );
}
